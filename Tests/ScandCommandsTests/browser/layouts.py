#!/usr/bin/env python3
"""The setup page on kiosk screens, in headless Chromium (selenium), against scand web and a real daemon.

Run by WebEndToEndTests. At 800x480 and 1024x600 landscape and 1080x1920 portrait: once a frame shows, the
page does not scroll either way, the header, the preview, the help line and the panels do not overlap and
stay on screen, and STATUS says its values in words (no JSON); a screenshot of each. At 800x480, the size
hint: on codes placed in the page's table, and on the daemon's reads of the frame once the page asks for
the whole frame (every linear format at 1 px a module too small, an EAN-13 at 4 px not, its outline over
its bars). Then the badge: it says
"live"; when the test stops the daemon (on the cue "stop scand") it says "daemon unreachable", and "live"
again by itself once the test has started the daemon again (on the cue "start scand").
Exit status 0 when all of that held; 1 with the reason otherwise; 77 when selenium or the browser is missing.
"""
import argparse
import re
import sys

try:
    from browsing import fail, in_browser, wait
except ImportError as e:
    print(f"skip: selenium is missing ({e}); pip install selenium")
    sys.exit(77)

SIZES = [(800, 480), (1024, 600), (1080, 1920)]

# The boxes that must not overlap, with their rects in the viewport.
BOXES = """
const boxes = [["header", document.querySelector("header")], ["preview", document.getElementById("preview")],
  ["help", document.querySelector(".help")], ["panel", document.querySelector("aside")]];
const status = document.getElementById("status").closest("section").getBoundingClientRect();
return {
  status: [status.top, status.bottom],
  scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight,
  width: innerWidth, height: innerHeight,
  boxes: boxes.map(([name, el]) => { const r = el.getBoundingClientRect(); return [name, r.left, r.top, r.right, r.bottom]; }),
};
"""


def overlap(a, b):
    return min(a[3], b[3]) - max(a[1], b[1]) > 0.5 and min(a[4], b[4]) - max(a[2], b[2]) > 0.5


def check_layout(driver, width, height):
    m = driver.execute_script(BOXES)
    if m["width"] != width or m["height"] != height:
        fail(f"the viewport is {m['width']}x{m['height']}, not {width}x{height}")
    if m["scrollWidth"] > width or m["scrollHeight"] > height:
        fail(f"at {width}x{height} the page scrolls: {m['scrollWidth']}x{m['scrollHeight']}")
    boxes = m["boxes"]
    for box in boxes:
        name, left, top, right, bottom = box
        if left < -0.5 or top < -0.5 or right > width + 0.5 or bottom > height + 0.5:
            fail(f"at {width}x{height} the {name} is off screen: {box[1:]}")
        if right - left < 20 or bottom - top < 10:
            fail(f"at {width}x{height} the {name} is squashed: {box[1:]}")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if overlap(a, b):
                fail(f"at {width}x{height} the {a[0]} overlaps the {b[0]}: {a[1:]} and {b[1:]}")
    # The panel scrolls its list of scans by itself; STATUS, at its top, is seen whole without scrolling.
    panel = next(b for b in boxes if b[0] == "panel")
    if m["status"][1] > panel[4] + 0.5:
        fail(f"at {width}x{height} STATUS does not fit: it ends at {m['status'][1]:.0f}, its panel at {panel[4]:.0f}")
    preview = next(b for b in boxes if b[0] == "preview")
    return f"{width}x{height}: preview {preview[3] - preview[1]:.0f}x{preview[4] - preview[2]:.0f} px, no scroll, no overlap"


# The size hint on a code the test places in the page's own table of codes in view (camera pixels of the
# frame's size): a 1D code is judged by its bars' width, a 2D code by its shorter side. What the page says of
# that code when it calls it too small: its size in words.
HINT = """
const [format, text, w, h] = arguments;
const fw = source.width, fh = source.height;
const polygon = document.createElementNS(svgNS, "polygon");
codes.set(999, { polygon, label: document.createElementNS(svgNS, "text"),
  format, text, normalized: [[0.1, 0.1], [0.1 + w / fw, 0.1], [0.1 + w / fw, 0.1 + h / fh], [0.1, 0.1 + h / fh]] });
updateHint();
const said = polygon.classList.contains("small") ? polygon.dataset.size : "";
removeCode(999);
return said;
"""


def check_hint(driver):
    # A Code 128 of 9 characters is 134 modules: 400 px long is 3 px a bar, however thin the label is.
    if driver.execute_script(HINT, "Code128", "TICKET-42", 400, 40):
        fail("a 1D code with 3 px bars, 40 px high, was called too small")
    said = driver.execute_script(HINT, "Code128", "TICKET-42", 150, 40)
    if said != "bars 1.1 px wide":
        fail(f"a 1D code with 1.1 px bars was not called too small: {said!r}")
    # An EAN-13 (95 modules) at 4 px a module, read on a strip of scan lines 28 px high.
    if driver.execute_script(HINT, "EAN-13", "5901234123457", 380, 28):
        fail("an EAN-13 of 380 px on a 28 px strip of scan lines was called too small")
    if driver.execute_script(HINT, "QRCode", "x", 50, 50) != "50 px":
        fail("a 50 px QR code was not called too small")
    if driver.execute_script(HINT, "QRCode", "x", 90, 90):
        fail("a 90 px QR code was called too small")
    print("size hint: 1D by the width of its bars, 2D by its shorter side")


