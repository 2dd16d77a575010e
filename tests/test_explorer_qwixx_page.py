"""The Qwixx page in a real browser (headless Chromium): the advice form ranks every option as
`qwixx advise --opponents` does; the tracker refuses an illegal mark with the rule's reason,
plays turns, takes one back, keeps the game in the browser across a reload, exports and imports
`qwixx track`'s save file; and all of it works on a 390-pixel-wide phone screen. Screenshots go
to the artifacts folder (tests/explorer_browser.py)."""
from __future__ import annotations

import io
import json
import sys
import urllib.parse

import pytest

from qwixx_stats.cli import main as qwixx_main

from .explorer_browser import (PHONE_WIDTH, page_errors, phone_screen, screenshot,
                               text_of, texts, wait)
from .explorer_server import get, running_server
from .extras import require

require("starlette", "uvicorn", "selenium")
from .explorer_browser import require_browser  # noqa: E402

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

SHEET = "red:2,3,5 yellow: green:12,10 blue: penalties:1 closed:"
OPPONENT = "red:4,6 yellow:3 green: blue:12,11"

@pytest.fixture(scope="module")
def server(tables, qwixx_table_dir, qwixx_race2, tmp_path_factory):
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with running_server(tables, "--searches", "2", "--queue", "4", "--hash", "8",
                        qwixx_dir=qwixx_table_dir, log=log) as url:
        yield url


def open_page(browser, server: str, fresh: bool = True) -> None:
    browser.get(f"{server}/qwixx")
    wait(browser, lambda b: b.execute_script("return document.body.dataset.ready === '1'"))
    if fresh:     # a new game, whatever an earlier test left in localStorage
        browser.execute_script("localStorage.clear()")
        browser.refresh()
        wait(browser, lambda b: b.execute_script("return document.body.dataset.ready === '1'"))


def set_dice(browser, prefix: str, values: str) -> None:
    for index, value in enumerate(values.split(",")):
        select = browser.find_elements(By.CSS_SELECTOR, f"#{prefix}-dice select")[index]
        if value != "-":
            Select(select).select_by_value(value)


def choose(browser, seat: int, row: str) -> None:
    browser.find_element(By.CSS_SELECTOR,
                         f"#first-actions button[data-seat='{seat}'][data-row='{row}']").click()


def chosen(browser, seat: int) -> str:
    return str(browser.find_element(
        By.CSS_SELECTOR, f"#first-actions button[data-seat='{seat}'][aria-pressed='true']"
    ).get_attribute("data-row"))


def game_state(browser) -> dict:
    save = browser.execute_script("return localStorage.getItem('qwixx-track-save')")
    return json.loads(save)


def option_text(entry: dict, dice: list[int]) -> str:
    parts = []
    if entry["white"]:
        parts.append(f"{dice[0] + dice[1]} in {entry['white']}")
    if entry["colour"]:
        parts.append(f"{entry['colour']['number']} in {entry['colour']['row']}")
    return ", then ".join(parts) or "no mark: a penalty"


def test_the_advice_form_ranks_every_option_as_the_command_line(server, browser):
    open_page(browser, server)
    browser.find_element(By.ID, "advice-sheet-0").send_keys(SHEET)
    browser.find_element(By.ID, "advice-sheet-1").send_keys(OPPONENT)
    set_dice(browser, "advice", "3,4,6,1,2,5")
    browser.find_element(By.ID, "advise").click()
    wait(browser, lambda b: b.find_element(By.ID, "advice").get_attribute("data-rollouts")
         == "1000", 180)
    query = urllib.parse.urlencode({"sheet": SHEET, "dice": "3,4,6,1,2,5",
                                    "opponents": OPPONENT, "lock_after": "5"})
    status, _, body = get(f"{server}/api/v1/qwixx/advise?{query}", timeout=180)
    expected = json.loads(body)
    shown = texts(browser, "#advice li .option")
    assert status == 200 and len(shown) == len(expected["options"]) > 2
    assert shown == [option_text(entry, [3, 4]) for entry in expected["options"]]
    best = expected["options"][0]
    first = texts(browser, "#advice li")[0]
    assert f"win {100 * best['measured_win_chance']:.1f}%" in first
    assert f"model {100 * best['win_chance']:.1f}%" in first
    assert f"expected {best['expected_score']:.2f}" in first
    # a sheet that cannot be read: the server's message, inline
    browser.find_element(By.ID, "advice-sheet-1").send_keys(" purple:3")
    browser.find_element(By.ID, "advise").click()
    wait(browser, lambda b: "unknown sheet token 'purple'" in text_of(b, "advice-error"))
    assert texts(browser, "#advice li") == []
    assert page_errors(browser) == []


