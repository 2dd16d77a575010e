"""The Quixo page on the tables, in a real browser (headless Chromium): a 5x5 table position
answered exactly (moves coloured by value and plies, the best outlined), the line of perfect
play to the end as the tables give it (copied as moves, opened as a URL, followed), the
paragraph on what the number means, and all of it on a 390-pixel phone screen."""
from __future__ import annotations

import random
import urllib.parse

import pytest

from quixo_solver import Board
from quixo_solver.rules._backend import rules
from quixo_solver.tablebase import Tablebase

from .explorer_browser import (PHONE_WIDTH, page_errors, phone_screen,
                               require_browser, screenshot, text_of, texts, wait)
from .explorer_server import running_server
from .extras import require

require("starlette", "uvicorn", "selenium")
require_browser()

from selenium.webdriver.common.by import By  # noqa: E402


@pytest.fixture(scope="module")
def server(tables):
    with running_server(tables, "--searches", "1", "--search-time", "2", "--hash", "16",
                        "--access-log", "off") as url:
        yield url


@pytest.fixture(scope="module")
def table_position(tables) -> Board:
    """A 5x5 position with one blank (in the tables) whose moves are not all of one value."""
    rng = random.Random(39)
    with Tablebase(tables) as tablebase:
        while True:
            cells = rng.sample(range(25), 24)
            mover = sum(1 << cell for cell in cells[:12])
            opponent = sum(1 << cell for cell in cells[12:])
            if rules.position_status(5, mover, opponent):
                continue
            board = Board.from_masks(5, mover, opponent)
            values = {result.value for _, result in tablebase.probe_moves(board)}
            if len(values) > 1:
                return board


def page_url(server: str, board: Board) -> str:
    return f"{server}/quixo/{str(board).replace(' ', '_')}"


def mainline(browser) -> list[str]:
    return [text.split(". ", 1)[1] for text in texts(browser, "#mainline li")]


def expected_rows(tablebase: Tablebase, board: Board) -> list[str]:
    """The move list's rows as the tables give them: 'a1e1 win in 3', best first."""
    rows = []
    for move, result in tablebase.probe_moves(board):
        value = "draw" if result.value == "draw" else f"{result.value} in {result.plies}"
        rows.append(f"{move} {value}")
    return rows


def test_a_5x5_table_position_is_answered_exactly(server, browser, tables, table_position):
    with Tablebase(tables) as tablebase:
        result = tablebase.probe(table_position)
        rows = expected_rows(tablebase, table_position)
        line = [str(move) for move in tablebase.best_line(table_position)]
    browser.get(page_url(server, table_position))
    wait(browser, lambda b: texts(b, "#moves li") == rows)
    wait(browser, lambda b: "tablebase" in text_of(b, "source"))
    assert text_of(browser, "source") == "from the tablebase: exact"
    side = str(table_position).split()[1]
    verb = {"win": "wins in", "loss": "loses in"}.get(result.value)
    assert text_of(browser, "verdict") == (f"{side} {verb} {result.plies} plies" if verb
                                           else "draw")
    # coloured by value, shaded by plies among the moves of a value, the best outlined
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#moves li')].map((li) => [li.className, "
        "li.style.getPropertyValue('--strength'), getComputedStyle(li).backgroundColor])")
    values = [row.split()[1] for row in rows]
    assert [classes.split()[1] for classes, _, _ in shown] == [f"value-{v}" for v in values]
    best = [row for row in rows if row.split(" ", 1)[1] == rows[0].split(" ", 1)[1]]
    assert [classes.endswith(" best") for classes, _, _ in shown] == [
        index < len(best) for index in range(len(rows))]
    strengths = [float(strength) for _, strength, _ in shown]
    assert strengths[0] == 1.0 and all(0.3 <= s <= 1.0 for s in strengths)
    wins = [(int(row.split()[-1]), s) for row, s in zip(rows, strengths) if " win in " in row]
    assert all(a_strength >= b_strength for (a, a_strength), (b, b_strength)
               in zip(wins, wins[1:]) if a <= b)        # a faster win is shaded stronger
    # the line of perfect play, as the tables give it
    wait(browser, lambda b: mainline(b) == line)
    assert "to the end" in text_of(browser, "mainline-note")
    screenshot(browser, "quixo-5x5-table-position")
    assert page_errors(browser) == []


