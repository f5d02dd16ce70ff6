#!/usr/bin/env python3
"""The setup page opened while a code is in view, in headless Chromium (selenium), at 800x480.

Run by WebEndToEndTests against a real daemon (update_interval 0: no UPDATE comes while the code stays still)
that has already scanned a code near the frame's right edge. Within 3 s of opening, the page outlines the
code and lists its scan; the code's label stays inside the frame; the sharpness is given against the
sharpest seen, on a bar. Then, on the cue "stop scand", the test stops the daemon: the badge says so, the
preview says why once (its `commands` as code, no backticks), and the Status cells and the controls do not
repeat it. Exit status 0 when all of that held; 1 with the reason otherwise; 77 when selenium or the browser
is missing.
"""
import argparse
import sys

try:
    from browsing import fail, in_browser, wait
except ImportError as e:
    print(f"skip: selenium is missing ({e}); pip install selenium")
    sys.exit(77)

# The outlines and labels as drawn on screen, with the frame's rect.
DRAWN = """
const frame = document.getElementById("frame").getBoundingClientRect();
return {
  frame: [frame.left, frame.right],
  outlines: [...document.querySelectorAll("#overlay polygon")].map((p) => p.dataset.format),
  labels: [...document.querySelectorAll("#overlay text")].map((t) => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, left: r.left, right: r.right };
  }),
};
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--text", required=True, help="the code's text")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()

    def check(driver):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 800, "height": 480, "deviceScaleFactor": 1, "mobile": False})
        driver.get(args.url)
        wait("a preview frame", lambda: driver.execute_script(
            "return document.getElementById('frame').naturalWidth > 0"), 30)
        # 1. Shown at once, without an event after the page opened.
        drawn = wait("the outline of the code in view", lambda: (lambda d: d if d["outlines"] else None)(
            driver.execute_script(DRAWN)), 3)
        scans = wait("the scan listed", lambda: driver.find_element("id", "scans").text, 3)
        if args.text not in scans:
            fail(f"the last scans list {scans!r}, not {args.text!r}")
        print(f"on open: {len(drawn['outlines'])} outline(s), scans {scans!r}")
        # 2. The label inside the frame, whole.
        left, right = drawn["frame"]
        for label in drawn["labels"]:
            if label["right"] > right + 1 or label["left"] < left - 1:
                fail(f"the label {label['text']!r} reaches outside the frame ({label['left']:.0f}…{label['right']:.0f}, "
                     f"frame {left:.0f}…{right:.0f})")
        if not any(args.text in label["text"] for label in drawn["labels"]):
            fail(f"no label names the code: {drawn['labels']}")
        print("labels inside the frame")
        # 3. The sharpness in words, on a bar.
        focus = wait("the sharpness", lambda: (lambda t: t if "%" in t else None)(
            driver.find_element("id", "s-focus").text), 10)
        meter = driver.execute_script("return document.getElementById('s-focus-meter').value")
        if "% of the best (" not in focus or not 0 < meter <= 100:
            fail(f"the sharpness says {focus!r} with its bar at {meter}")
        print(f"sharpness: {focus}, bar {meter}")
        # 4. The daemon stops: said once.
        print("stop scand", flush=True)
        badge = lambda: driver.find_element("id", "connection").text  # noqa: E731
        wait("the badge saying the daemon is unreachable", lambda: badge() == "daemon unreachable", 30)
        message = wait("the preview saying why", lambda: driver.find_element("id", "frame-message").text, 10)
        body = driver.execute_script("return document.body.innerText")
        if "scand is not running" not in message or "`" in message:
            fail(f"the preview says {message!r}")
        if body.count("scand is not running") != 1:
            fail(f"the reason appears {body.count('scand is not running')} times: {body!r}")
        if not driver.execute_script("return document.querySelectorAll('#frame-message code').length"):
            fail("the message's commands are not set as code")
        camera = driver.find_element("id", "s-camera").text
        if camera != "–":
            fail(f"the Status camera cell says {camera!r}")
        print(f"daemon down, said once: {message!r}")
        return 0

    return in_browser(args, "800,480", check)


if __name__ == "__main__":
    sys.exit(main())
