#!/usr/bin/env python3
"""docs/examples/kiosk.html in a real browser (headless Chromium through selenium), served from a second
loopback origin, against scand web and a real daemon replaying a recording with a new code every second.

Run by KioskPageEndToEndTests. Watches the daemon's socket for the truth (every SCAN's seq), then:
0. the page opened as a file: it says how to serve it, and the address to open;
1. the page from an allowed origin (http://127.0.0.1:PORT): scans arrive; no beep until a click on the
   page, then one a scan, none once muted;
2. a reload: the page resumes from its last event's id; then scand web restarts under it (the test restarts
   it when this script prints "restart scand web"): the browser reconnects with Last-Event-ID;
3. away (about:blank) while scans happen, then back: the missed scans arrive, replayed from the journal;
   across all three, the page got every SCAN from its first to its last exactly once, in order;
4. the same page from an origin that is not allowed (http://localhost:PORT): refused, no scan arrives.
Exit status 0 when all of that held; 1 with the reason otherwise; 77 when selenium or the browser is missing.
"""
import argparse
import functools
import http.server
import json
import os
import socket
import sys
import threading
import urllib.request

try:
    from browsing import chromium, fail, wait
    from selenium.webdriver.common.by import By
except ImportError as e:
    print(f"skip: selenium is missing ({e}); pip install selenium")
    sys.exit(77)


