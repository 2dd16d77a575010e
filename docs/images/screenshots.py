"""The explorer's screenshots (README and docs), taken from the real pages in headless Chromium.

    python docs/images/screenshots.py [--dir QUIXO_TABLES] [--qwixx-dir QWIXX_TABLES]

Starts `quixo serve` on a free loopback port (the 4x4 tables are built first where missing;
the Qwixx tables are solved on first use where missing: minutes) and writes, next to this file:
    quixo-4x4.png          the empty 4x4 board: the verdict and every move coloured by value
    quixo-5x5-search.png   a 5x5 position outside the tables, searched live, depth by depth
    qwixx-phone.png        the Qwixx page on a 390-pixel phone: a game tracked turn by turn
    qwixx-phone-advice.png the same page: the advice for the served player's roll
Each PNG is kept under 300 KB (a shot over that is an error).
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIMIT = 300_000
OPEN_5 = "XO.../...../..O../...../..... X"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def browser(width: int, height: int):  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = os.environ.get("EXPLORER_CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     "--disable-dev-shm-usage", f"--window-size={width},{height}",
                     "--force-device-scale-factor=1"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(os.environ.get("EXPLORER_CHROMEDRIVER",
                                                           "/usr/bin/chromedriver")),
                            options=options)


def until(driver, script: str, seconds: float = 60) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, seconds, 0.05).until(lambda d: d.execute_script(script))


def save(driver, name: str) -> None:  # type: ignore[no-untyped-def]
    path = HERE / name
    driver.save_screenshot(str(path))
    size = path.stat().st_size
    print(f"{path.relative_to(HERE.parent.parent)}: {size / 1000:.0f} KB")
    if size > LIMIT:
        raise SystemExit(f"{name} is {size:,} bytes, over {LIMIT:,}")


def quixo_shots(url: str) -> None:
    driver = browser(1100, 760)
    try:
        driver.get(f"{url}/quixo/..../..../..../...._X")
        until(driver, "return document.querySelectorAll('#moves li.value-win').length > 0 && "
                      "document.getElementById('verdict').textContent.includes('21')")
        save(driver, "quixo-4x4.png")
        driver.get(f"{url}/quixo/{OPEN_5.replace(' ', '_')}")
        until(driver, "return /depth ([3-9]|[1-9][0-9])/.test("
                      "document.getElementById('verdict').textContent)", 60)
        save(driver, "quixo-5x5-search.png")
    finally:
        driver.quit()


def qwixx_shot(url: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = browser(800, 900)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 1500, "deviceScaleFactor": 1, "mobile": True})
        driver.get(f"{url}/qwixx")
        until(driver, "return document.body.dataset.ready === '1'")
        driver.execute_script("localStorage.clear()")
        driver.refresh()
        until(driver, "return document.body.dataset.ready === '1'")
        for dice, marks in (("3,4,6,1,2,5", {0: "red", 1: "blue"}),
                            ("2,5,1,3,6,2", {0: "blue", 1: "yellow"})):
            for index, value in enumerate(dice.split(",")):
                Select(driver.find_elements(By.CSS_SELECTOR, "#track-dice select")[index]
                       ).select_by_value(value)
            for seat, row in marks.items():
                driver.find_element(By.CSS_SELECTOR, f"#first-actions button[data-seat='{seat}']"
                                                     f"[data-row='{row}']").click()
                time.sleep(0.3)
            driver.find_element(By.ID, "play-turn").click()
            time.sleep(0.5)
        for index, value in enumerate("4,4,2,6,3,1".split(",")):
            Select(driver.find_elements(By.CSS_SELECTOR, "#track-dice select")[index]
                   ).select_by_value(value)
        driver.find_element(By.ID, "advise-me").click()
        until(driver, "return document.getElementById('advice').dataset.rollouts === '1000'", 300)
        driver.execute_script("window.scrollTo(0, 0)")
        save(driver, "qwixx-phone-advice.png")
        driver.execute_script("document.getElementById('track-title').scrollIntoView()")
        save(driver, "qwixx-phone.png")
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--qwixx-dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        port = free_port()
        command = [sys.executable, "-m", "quixo_solver", "serve", "--port", str(port),
                   "--dir", str(args.dir or scratch)]
        if args.qwixx_dir:
            command += ["--qwixx-dir", str(args.qwixx_dir)]
        server = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(1200):
                try:
                    urllib.request.urlopen(f"{url}/api/v1/status", timeout=2).close()
                    break
                except OSError:
                    time.sleep(0.25)
            quixo_shots(url)
            qwixx_shot(url)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=20)


if __name__ == "__main__":
    main()
