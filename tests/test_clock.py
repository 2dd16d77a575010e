"""Time controls and game clocks (quixo_solver.tournament.clock), on a clock the tests move by
hand."""
import math

import pytest

from quixo_solver.tournament.clock import GameClock, TimeControl, format_clock, parse_duration
from quixo_solver.errors import ClockError


class FakeTime:
    """A monotonic clock that moves only when told to."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


@pytest.mark.parametrize("text, seconds, increment", [
    ("10m+5s", 600.0, 5.0),
    ("90s", 90.0, 0.0),
    ("1m30s+2s", 90.0, 2.0),
    ("300", 300.0, 0.0),
    ("10+0.1", 10.0, 0.1),
    ("10s+0.1s", 10.0, 0.1),
    ("1h", 3600.0, 0.0),
    ("1h2m3s", 3723.0, 0.0),
    ("1.5m", 90.0, 0.0),
    ("500ms+100ms", 0.5, 0.1),
    (" 10M + 5S ", 600.0, 5.0),
    ("1m+0", 60.0, 0.0),
])
def test_time_controls_are_read_as_chess_players_write_them(text, seconds, increment):
    control = TimeControl.parse(text)
    assert control.seconds == pytest.approx(seconds)
    assert control.increment == pytest.approx(increment)


@pytest.mark.parametrize("text", [
    "", "   ", "abc", "10x", "5s10m", "1m1m", "10m+", "+5s", "-5", "10m-5s", "1e3", "inf",
    "nan", "10m+5s+1s", "10 m", "0", "0s+5s", "25h", "10m+2h", "m", "1.2.3",
])
def test_bad_time_controls_are_a_clear_error(text):
    with pytest.raises(ClockError) as error:
        TimeControl.parse(text)
    assert isinstance(error.value, ValueError)
    message = str(error.value)
    assert "clock" in message or "increment" in message


def test_a_bad_clock_message_quotes_the_text_and_shows_examples():
    with pytest.raises(ClockError, match=r"'10x'.*10m\+5s, 90s, 1m30s\+2s or 300"):
        TimeControl.parse("10x")


@pytest.mark.parametrize("value", [None, 600, b"10m"])
def test_a_clock_that_is_not_text_is_a_clear_error(value):
    with pytest.raises(ClockError, match="text"):
        TimeControl.parse(value)


@pytest.mark.parametrize("seconds, increment", [(0, 0), (-1, 0), (math.inf, 0), (10, -1),
                                                (math.nan, 0), (True, 0), ("10", 0)])
def test_time_controls_are_checked_when_built(seconds, increment):
    with pytest.raises(ClockError):
        TimeControl(seconds, increment)


@pytest.mark.parametrize("text", ["10m+5s", "90s", "1m30s+2s", "300", "10s+0.1s", "0.5s",
                                  "61.5"])
def test_a_time_control_reads_back_what_it_writes(text):
    control = TimeControl.parse(text)
    assert TimeControl.parse(str(control)) == control
    assert str(TimeControl.parse("10m+5s")) == "10m+5s"
    assert str(TimeControl.parse("90")) == "1m30s"


def test_durations_name_what_they_are():
    assert parse_duration("2m") == 120.0
    with pytest.raises(ClockError, match="bad increment"):
        TimeControl.parse("1m+x")


@pytest.mark.parametrize("seconds, shown", [
    (598.35, "9:58.3"), (600.0, "10:00.0"), (59.99, "0:59.9"), (0.04, "0:00.0"),
    (-3.0, "0:00.0"), (3723.45, "1:02:03.4"), (0.1, "0:00.1"), (60.0, "1:00.0"),
])
def test_clocks_are_shown_in_tenths_never_rounded_up(seconds, shown):
    assert format_clock(seconds) == shown


def test_a_clock_charges_the_move_and_adds_the_increment():
    now = FakeTime()
    clock = GameClock({"X": TimeControl(600, 5), "O": TimeControl(600, 5)}, now)
    assert clock.display() == "X 10:00.0 | O 10:00.0"
    clock.start("X")
    now.advance(1.7)
    assert clock.left("X") == pytest.approx(598.3)
    assert clock.display() == "X 9:58.3 | O 10:00.0"       # X's clock runs while X thinks
    assert clock.stop()
    assert clock.remaining["X"] == pytest.approx(603.3)
    clock.start("O")
    now.advance(10)
    assert clock.left("X") == pytest.approx(603.3)         # only the player to move's runs
    assert clock.stop() and clock.remaining["O"] == pytest.approx(595)
    assert clock.flagged is None


def test_starting_a_running_clock_again_keeps_its_time():
    now = FakeTime()
    clock = GameClock({"X": TimeControl(60)}, now)
    clock.start("X")
    now.advance(3)
    clock.start("X")        # e.g. the player asked for the list of moves
    now.advance(2)
    assert clock.stop() and clock.remaining["X"] == pytest.approx(55)


def test_a_player_whose_time_runs_out_is_flagged_and_gets_no_increment():
    now = FakeTime()
    clock = GameClock({"X": TimeControl(1, 5), "O": TimeControl(1, 5)}, now)
    clock.start("X")
    now.advance(1.5)
    assert clock.expired("X")
    assert not clock.stop()
    assert clock.flagged == "X" and clock.remaining["X"] == 0.0
    assert clock.display() == "X 0:00.0 | O 0:01.0"


def test_undo_gives_back_the_clocks_of_the_moves_taken_back():
    now = FakeTime()
    clock = GameClock({"X": TimeControl(60, 1), "O": TimeControl(60, 1)}, now)
    for player, seconds in (("X", 4), ("O", 7), ("X", 2)):
        clock.start(player)
        now.advance(seconds)
        clock.stop()
    assert clock.remaining == pytest.approx({"X": 56.0, "O": 54.0})
    clock.start("O")
    now.advance(3)
    clock.undo(2)           # O's last move and X's last
    assert clock.remaining == pytest.approx({"X": 57.0, "O": 60.0})
    assert clock.running is None
    clock.undo(1)
    assert clock.remaining == {"X": 60.0, "O": 60.0}
    with pytest.raises(ClockError, match="cannot take back 1 moves"):
        clock.undo(1)


def test_players_without_a_clock_never_run_out():
    now = FakeTime()
    clock = GameClock({"X1": TimeControl(10), "X2": TimeControl(10)}, now)
    clock.start("O1")
    now.advance(1000)
    assert clock.stop() and clock.left("O1") == math.inf
    assert clock.display() == "X1 0:10.0 | X2 0:10.0"