class Watcher(threading.Thread):
    """Every SCAN's seq, from the daemon's socket: what the page must get."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.sendall(b'?WATCH={"enable":true,"classes":["SCAN"]};\n')
        self.seqs = []
        self.lock = threading.Lock()

    def run(self):
        buffer = b""
        while True:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                event = json.loads(line)
                if event.get("class") == "SCAN":
                    with self.lock:
                        self.seqs.append(event["seq"])

    def seen(self):
        with self.lock:
            return list(self.seqs)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


# Runs before the page's own script on every load: the page's scans, kept in this tab's sessionStorage
# of the page's origin, so they survive the reload and the navigation away and back.
RECORDER = """
window.addEventListener("scand:scan", (e) => {
  const all = JSON.parse(sessionStorage.getItem("test-received") || "[]");
  all.push({ id: e.detail.id, replayed: !!e.detail.scan.replayed, text: e.detail.scan.text });
  sessionStorage.setItem("test-received", JSON.stringify(all));
});
"""


def received(driver):
    try:
        return json.loads(driver.execute_script('return sessionStorage.getItem("test-received") || "[]"'))
    except Exception:  # noqa: BLE001 - a page being replaced
        return []


def seq(entry):
    return int(entry["id"].split(":")[1])


def refused_by_origin(web):
    text = urllib.request.urlopen(web + "metrics", timeout=10).read().decode()
    for line in text.splitlines():
        if line.startswith('scand_web_requests_refused_total{reason="origin"}'):
            return float(line.split()[-1])
    return 0.0


def check_beep(driver):
    """No beep before a person touches the page (browsers' autoplay rule), and the page says so; after a
    click, one beep a scan; muted, none; unmuted again at the end."""
    sound = lambda: driver.find_element(By.ID, "sound")  # noqa: E731
    beeps = lambda: int(sound().get_attribute("data-beeps") or 0)  # noqa: E731
    if beeps() or "tap anywhere" not in sound().text:
        fail(f"before a touch: {beeps()} beeps, the button says {sound().text!r}")
    driver.find_element(By.ID, "text").click()
    wait("the beep on", lambda: sound().text == "beep on: tap to mute", 10)
    if driver.execute_script("return audio.state") != "running":
        fail("the page's audio is not running after a click")
    count, before = len(received(driver)), beeps()
    wait("2 more scans", lambda: len(received(driver)) >= count + 2, 30)
    wait("a beep for each", lambda: beeps() - before >= len(received(driver)) - count >= 2, 5)
    sound().click()
    wait("the beep muted", lambda: sound().text == "beep off: tap to unmute", 10)
    count, before = len(received(driver)), beeps()
    wait("2 more scans", lambda: len(received(driver)) >= count + 2, 30)
    if beeps() != before:
        fail(f"muted, the page beeped {beeps() - before} times")
    sound().click()
    wait("the beep on again", lambda: sound().text == "beep on: tap to mute", 10)
    print(f"beep: none before a touch, one a scan after it, none muted")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True, help="scand web's URL, ending in /")
    parser.add_argument("--socket", required=True, help="the daemon's socket")
    parser.add_argument("--pages", required=True, help="the directory of kiosk.html")
    parser.add_argument("--port", type=int, required=True, help="the port to serve the page on (the allowed origin's)")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()

    pages = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), functools.partial(QuietHandler, directory=args.pages))
    threading.Thread(target=pages.serve_forever, daemon=True).start()
    watcher = Watcher(args.socket)
    watcher.start()

    driver = chromium(args.chromium, args.chromedriver, "1024,700")
    if driver is None:
        return 77
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    server = args.web.rstrip("/")
    allowed = f"http://127.0.0.1:{args.port}/kiosk.html?server={server}"
    refused = f"http://localhost:{args.port}/kiosk.html?server={server}"
    try:
        # 0. Opened as a file: it says how to serve it, with the address to open.
        driver.get(f"file://{os.path.abspath(args.pages)}/kiosk.html?server={server}")
        said = driver.find_element(By.ID, "status").text
        if not said.startswith("Opened as a file") or f"http://localhost:3000/kiosk.html?server={server}" not in said:
            fail(f"opened as a file, the page says {said!r}")
        print(f"as a file: {said}")

        # 1. Allowed: live, scans arrive.
        driver.get(allowed)
        wait("the page to be live", lambda: driver.find_element(By.ID, "status").text == "live", 30)
        wait("3 scans in the page", lambda: len(received(driver)) >= 3, 30)
        print(f"live: {[seq(e) for e in received(driver)]}")
        check_beep(driver)

        # 2. A reload.
        before = len(received(driver))
        driver.refresh()
        wait("3 more scans after the reload", lambda: len(received(driver)) >= before + 3, 30)

        # 2b. The connection is lost: scand web restarts (the test restarts it on this line), and the
        # browser reconnects by itself with Last-Event-ID.
        before = len(received(driver))
        print("restart scand web", flush=True)
        wait("the page to notice the lost connection", lambda: driver.find_element(By.ID, "status").text != "live", 30)
        wait("the page to be live again", lambda: driver.find_element(By.ID, "status").text == "live", 30)
        wait("3 more scans after the reconnection", lambda: len(received(driver)) >= before + 3, 30)

        # 3. Away while 3 scans happen, then back: they come from the journal.
        last = seq(received(driver)[-1])
        driver.get("about:blank")
        wait("3 scans while the page is away", lambda: len([s for s in watcher.seen() if s > last]) >= 3, 30)
        missed = [s for s in watcher.seen() if s > last]
        driver.get(allowed)
        wait("the missed scans and 2 more", lambda: len(received(driver)) > 0 and seq(received(driver)[-1]) >= missed[-1]
             and len([e for e in received(driver) if seq(e) > missed[-1]]) >= 2, 30)
        got = received(driver)
        seqs = [seq(e) for e in got]
        truth = [s for s in watcher.seen() if seqs[0] <= s <= seqs[-1]]
        if seqs != truth:
            fail(f"the page got {seqs}, the daemon published {truth}")
        replayed = [seq(e) for e in got if e["replayed"]]
        if not set(missed[:3]) <= set(replayed):
            fail(f"the scans missed while away ({missed}) should have come replayed; replayed: {replayed}")
        print(f"every scan once across a reload, a reconnection and an absence: {len(seqs)} scans {seqs[0]}…{seqs[-1]}, replayed {replayed}")
        driver.save_screenshot(args.screenshot)

        # 4. Not allowed: the same page from another origin (another host name, same port).
        refusals = refused_by_origin(args.web)
        driver.get(refused)
        wait("the page to say it is not connected", lambda: driver.find_element(By.ID, "status").text.startswith("not connected"), 30)
        published = len(watcher.seen())
        wait("2 more scans published", lambda: len(watcher.seen()) >= published + 2, 30)
        if received(driver):
            fail(f"a page of a refused origin got scans: {received(driver)}")
        if refused_by_origin(args.web) <= refusals:
            fail("scand web did not count a refusal by origin")
        print(f"refused origin: no scan while {len(watcher.seen()) - published} were published")
        return 0
    except AssertionError as e:
        print(f"FAILED: {e}")
        driver.save_screenshot(args.screenshot)
        return 1
    finally:
        print(f"screenshot: {args.screenshot}")
        driver.quit()
        pages.shutdown()


if __name__ == "__main__":
    sys.exit(main())