def test_the_line_of_perfect_play_to_the_end(server, browser, tables):
    start = Board(size=4)
    with Tablebase(tables) as tablebase:
        line = [str(move) for move in tablebase.best_line(start)]
    assert len(line) == 21
    browser.get(f"{server}/quixo/..../..../..../...._X")
    wait(browser, lambda b: mainline(b) == line)
    assert text_of(browser, "mainline-note") == "(X wins in 21 plies, to the end)"
    colours = browser.execute_script(
        "return [...document.querySelectorAll('#mainline li')].map((li) => li.className)")
    assert colours == ["value-win" if index % 2 == 0 else "value-loss" for index in range(21)]
    # copied as moves
    text = browser.find_element(By.ID, "mainline-text").get_attribute("value")
    assert text == " ".join(line)
    browser.execute_cdp_cmd("Browser.grantPermissions", {   # as a user who allows it
        "origin": server, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    browser.find_element(By.ID, "mainline-copy").click()
    wait(browser, lambda b: text_of(b, "mainline-copied"))
    assert text_of(browser, "mainline-copied") == "copied"
    assert browser.execute_script("return navigator.clipboard.readText()") == text
    # opened as a URL: the start with the line ahead, to be stepped through
    link = browser.find_element(By.ID, "mainline-link").get_attribute("href")
    parts = urllib.parse.urlsplit(link)
    assert urllib.parse.parse_qs(parts.query) == {"line": [",".join(line)]}
    browser.get(link)
    ahead = ["start"] + [f"{index + 1}. {move}" for index, move in enumerate(line)]
    wait(browser, lambda b: texts(b, "#line li") == ahead)
    assert texts(browser, "#line li.current") == ["start"]
    wait(browser, lambda b: text_of(b, "verdict") == "X wins in 21 plies")
    browser.find_elements(By.CSS_SELECTOR, "#line li button")[-1].click()
    wait(browser, lambda b: "has won" in text_of(b, "verdict"))
    assert text_of(browser, "mainline-note") == "(the game is over)"
    assert page_errors(browser) == []


def test_following_the_line_puts_it_ahead(server, browser, tables):
    start = Board(size=4)
    with Tablebase(tables) as tablebase:
        line = [str(move) for move in tablebase.best_line(start)]
    browser.get(f"{server}/quixo/..../..../..../...._X")
    wait(browser, lambda b: mainline(b) == line)
    browser.find_element(By.ID, "mainline-follow").click()
    wait(browser, lambda b: texts(b, "#line li")[1:] == [f"{i + 1}. {m}"
                                                          for i, m in enumerate(line)])
    browser.find_element(By.ID, "redo").click()
    wait(browser, lambda b: mainline(b) == line[1:])
    assert "O loses in 20 plies" in text_of(browser, "mainline-note")


def test_the_page_fits_a_phone_screen(server, browser, tables, table_position):
    phone_screen(browser)
    browser.get(page_url(server, table_position))
    assert browser.execute_script("return window.innerWidth") == PHONE_WIDTH
    with Tablebase(tables) as tablebase:
        line = [str(move) for move in tablebase.best_line(table_position)]
    wait(browser, lambda b: mainline(b) == line)
    wait(browser, lambda b: "tablebase" in text_of(b, "source"))
    # nothing wider than the screen: no sideways scrolling, every part within it
    assert browser.execute_script(
        "return document.documentElement.scrollWidth") <= PHONE_WIDTH
    for element_id in ("board", "moves", "meaning", "mainline", "mainline-tools",
                       "mainline-text", "mainline-copy", "mainline-link"):
        box = browser.execute_script(
            "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
            "return [r.left, r.right, r.width]", element_id)
        assert box[2] > 0 and box[0] >= 0 and box[1] <= PHONE_WIDTH, (element_id, box)
    assert "plies" in text_of(browser, "meaning")
    assert "fastest win" in text_of(browser, "meaning")
    assert "longest defence" in text_of(browser, "meaning")
    screenshot(browser, "quixo-5x5-table-position-phone")
    assert page_errors(browser) == []
