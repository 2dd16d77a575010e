"""The Quixo page in a real browser (headless Chromium): the empty 4x4 board's verdict, moves
played by clicking, undo and redo, a bad position, a 5x5 search's progress and its end when the
page moves on, symmetries, the team game's dots, a game against the engine on a clock.
Screenshots go to the artifacts folder (tests/explorer_browser.py)."""
from __future__ import annotations

import time
import urllib.parse

import pytest

from .explorer_browser import (FIRST_RENDER, page_errors, record, require_browser,
                               screenshot, text_of, texts, wait)
from .explorer_server import Client, running_server
from .extras import require

require("starlette", "uvicorn", "selenium")
require_browser()

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

OPEN_5 = "XO.../...../..O../...../..... X"


@pytest.fixture(scope="module")
def server(tables, tmp_path_factory):
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with running_server(tables, "--searches", "2", "--queue", "4", "--search-time", "3",
                        "--max-search-time", "20", "--hash", "16", log=log) as url:
        yield url


def square(browser, name):
    """A square of the board, clicked when it is found: the page redraws the board whenever an
    answer arrives, so an element found a moment ago may be gone."""
    class Square:
        def click(self) -> None:
            for _ in range(20):
                try:
                    browser.find_element(By.CSS_SELECTOR, f"g[data-square='{name}']").click()
                    return
                except StaleElementReferenceException:
                    time.sleep(0.05)
            raise AssertionError(f"square {name} kept changing")

        def classes(self) -> str:
            return str(browser.execute_script(
                f"return document.querySelector(\"g[data-square='{name}']\").getAttribute('class')"))
    return Square()


def moves(browser) -> list[str]:
    return texts(browser, "#moves li")


def url_state(browser) -> tuple[str, dict[str, list[str]]]:
    parts = urllib.parse.urlsplit(browser.current_url)
    return urllib.parse.unquote(parts.path), urllib.parse.parse_qs(parts.query)


def test_the_empty_4x4_board_is_a_win_in_21(server, browser):
    browser.get(f"{server}/quixo/..../..../..../...._X")
    wait(browser, lambda b: "wins in 21" in text_of(b, "verdict"))
    assert text_of(browser, "verdict") == "X wins in 21 plies"
    assert "tablebase" in text_of(browser, "source")
    wait(browser, lambda b: len(moves(b)) == 32 and "win in 21" in moves(b)[0])
    assert moves(browser)[0] == "a1d1 win in 21"
    timings = browser.execute_script(FIRST_RENDER)
    record("quixo-4x4-first-render", timings)
    assert timings["board_drawn"] is not None
    screenshot(browser, "quixo-4x4-start")
    assert page_errors(browser) == []


def test_a_click_plays_a_move_and_undo_takes_it_back(server, browser):
    browser.get(f"{server}/quixo/..../..../..../...._X")
    wait(browser, lambda b: "wins in 21" in text_of(b, "verdict"))
    wait(browser, lambda b: len(moves(b)) == 32 and "win in 21" in moves(b)[0])
    square(browser, "a1").click()
    assert "selected" in square(browser, "a1").classes()
    assert "target" in square(browser, "d1").classes()
    square(browser, "d1").click()
    wait(browser, lambda b: text_of(b, "verdict") == "O loses in 20 plies")
    wait(browser, lambda b: moves(b) and "loss in 20" in moves(b)[0])
    path, query = url_state(browser)
    assert path == "/quixo/..../..../..../...X_O"
    assert query == {"from": ["..../..../..../...._X"], "moves": ["a1d1"]}
    assert texts(browser, "#line li") == ["start", "1. a1d1"]
    screenshot(browser, "quixo-4x4-after-a1d1")
    browser.find_element(By.ID, "undo").click()
    wait(browser, lambda b: text_of(b, "verdict") == "X wins in 21 plies")
    assert url_state(browser) == ("/quixo/..../..../..../...._X", {})
    browser.find_element(By.ID, "redo").click()
    wait(browser, lambda b: text_of(b, "verdict") == "O loses in 20 plies")
    # the shared link reproduces what is shown, history included
    browser.get(browser.current_url)
    wait(browser, lambda b: text_of(b, "verdict") == "O loses in 20 plies")
    wait(browser, lambda b: len(texts(b, "#line li")) == 2)
    assert page_errors(browser) == []


def test_a_bad_position_shows_the_error_inline(server, browser):
    browser.get(f"{server}/quixo/..../..../..../...._X")
    wait(browser, lambda b: "wins in 21" in text_of(b, "verdict"))
    box = browser.find_element(By.ID, "position-input")
    box.clear()
    box.send_keys("XXXX/.... X")
    browser.find_element(By.CSS_SELECTOR, "#position-form button").click()
    wait(browser, lambda b: "cells" in text_of(b, "position-error"))
    assert text_of(browser, "position-error") == ("position 'XXXX/....' has 8 cells; a board "
                                                  "has 9, 16 or 25")
    assert box.get_attribute("aria-invalid") == "true"
    assert url_state(browser)[0] == "/quixo/..../..../..../...._X"    # nothing else changed
    screenshot(browser, "quixo-bad-position")
    box.clear()
    box.send_keys(".../.X./... O")
    browser.find_element(By.CSS_SELECTOR, "#position-form button").click()
    wait(browser, lambda b: url_state(b)[0] == "/quixo/.../.X./..._O")
    assert text_of(browser, "position-error") == ""


