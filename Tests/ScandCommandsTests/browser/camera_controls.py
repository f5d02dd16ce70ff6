#!/usr/bin/env python3
"""The setup page's camera controls, in headless Chromium (selenium), against scand web.

Run by WebEndToEndTests. Once the page lists the camera's controls: brightness is moved with its slider
(sent when let go), auto_exposure chosen from its menu, focus_automatic_continuous unticked, and the
inactive focus_absolute shown but not settable; then "Keep for restarts", after which the page says
"kept for restarts". A screenshot at the end.
Exit status 0 when all of that held; 1 with the reason otherwise; 77 when selenium or the browser is missing.
"""
import argparse
import sys

try:
    from browsing import fail, in_browser, wait
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError as e:
    print(f"skip: selenium is missing ({e}); pip install selenium")
    sys.exit(77)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--screenshot", required=True)
    args = parser.parse_args()

    def check(driver):
        driver.get(args.url)
        control = lambda name: driver.find_elements(By.CSS_SELECTOR, f'#controls [data-control="{name}"]')
        # Read by script: the panel is drawn anew with each answer, so elements found before go stale.
        value = lambda name: driver.execute_script(
            "const e = document.querySelector(`#controls [data-control='${arguments[0]}']`); return e && e.value;", name)
        enabled = lambda name: driver.execute_script(
            "const e = document.querySelector(`#controls [data-control='${arguments[0]}']`); return !!e && !e.disabled;", name)
        message = lambda: driver.find_element(By.ID, "controls-message").text
        wait("the camera's controls on the page", lambda: control("brightness"), 30)
        if enabled("focus_absolute"):
            fail("focus_absolute is inactive (ruled by autofocus) but can be set")
        if control("button") or control("pan_speed"):
            fail("controls scand does not set are listed")

        # A slider is sent when let go (its change event), not while it moves.
        driver.execute_script(
            "const e = arguments[0]; e.value = 200; e.dispatchEvent(new Event('input')); e.dispatchEvent(new Event('change'));",
            control("brightness")[0])
        wait("brightness 200 on the page", lambda: value("brightness") == "200"
             and "changed on the camera" in message(), 20)
        Select(control("auto_exposure")[0]).select_by_visible_text("Manual Mode")
        wait("auto_exposure set", lambda: value("auto_exposure") == "Manual Mode" and "changed on the camera" in message(), 20)
        control("focus_automatic_continuous")[0].click()
        # The camera's answer: autofocus off makes focus_absolute settable.
        wait("focus_absolute settable once autofocus is off", lambda: enabled("focus_absolute"), 20)
        kept = lambda: driver.find_element(By.ID, "controls-kept").text
        wait("the page to say the changes are not kept", lambda: "not kept" in kept(), 20)

        keep = driver.find_element(By.ID, "controls-keep")
        if not keep.is_enabled():
            fail("Keep for restarts is disabled with changes not kept")
        keep.click()
        wait("kept for restarts", lambda: kept() == "kept for restarts", 20)
        if keep.is_enabled():
            fail("Keep for restarts is still enabled with nothing left to keep")

        # A value the camera refuses: the daemon's reason on the page, and the camera's value back on the slider.
        driver.execute_script(
            "const e = arguments[0]; e.value = 255; e.dispatchEvent(new Event('change'));", control("brightness")[0])
        wait("the refusal", lambda: message().startswith("refused: /dev/video0: camera control 'brightness'"), 20)
        wait("brightness back at 200", lambda: value("brightness") == "200", 20)
        driver.save_screenshot(args.screenshot)
        print("controls: set, kept, refusal shown")
        return 0

    return in_browser(args, "1280,900", check)


if __name__ == "__main__":
    sys.exit(main())
