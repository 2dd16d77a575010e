"""The Quixo page on the four-player 4x4 game, answered from its tables in a real browser
(headless Chromium): every move with its exact value, the dot choice included."""
from __future__ import annotations

import pytest

from .explorer_browser import page_errors, require_browser, screenshot, text_of, texts, wait
from .explorer_server import running_server
from .extras import require
from .test_team_tables import DOTS_MATTER

require("starlette", "uvicorn", "selenium")
require_browser()


@pytest.fixture(scope="module")
def server(team_tables_4x4, tmp_path_factory):
    log = tmp_path_factory.mktemp("serve-teams") / "serve.log"
    with running_server(team_tables_4x4, "--searches", "1", "--hash", "16", log=log) as url:
        yield url


def test_every_move_of_a_4x4_team_position_shows_its_exact_value(server, browser):
    browser.get(f"{server}/quixo/{DOTS_MATTER.replace(' ', '_')}")
    wait(browser, lambda b: "loses in 4" in text_of(b, "verdict"))
    assert "tablebase" in text_of(browser, "source")
    wait(browser, lambda b: len(texts(b, "#moves li")) == 16)
    moves = texts(browser, "#moves li")
    assert "c4d4 loss in 4" in moves and "c4d4+ loss in 3" in moves
    assert all(" loss in " in move for move in moves)
    screenshot(browser, "quixo-teams-4x4-tables")
    assert page_errors(browser) == []
