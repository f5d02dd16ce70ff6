#!/usr/bin/env python3
"""scand web's setup page in a real browser (headless Chromium through selenium).

Run by WebEndToEndTests against a real daemon replaying a recording with one code at a known place:
waits for the page's outline to cover the code, drags the rect of interest off it (a resize, then a
move), checks on the daemon's socket that STATUS shows the new rect and that no SCAN or UPDATE of the code
comes while it is outside, brings the rect back over the code, waits for its SCAN in the page's list and
saves a screenshot. Exit status 0 when all of that held; 1 with the reason otherwise; 77 when selenium or
the browser is missing.
"""
import argparse
import json
import socket
import sys
import time

try:
    from browsing import chromium, fail, wait
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
except ImportError as e:
    print(f"skip: selenium is missing ({e}); pip install selenium")
    sys.exit(77)


class Daemon:
    """A client of scand's socket: the VERSION banner, then one answer per request."""

    def __init__(self, path, timeout=10):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""
        banner = self.line()
        if banner.get("class") != "VERSION":
            raise RuntimeError(f"no VERSION banner: {banner}")

    def line(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise RuntimeError("scand closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def ask(self, request):
        self.sock.sendall(request.encode() + b"\n")
        return self.line()

    def close(self):
        self.sock.close()


def centre(corners):
    return (sum(p[0] for p in corners) / len(corners), sum(p[1] for p in corners) / len(corners))


# The page's outlines as drawn on screen, with the point of the frame the code's centre falls on.
OUTLINES = """
const img = document.getElementById("frame").getBoundingClientRect();
const [cx, cy] = arguments;
const point = { x: img.left + cx * img.width, y: img.top + cy * img.height };
return [...document.querySelectorAll("#overlay polygon")].map((p) => {
  const r = p.getBoundingClientRect();
  return { covers: r.left <= point.x && point.x <= r.right && r.top <= point.y && point.y <= r.bottom,
           width: r.width, height: r.height, normalized: JSON.parse(p.dataset.normalized || "null") };
});
"""


def outline_covering(driver, code):
    return [o for o in driver.execute_script(OUTLINES, *code) if o["covers"] and o["width"] > 5 and o["height"] > 5]


def drag(driver, element, dx, dy):
    """Press on the element's centre, move in steps (pointer events), release."""
    steps = 4
    chain = ActionChains(driver).click_and_hold(element)
    for _ in range(steps):
        chain.move_by_offset(dx / steps, dy / steps)
    chain.release().perform()


def roi_applied(driver, daemon, expected):
    wait("the page to say the rect of interest was applied",
         lambda: driver.find_element(By.ID, "roi-message").text in ("applied",) or
         driver.find_element(By.ID, "roi-message").text.startswith("refused"), 20)
    message = driver.find_element(By.ID, "roi-message").text
    if message != "applied":
        fail(f"the page's rect of interest was not applied: {message}")
    roi = daemon.ask("?STATUS;").get("roi")
    if roi is None or any(abs(a - b) > 0.03 for a, b in zip(roi, expected)):
        fail(f"STATUS shows roi {roi}, expected about {expected}")
    return roi


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--socket", required=True, help="the daemon's socket")
    parser.add_argument("--code", required=True, help="the code's centre X,Y in 0…1 of the frame")
    parser.add_argument("--text", required=True, help="the code's text")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    code = tuple(float(v) for v in args.code.split(","))

    driver = chromium(args.chromium, args.chromedriver, "1280,820")
    if driver is None:
        return 77
    daemon = Daemon(args.socket)
    try:
        driver.get(args.url)
        # 1. The live preview shows the code with its outline where the code is.
        wait("a preview frame", lambda: driver.execute_script(
            "return document.getElementById('frame').naturalWidth > 0"), 30)
        found = wait("an outline covering the code", lambda: outline_covering(driver, code), 60)
        print(f"outline: {found[0]['normalized']}")

        # 2. The rect of interest, off the code: resize to the top-left quarter, then move it down.
        preview = driver.find_element(By.ID, "preview").rect
        drag(driver, driver.find_element(By.ID, "roi-handle"), -preview["width"] * 0.5, -preview["height"] * 0.5)
        roi_applied(driver, daemon, [0, 0, 0.5, 0.5])
        drag(driver, driver.find_element(By.ID, "roi"), 0, preview["height"] * 0.25)
        roi = roi_applied(driver, daemon, [0, 0.25, 0.5, 0.5])
        print(f"roi off the code: {roi}")

        # 3. Nothing of the code from frames captured after the daemon took it.
        after = daemon.ask("?SNAPSHOT;")
        if after.get("class") != "SNAPSHOT":
            fail(f"no snapshot: {after}")
        captured = daemon.ask("?STATUS;")["captured"]
        watcher = Daemon(args.socket, timeout=0.5)
        watcher.ask('?WATCH={"enable":true,"classes":["SCAN","UPDATE"]};')
        seen, deadline = 0, time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                event = watcher.line()
            except (socket.timeout, TimeoutError):
                continue
            seen += 1
            x, y = centre(event.get("normalized", [[9, 9]]))
            if event.get("frame", 0) > after["frame"] and abs(x - code[0]) < 0.1 and abs(y - code[1]) < 0.1:
                fail(f"the code outside the rect of interest was still reported: {event}")
        watcher.close()
        progressed = daemon.ask("?STATUS;")["captured"] - captured
        if progressed <= 0:
            fail("no frame was captured while watching: the replay ended too soon")
        print(f"outside: {progressed} frames captured, {seen} events, none of the code")

        # 4. Back over the code: its SCAN, with its text, in the page's list.
        drag(driver, driver.find_element(By.ID, "roi"), preview["width"] * 0.45, 0)
        roi = roi_applied(driver, daemon, [0.45, 0.25, 0.5, 0.5])
        wait("the code's SCAN in the page's list", lambda: any(
            args.text in li.text for li in driver.find_elements(By.CSS_SELECTOR, "#scans li")), 30)
        wait("an outline covering the code again", lambda: outline_covering(driver, code), 30)
        wait("the STATUS panel", lambda: driver.find_element(By.ID, "s-fps").text not in ("", "–"), 10)
        print(f"back over the code: roi {roi}, scanned")
        return 0
    except AssertionError as e:
        print(f"FAILED: {e}")
        return 1
    finally:
        driver.save_screenshot(args.screenshot)
        print(f"screenshot: {args.screenshot}")
        daemon.close()
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