def test_the_lookahead_model_ranks_the_advice(server, browser):
    open_page(browser, server)
    browser.find_element(By.ID, "advice-sheet-0").send_keys(SHEET)
    browser.find_element(By.ID, "advice-sheet-1").send_keys(OPPONENT)
    set_dice(browser, "advice", "3,4,6,1,2,5")
    Select(browser.find_element(By.ID, "advice-judge")).select_by_value("lookahead")
    browser.find_element(By.ID, "advise").click()
    wait(browser, lambda b: b.find_element(By.ID, "advice").get_attribute("data-rollouts")
         == "1000", 180)
    query = urllib.parse.urlencode({"sheet": SHEET, "dice": "3,4,6,1,2,5", "rollouts": "0",
                                    "opponents": OPPONENT, "lock_after": "5",
                                    "judge": "lookahead"})
    status, _, body = get(f"{server}/api/v1/qwixx/advise?{query}", timeout=180)
    model = {option_text(entry, [3, 4]): entry["win_chance"]
             for entry in json.loads(body)["options"]}
    shown = browser.find_elements(By.CSS_SELECTOR, "#advice li")
    assert status == 200 and len(shown) == len(model) > 2
    for item in shown:
        option = item.find_element(By.CSS_SELECTOR, ".option").text
        assert f"model {100 * model[option]:.1f}%" in item.text
    assert page_errors(browser) == []


def test_the_tracker_refuses_an_illegal_mark_plays_a_turn_and_takes_it_back(server, browser):
    open_page(browser, server)
    assert text_of(browser, "track-status").startswith("Turn 1: player 1 (you) rolls")
    set_dice(browser, "track", "6,6,1,2,3,4")
    choose(browser, 1, "red")
    wait(browser, lambda b: text_of(b, "turn-error") == (
        "player 2 cannot mark 12 in red: 12 is the last number of red: locking it needs 5 red "
        "marks first (0 so far)"))
    assert chosen(browser, 1) == "-"                      # the refused mark was not taken
    set_dice(browser, "track", "3,4,6,1,2,5")
    choose(browser, 0, "red")
    choose(browser, 1, "blue")
    wait(browser, lambda b: "player 1 (you): 7 in red" in text_of(b, "turn-preview"))
    Select(browser.find_element(By.ID, "second-choice")).select_by_value("red 9")
    wait(browser, lambda b: "7 in red, 9 in red" in text_of(b, "turn-preview"))
    assert text_of(browser, "turn-error") == ""
    browser.find_element(By.ID, "play-turn").click()
    wait(browser, lambda b: text_of(b, "track-status").startswith("Turn 2: player 2 rolls"))
    assert "scores: player 1 (you) 3, player 2 1" in text_of(browser, "track-standings")
    sheets = texts(browser, "#track-sheets .sheet")
    assert "3 points" in sheets[0] and "1 points" in sheets[1]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#track-sheets .sheet .box.marked")) == 3
    assert texts(browser, "#track-history li") == [
        "player 1 (you) rolled 3,4,6,1,2,5 \u2014 player 1 (you): 7 in red, 9 in red; "
        "player 2: 7 in blue"]
    # the game is kept in the browser as qwixx track's save file: a reload goes on with it
    assert game_state(browser)["turns"] == [{"dice": "3,4,6,1,2,5", "first": ["red", "blue"],
                                             "second": ["red", 9]}]
    open_page(browser, server, fresh=False)
    assert text_of(browser, "track-status").startswith("Turn 2: player 2 rolls")
    browser.find_element(By.ID, "track-undo").click()
    wait(browser, lambda b: text_of(b, "track-status").startswith("Turn 1: player 1 (you)"))
    assert texts(browser, "#track-history li") == []
    assert game_state(browser)["turns"] == []
    assert page_errors(browser) == []


