"""Headless Chromium for the explorer's browser tests: Debian's `chromium` driven through its
`chromedriver` (Selenium, pointed at both: nothing is downloaded), and the screenshots the
tests keep as artifacts."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

CHROMIUM = os.environ.get("EXPLORER_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("EXPLORER_CHROMEDRIVER", "/usr/bin/chromedriver")
ARTIFACTS = Path(os.environ.get("EXPLORER_ARTIFACTS",
                                Path(__file__).resolve().parent.parent / "test-artifacts"))


def require_browser() -> None:
    """Skip where Chromium is missing, except in CI (CI=true), where that fails."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER)
               if not (Path(path).exists() or shutil.which(path))]
    if missing:
        message = f"needs {', '.join(missing)} (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message, allow_module_level=True)


def new_browser(width: int = 1280, height: int = 1000) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", f"--window-size={width},{height}",
                     "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


PHONE_WIDTH = 390


def phone_screen(browser: Any, height: int = 844) -> None:
    """A 390-pixel-wide phone screen (device metrics: a desktop window is at least 500 px)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": PHONE_WIDTH, "height": height, "deviceScaleFactor": 1, "mobile": True})


def wait(browser: Any, condition: Callable[[Any], Any], seconds: float = 20) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, seconds, poll_frequency=0.05).until(condition)


def text_of(browser: Any, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.ID, element_id).text)


def screenshot(browser: Any, name: str, full_page: bool = True) -> Path:
    """A PNG of the page (the whole page's height) under the artifacts folder."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    if full_page:
        size = browser.get_window_size()
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(size["width"], max(height, 400))
        browser.save_screenshot(str(path))
        browser.set_window_size(size["width"], size["height"])
    else:
        browser.save_screenshot(str(path))
    return path


def record(name: str, values: dict[str, Any]) -> None:
    """Figures a test read (a page's timings) as JSON beside the screenshots."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.json").write_text(json.dumps(values, indent=1) + "\n")


def page_errors(browser: Any) -> list[str]:
    """The page's JavaScript errors (a refused request's 4xx/5xx line is not one)."""
    return [entry["message"] for entry in browser.get_log("browser")
            if entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"]]


FIRST_RENDER = """
const navigation = performance.getEntriesByType("navigation")[0];
const board = performance.getEntriesByName("board-drawn")[0];
const paint = performance.getEntriesByName("first-contentful-paint")[0];
return {response_end: navigation.responseEnd, dom_content_loaded: navigation.domContentLoadedEventEnd,
        load_event_end: navigation.loadEventEnd, first_contentful_paint: paint ? paint.startTime : null,
        board_drawn: board ? board.startTime : null};
"""


def texts(browser: Any, selector: str) -> list[str]:
    """The texts of the elements that match `selector`, read at one moment (the page replaces
    its lists as answers arrive)."""
    return list(browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])]"
        ".map((node) => node.innerText.replace(/\\s+/g, ' ').trim())", selector))