RECORD_VERDICTS = """
window.verdicts = [];
document.addEventListener("DOMContentLoaded", () => {
  const verdict = document.getElementById("verdict");
  new MutationObserver(() => window.verdicts.push(verdict.textContent))
    .observe(verdict, {childList: true, characterData: true, subtree: true});
});
"""


def test_a_5x5_search_shows_its_progress_and_stops_when_the_page_moves_on(server, browser):
    client = Client(server)
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                            {"source": RECORD_VERDICTS})
    browser.get(f"{server}/quixo/{OPEN_5.replace(' ', '_')}")

    def depths(b) -> list[int]:
        return [int(text.split("depth ")[1].split()[0])
                for text in b.execute_script("return window.verdicts")
                if "searched to depth" in text]
    wait(browser, lambda b: len(set(depths(b))) >= 3, seconds=30)
    shown = depths(browser)
    assert shown == sorted(shown)          # deeper and deeper, as each depth completes
    assert "searching" in text_of(browser, "source") or "heuristic" in text_of(browser, "source")
    screenshot(browser, "quixo-5x5-searching")
    assert client.get("/api/v1/status").json()["busy"] >= 1        # type: ignore[index]
    # the page moves on: its search ends on the server
    browser.get(f"{server}/quixo/..../..../..../...._X")
    wait(browser, lambda b: "wins in 21" in text_of(b, "verdict"))
    started = time.monotonic()
    while client.get("/api/v1/status").json()["busy"]:             # type: ignore[index]
        assert time.monotonic() - started < 1.5
        time.sleep(0.02)


def test_symmetries_and_swapping_sides(server, browser):
    browser.get(f"{server}/quixo/X.../..../..../...._O")
    wait(browser, lambda b: text_of(b, "verdict").startswith("O"))
    browser.find_element(By.ID, "rotate-right").click()
    wait(browser, lambda b: url_state(b)[0] == "/quixo/...X/..../..../...._O")
    browser.find_element(By.ID, "mirror-files").click()
    wait(browser, lambda b: url_state(b)[0] == "/quixo/X.../..../..../...._O")
    browser.find_element(By.ID, "mirror-ranks").click()
    wait(browser, lambda b: url_state(b)[0] == "/quixo/..../..../..../X..._O")
    wait(browser, lambda b: text_of(b, "verdict") == "O loses in 20 plies")
    verdict = text_of(browser, "verdict")
    browser.find_element(By.ID, "swap").click()
    wait(browser, lambda b: url_state(b)[0] == "/quixo/..../..../..../O..._X")
    # swapping the colours and the player to move is the same game: the same verdict
    wait(browser, lambda b: text_of(b, "verdict") == verdict.replace("O", "X", 1))


def test_the_team_game_shows_dots_and_asks_where_the_dot_points(server, browser):
    browser.get(f"{server}/quixo/X.o/.../..._O1")
    wait(browser, lambda b: "Team O" in text_of(b, "verdict") and "(" in text_of(b, "moves-note"))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .dot")) == 2
    square(browser, "a2").click()
    square(browser, "c2").click()
    assert texts(browser, "#dot-choice button") == ["O1 (a2c2)", "O2 (a2c2+)"]
    browser.find_elements(By.CSS_SELECTOR, "#dot-choice button")[1].click()
    wait(browser, lambda b: url_state(b)[0].endswith("_X2"))
    screenshot(browser, "quixo-teams")


def test_a_game_against_the_engine_on_a_clock(server, browser):
    browser.get(f"{server}/quixo/.../.../..._X")
    wait(browser, lambda b: "wins in" in text_of(b, "verdict") and "best" in text_of(b, "moves-note"))
    clock = browser.find_element(By.ID, "engine-clock")
    clock.clear()
    clock.send_keys("1m+1s")
    browser.find_element(By.ID, "engine-start").click()
    wait(browser, lambda b: b.find_element(By.ID, "clocks").is_displayed())
    assert "X 1:00" in text_of(browser, "clocks") or "X 0:59" in text_of(browser, "clocks")
    square(browser, "a1").click()
    square(browser, "c1").click()
    # the engine (O) answers on its own
    wait(browser, lambda b: len(texts(b, "#line li")) >= 3, seconds=30)
    screenshot(browser, "quixo-engine-game")
    box = browser.find_element(By.ID, "engine-clock")
    browser.find_element(By.ID, "engine-stop").click()
    box.clear()
    box.send_keys("soon")
    browser.find_element(By.ID, "engine-start").click()
    wait(browser, lambda b: "bad clock" in text_of(b, "engine-error"))