def test_a_save_file_of_qwixx_track_is_imported_and_exported(server, browser, tmp_path,
                                                             monkeypatch, capsys):
    path = tmp_path / "table.json"
    lines = ["3,4,6,1,2,5", "r -", "b9", "1,1,2,3,4,5", "- y", "-", "quit"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert qwixx_main(["track", "--players", "2", "--save", str(path)]) == 0
    capsys.readouterr()
    written = path.read_text()
    open_page(browser, server)
    browser.find_element(By.ID, "track-import").send_keys(str(path))
    wait(browser, lambda b: text_of(b, "track-status").startswith("Turn 3: player 1"))
    assert len(texts(browser, "#track-history li")) == 2
    # what Export downloads is what the page keeps: the file qwixx track wrote, byte for byte
    assert browser.execute_script("return localStorage.getItem('qwixx-track-save')") == written
    browser.find_element(By.ID, "track-export").click()
    # a file that is not a save file: the reason, and the game stays
    bad = tmp_path / "bad.json"
    bad.write_text(written.replace('"b', '"x'))
    browser.find_element(By.ID, "track-import").send_keys(str(bad))
    wait(browser, lambda b: "checksum does not match" in text_of(b, "track-error")
         or "not a qwixx-track save file" in text_of(b, "track-error"))
    assert browser.execute_script("return localStorage.getItem('qwixx-track-save')") == written
    assert page_errors(browser) == []


def test_the_page_works_on_a_390_pixel_phone_screen(server, browser):
    phone_screen(browser)
    open_page(browser, server)
    new = browser.find_element(By.CSS_SELECTOR, "#new-track")
    Select(new.find_element(By.ID, "track-players")).select_by_value("5")
    new.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#track-sheets .sheet")) == 5)
    Select(browser.find_element(By.ID, "advice-players")).select_by_value("5")
    width = browser.execute_script("return [document.documentElement.scrollWidth, "
                                   "document.body.scrollWidth, window.innerWidth]")
    assert width == [PHONE_WIDTH, PHONE_WIDTH, PHONE_WIDTH]                  # no horizontal scroll
    # every control is inside the screen's width, big enough to tap, and not covered
    controls = browser.execute_script("""
      return [...document.querySelectorAll('button, select, input, a')]
        .filter((node) => node.offsetParent !== null || node.type === 'file')
        .map((node) => {
          const target = node.type === 'file' ? node.parentElement : node;
          target.scrollIntoView({block: 'center'});
          const box = target.getBoundingClientRect();
          const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return {name: node.id || node.textContent.trim() || node.getAttribute('aria-label'),
                  left: box.left, right: box.right, width: box.width, height: box.height,
                  reachable: top === target || target.contains(top)};
        });""")
    assert len(controls) > 40
    for control in controls:
        assert 0 <= control["left"] and control["right"] <= PHONE_WIDTH, control
        assert control["width"] >= 20 and control["height"] >= 20, control
        assert control["reachable"], control
    # a turn entered by tapping, at this width
    set_dice(browser, "track", "3,4,6,1,2,5")
    choose(browser, 0, "red")
    choose(browser, 4, "blue")
    wait(browser, lambda b: "player 5: 7 in blue" in text_of(b, "turn-preview"))
    browser.find_element(By.ID, "play-turn").click()
    wait(browser, lambda b: text_of(b, "track-status").startswith("Turn 2: player 2 rolls"))
    assert browser.execute_script("return document.documentElement.scrollWidth") == PHONE_WIDTH
    height = browser.execute_script("return document.documentElement.scrollHeight")
    phone_screen(browser, height)
    screenshot(browser, "qwixx-phone", full_page=False)
    assert page_errors(browser) == []


def test_advise_me_asks_for_the_served_players_roll(server, browser):
    """Advise me fills the advice form from the tracked game: the served player's sheet
    first, the others in turn order after it, the dice, and who rolled."""
    open_page(browser, server)
    new = browser.find_element(By.CSS_SELECTOR, "#new-track")
    Select(new.find_element(By.ID, "track-me")).select_by_value("2")
    new.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda b: text_of(b, "track-status").startswith("Turn 1: player 1 rolls"))
    set_dice(browser, "track", "3,4,6,1,2,5")
    choose(browser, 0, "red")
    wait(browser, lambda b: "player 1: 7 in red" in text_of(b, "turn-preview"))
    browser.find_element(By.ID, "play-turn").click()
    wait(browser, lambda b: text_of(b, "track-status").startswith("Turn 2: player 2 (you)"))
    set_dice(browser, "track", "1,2,3,4,5,6")
    browser.find_element(By.ID, "advise-me").click()
    wait(browser, lambda b: b.find_element(By.ID, "advice").get_attribute("data-rollouts")
         == "1000", 180)
    sheets = [browser.find_element(By.ID, f"advice-sheet-{i}").get_attribute("value")
              for i in range(2)]
    assert sheets == ["red: yellow: green: blue: penalties:0 closed:",
                      "red:7 yellow: green: blue: penalties:0 closed:"]
    assert Select(browser.find_element(By.ID, "advice-roller")).first_selected_option.text \
        == "you"
    query = urllib.parse.urlencode({"sheet": sheets[0], "dice": "1,2,3,4,5,6",
                                    "opponents": sheets[1], "lock_after": "5"})
    status, _, body = get(f"{server}/api/v1/qwixx/advise?{query}", timeout=180)
    expected = json.loads(body)
    assert texts(browser, "#advice li .option") == [option_text(entry, [1, 2])
                                                    for entry in expected["options"]]
    assert page_errors(browser) == []
