"""What the browser tests share: a headless Chromium through selenium, and the one way they wait."""
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def fail(message):
    raise AssertionError(message)


def wait(what, condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    fail(f"timed out after {seconds} s waiting for {what}")


def chromium(binary, chromedriver, size):
    """A headless Chromium of SIZE ("W,H"); None (said on stdout) when it cannot start: a skip, not a failure."""
    options = Options()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={size}",
                 "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking"):
        options.add_argument(flag)
    try:
        return webdriver.Chrome(options=options, service=Service(chromedriver))
    except Exception as e:  # noqa: BLE001 - a browser that cannot start is a skip
        print(f"skip: chromium did not start: {e}".splitlines()[0])
        return None


def in_browser(args, size, check):
    """Runs CHECK(driver) in a Chromium of SIZE: its status (0), 1 with the reason when it failed, 77 when
    the browser cannot start. ARGS has the browser's paths (--chromium, --chromedriver)."""
    driver = chromium(args.chromium, args.chromedriver, size)
    if driver is None:
        return 77
    try:
        return check(driver)
    except AssertionError as e:
        print(f"FAILED: {e}")
        return 1
    finally:
        driver.quit()