# Every outline in the preview: its format, its size in words, whether it is called too small, its drawn
# points (camera pixels).
OUTLINES = """
return [...document.querySelectorAll("#overlay polygon")].map((p) => {
  const points = [];
  for (let i = 0; i < p.points.numberOfItems; i++) points.push([p.points.getItem(i).x, p.points.getItem(i).y]);
  return { format: p.dataset.format, size: p.dataset.size || "", small: p.classList.contains("small"), points };
});
"""


def check_real_sizes(driver, linear, bars):
    """The daemon's own reads: each linear format at 1 px a module called too small, its bars about 1 px
    wide (its event's name and its modules known to the page); the EAN-13 at 4 px a module not, outlined
    over its bars (BARS: left, top, right, bottom in camera pixels, 6 px either way)."""
    said = {}  # format -> the bar widths the page gave its outlines
    readable = []
    # The daemon starts with a rect of interest in a corner without codes: they come into view now, and the
    # page gets their SCANs (a code's length may depend on its text, which UPDATEs do not carry).
    driver.find_element("id", "roi-full").click()

    def look():
        readable.clear()
        for o in driver.execute_script(OUTLINES):
            m = re.fullmatch(r"bars ([0-9.]+) px wide", o["size"])
            width = float(m.group(1)) if m else None
            said.setdefault(o["format"], set()).add((o["size"], o["small"]))
            if o["format"] == "EAN-13" and width is not None and 3.5 <= width <= 4.5 and not o["small"]:
                readable.append(o)
        small = {f for f, sizes in said.items() for size, is_small in sizes
                 if is_small and re.fullmatch(r"bars (0\.9|1\.0|1\.1) px wide", size)}
        return readable and set(linear) <= small

    try:
        wait("every linear format at 1 px called too small and the 4 px EAN-13 not", look, 40)
    except AssertionError:
        fail(f"the page's sizes: {said}")
    # Nothing else read as readable: every 1 px code, whenever judged, was called too small.
    wrong = {f: size for f, sizes in said.items() if f in linear for size, is_small in sizes
             if size and not is_small and not (f == "EAN-13" and size.startswith("bars 4."))}
    if wrong:
        fail(f"codes at 1 px a module called readable: {wrong}")
    xs = [p[0] for p in readable[0]["points"]]
    ys = [p[1] for p in readable[0]["points"]]
    drawn = (min(xs), min(ys), max(xs), max(ys))
    if any(abs(d - b) > 6 for d, b in zip(drawn, bars)):
        fail(f"the 4 px EAN-13's outline {drawn} does not cover its bars {bars}")
    hint = driver.find_element("id", "hint").text
    if "Too small to read reliably" not in hint or "bars 4." in hint:
        fail(f"the hint says {hint!r}")
    print(f"size hint: {len(linear)} linear formats at 1 px called too small by their event names; "
          f"the EAN-13 at 4 px not, outlined over its bars at {tuple(round(v) for v in drawn)}")


def status_in_words(driver):
    text = driver.find_element("id", "status").text + driver.find_element("id", "scans").text
    if any(c in text for c in "{}[]\""):
        fail(f"STATUS or the scans show raw JSON: {text!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--screenshots", required=True, help="a directory: setup-page-WxH.png each")
    parser.add_argument("--linear", required=True, help="every linear format's name as events spell it, comma-separated")
    parser.add_argument("--readable", required=True, help="the bars of the EAN-13 at 4 px a module: left,top,right,bottom")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()

    def check(driver):
        for width, height in SIZES:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
            driver.get(args.url)
            wait("a preview frame", lambda: driver.execute_script(
                "return !document.getElementById('preview').classList.contains('no-frame')"
                " && document.getElementById('frame').naturalWidth > 0"), 30)
            wait("STATUS", lambda: driver.find_element("id", "s-roi").text not in ("", "–"), 15)
            wait("the badge saying live", lambda: driver.find_element("id", "connection").text == "live", 15)
            print(check_layout(driver, width, height))
            status_in_words(driver)
            if width == 800:
                check_hint(driver)
                check_real_sizes(driver, args.linear.split(","), tuple(int(v) for v in args.readable.split(",")))
            driver.save_screenshot(f"{args.screenshots}/setup-page-{width}x{height}.png")

        badge = lambda: driver.find_element("id", "connection").text  # noqa: E731
        print("stop scand", flush=True)
        wait("the badge saying the daemon is unreachable", lambda: badge() == "daemon unreachable", 30)
        print("badge: daemon unreachable")
        print("start scand", flush=True)
        wait("the badge saying live again", lambda: badge() == "live", 60)
        print("badge: live again")
        return 0

    return in_browser(args, "1080,1920", check)


if __name__ == "__main__":
    sys.exit(main())
