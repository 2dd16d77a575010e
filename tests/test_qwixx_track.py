"""`qwixx track`: the game tracker for a real table, driven by scripted input."""
import argparse
import io
import json

import pytest

from qwixx_stats.track import tracker as track
from qwixx_stats.rules.game import Game
from qwixx_stats.track.savefile import load_game, save_game
from qwixx_stats.rules.sheet import Dice, Sheet
from qwixx_stats.advisor import Advice

from .qwixx_games import FIVE_EACH, build_game
from .test_qwixx_savefile import TAMPERED, tampered_file

DICE_PROMPT = "rolls - dice"


def parse_args(*argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--dir")
    track.add_arguments(parser)
    return parser.parse_args(list(argv))


class Table:
    """Scripted input: every prompt and every line written, in order, in `log`; the end of
    the script is the end of the input (EOFError, as input() raises)."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.log = []
        self.prompts = []

    def read(self, prompt):
        self.prompts.append(prompt)
        self.log.append(prompt)
        if not self.lines:
            raise EOFError
        answer = self.lines.pop(0)
        self.log[-1] += answer
        return answer

    def write(self, text):
        self.log.append(text)

    @property
    def text(self):
        return "\n".join(self.log)


def play(argv, lines, advisor=None):
    table = Table(lines)
    loaded = []

    def load_advisor(players, lock_after):
        loaded.append((players, lock_after))
        return advisor

    track.command(parse_args(*argv), load_advisor, table.read, table.write)
    table.loaded = loaded
    assert not table.lines, f"input left over: {table.lines}"
    return table


# Player 1 never marks on their own rolls: four penalties end the game after 7 turns.
PENALTY_GAME = [
    "3,4,6,1,2,5", "- red", "-",               # 1: player 2 marks 7 in red; player 1 penalty
    "1,1,6,1,2,5", "y", "-", "blue 6",          # 2: player 1 yellow 2; player 2 blue 6
    "2,3,1,1,1,1", "- -", "-",                  # 3: penalty 2
    "6,6,1,1,1,1", "-", "red", "-", "red 7", "yellow 7",   # 4: two refusals, then yellow 7
    "2,2,1,1,1,1", "", "", "",                  # 5: penalty 3 (Enter is no mark)
    "5,5,1,1,1,1", "- g", "green 6",            # 6: player 2 green 10 then 6
    "1,2,1,1,1,1", "- -", "-",                  # 7: penalty 4: game over
]

# Player 1 fills red 2..6 and player 2 yellow 2..6, then both lock in the same action 1.
TIE_GAME = ["1,1,1,1,1,1", "r y", "-", "2,1,1,1,1,1", "r y", "-", "2,2,1,1,1,1", "r y", "-",
            "3,2,1,1,1,1", "r y", "-", "3,3,1,1,1,1", "r y", "-", "6,6,1,1,1,1", "r y"]


# -- whole games ---------------------------------------------------------------------------

def test_full_game_to_four_penalties(tmp_path):
    save = tmp_path / "game.json"
    table = play(["--players", "2", "--save", str(save)], PENALTY_GAME)
    text = table.text
    assert "player 2 cannot mark 12 in red: 12 is the last number of red: locking it needs " \
           "5 red marks first (1 so far)" in text
    assert "player 2 cannot mark 7 in red: 7 is already marked in red" in text
    assert "turn 7: player 1: a penalty (4 of 4); player 2: no mark" in text
    assert "game over after 7 turns: player 1 took a fourth penalty" in text
    assert "final scores: player 1 -19, player 2 6" in text
    assert "winner: player 2 with 6" in text
    assert table.prompts[-1].startswith("game over - Enter to finish")
    game, me = load_game(save)
    assert game.is_over() and me is None and len(game.history) == 7
    assert game.scores() == [-19, 6]
    assert str(game.sheets[0]) == "red: yellow:2 green: blue: penalties:4 closed:"
    assert str(game.sheets[1]) == "red:7 yellow:7 green:10,6 blue:6 penalties:0 closed:"
    # the penalties came from the turns: the active player marked nothing
    assert [record.penalty for record in game.history] == [True, False, True, False, True,
                                                           False, True]


def test_scores_and_who_is_ahead_after_every_turn():
    table = play(["--players", "2"], PENALTY_GAME)
    text = table.text
    assert "turn 1: player 1: a penalty (1 of 4); player 2: 7 in red" in text
    assert "scores: player 1 -5, player 2 1; ahead: player 2 with 1, by 6" in text
    assert "turn 2: player 1: 2 in yellow; player 2: 6 in blue" in text
    assert "scores: player 1 -4, player 2 2; ahead: player 2 with 2, by 6" in text
    assert "turn 6: player 1: no mark; player 2: 10 in green, 6 in green" in text


def test_two_locks_in_action_1_end_the_game_in_a_tie():
    table = play(["--players", "2"], TIE_GAME)
    text = table.text
    assert "red and yellow are closed: the game ends with action 1 (no action 2)" in text
    assert "red is locked by player 1: closed for everyone" in text
    assert "yellow is locked by player 2: closed for everyone" in text
    assert "winners (a tie): player 1 and player 2 with 28" in text
    # turn 6 asked the dice and one action-1 line (it answered for both players), no action 2
    last_turn = table.prompts[table.prompts.index(
        "turn 6, player 2 rolls - dice (white,white,red,yellow,green,blue): "):]
    assert len(last_turn) == 3 and "action 1" in last_turn[1]
    assert last_turn[2].startswith("game over")
    assert not any("action 2" in prompt for prompt in last_turn)


def test_a_lock_in_action_2_ends_the_game(tmp_path):
    save = tmp_path / "game.json"
    save_game(save, build_game(2, FIVE_EACH + [("6,6,1,1,1,1", ["red", None],
                                                      ("yellow", 7))]), None)
    lines = ["1,2,1,1,1,1", "- -", "-", "6,5,1,6,1,1", "- -", "yellow 12", ""]
    table = play(["--resume", str(save)], lines)
    text = table.text
    assert "turn 8: player 1: no mark; player 2: 12 in yellow" in text
    assert "yellow is locked by player 2: closed for everyone" in text
    assert "game over after 8 turns: red and yellow are closed" in text
    assert "final scores: player 1 23, player 2 36\nwinner: player 2 with 36" in text
    game, _ = load_game(save)
    assert game.is_over() and game.scores() == [23, 36]


def test_json_mode_prints_one_object_on_stdout_and_the_text_on_stderr(capsys):
    table = play(["--players", "2", "--json"], TIE_GAME)
    payloads = [line for line in table.log if line.startswith("{")]
    assert len(payloads) == 1 and table.log[-1] == payloads[0]
    assert all(prompt == "" for prompt in table.prompts)     # the prompts went to stderr
    payload = json.loads(payloads[0])
    assert payload == {
        "players": 2, "lock_after": 5, "turns": 6, "scores": [28, 28], "winners": [1, 2],
        "over": True,
        "sheets": ["red:2,3,4,5,6,12 yellow: green: blue: penalties:0 closed:red,yellow",
                   "red: yellow:2,3,4,5,6,12 green: blue: penalties:0 closed:red,yellow"]}
    err = capsys.readouterr().err
    assert "winners (a tie): player 1 and player 2 with 28" in err
    assert "turn 1, player 1 rolls - dice" in err


def test_json_on_quit_reports_a_game_not_over():
    table = play(["--players", "3", "--json"], ["3,4,6,1,2,5", "r", "quit"])
    payload = json.loads(table.log[-1])
    assert payload["over"] is False and payload["winners"] == [] and payload["turns"] == 0
    assert payload["scores"] == [0, 0, 0]


def test_lock_after_4_variant():
    turns = ["1,1,1,1,1,1", "r -", "-", "2,1,1,1,1,1", "r -", "-", "2,2,1,1,1,1", "r -", "-",
             "3,2,1,1,1,1", "r -", "-", "6,6,1,1,1,1", "r -", "-", "quit"]
    table = play(["--players", "2", "--lock-after", "4", "--json"], turns)
    payload = json.loads(table.log[-1])
    assert payload["lock_after"] == 4
    assert payload["sheets"][0].startswith("red:2,3,4,5,12 ")
    assert payload["scores"] == [21, -10]      # six red marks (lock included); two penalties


# -- refusals -------------------------------------------------------------------------------

def test_illegal_marks_are_refused_with_the_reason_and_asked_again(tmp_path):
    # player 1 has locked red; player 2 has yellow 2..6 and 7
    game = build_game(2, FIVE_EACH + [("6,6,1,1,1,1", ["red", None], ("yellow", 7))])
    save = tmp_path / "game.json"
    save_game(save, game, None)
    lines = ["3,4,6,1,2,-",       # the blue die is still rolled
             "3,4,7,1,2,5",       # no such die
             "3,4,-,1,2,5",       # red is closed: its die is gone
             "purple", "red", "yellow",          # player 1 action 1
             "y", "-",                           # player 2: 7 is already marked
             "yellow 4", "blue 12", "blue 13", "blue", "blue 9",   # player 1 action 2
             "quit"]
    table = play(["--resume", str(save)], lines)
    text = table.text
    assert "the blue die is still rolled (blue is open): type its number 1..6" in text
    assert "dice '3,4,7,1,2,5': every die shows 1..6, not '7' (the red die)" in text
    assert "player 1 rolled white 3+4 = 7; yellow 1, green 2, blue 5" in text
    assert "unknown row 'purple'" in text
    assert "player 1 cannot mark 7 in red: red is closed" in text
    assert "player 2 cannot mark 7 in yellow: 7 is already marked in yellow" in text
    assert "player 1 cannot mark 4 in yellow: 4 is left of the last yellow mark (7): marks go " \
           "to the right" in text
    assert "player 1 cannot mark 12 in blue: 12 is not a white die plus the blue die " \
           "(3+5 = 8, 4+5 = 9)" in text
    assert "13 is not a number of a row (2..12)" in text
    assert "action 2 'blue': type a row and a number" in text
    assert "turn 7: player 1: 7 in yellow, 9 in blue; player 2: no mark" in text
    # each refusal asked the same question again
    action_1 = [p for p in table.prompts if p.startswith("  player 1 action 1")]
    action_2 = [p for p in table.prompts if p.startswith("  player 1 action 2")]
    assert len(action_1) == 3 and len(action_2) == 5
    assert len([p for p in table.prompts if DICE_PROMPT in p]) == 4
    resumed, _ = load_game(save)
    assert str(resumed.sheets[0]) == ("red:2,3,4,5,6,12 yellow:7 green: blue:9 penalties:0 "
                                      "closed:red")
    assert resumed.history[-1].dice == Dice(3, 4, 1, 1, 2, 5)    # a removed die is stored as 1


def test_action_2_in_a_row_locked_by_action_1_is_refused(tmp_path):
    save = tmp_path / "game.json"
    save_game(save, build_game(2, FIVE_EACH), None)
    lines = ["6,6,1,5,1,1", "r -", "red 7", "yellow 11", "quit"]
    table = play(["--resume", str(save)], lines)
    assert "red was locked in action 1: it is closed for action 2" in table.text
    assert "player 2 cannot mark 7 in red: red was locked in action 1 of this turn" \
        in table.text
    game, _ = load_game(save)
    assert str(game.sheets[0]) == ("red:2,3,4,5,6,12 yellow: green: blue: penalties:0 "
                                   "closed:red")
    assert str(game.sheets[1]) == ("red: yellow:2,3,4,5,6,11 green: blue: penalties:0 "
                                   "closed:red")


def test_a_refused_line_for_several_players_takes_nothing(capsys):
    lines = ["1,1,1,1,1,1", "r purple b", "r y g", "r y", "-", "g", "-", "quit"]
    table = play(["--players", "3", "--json"], lines)
    err = capsys.readouterr().err
    assert "unknown row 'purple'" in err
    assert "player 3 cannot mark 2 in green: 2 is the last number of green: locking it needs 5 " \
           "green marks first (0 so far); nothing on this line was taken" in err
    payload = json.loads(table.log[-1])
    assert payload["turns"] == 1 and payload["scores"] == [1, 1, 0]
    assert payload["sheets"][0].startswith("red:2 yellow: green: blue:")
    assert payload["sheets"][1].startswith("red: yellow:2 green: blue:")
    assert payload["sheets"][2].startswith("red: yellow: green: blue:")


def test_line_for_too_many_players_is_refused(capsys):
    lines = ["1,1,1,1,1,1", "- r y", "- r", "-", "quit"]
    play(["--players", "2", "--json"], lines)
    assert "3 answers for 2 player(s) from player 1 on" in capsys.readouterr().err


def test_parse_dice_forms():
    assert track.parse_dice("3,4,6,1,2,5") == track.parse_dice(" 3 4 6 1 2 5 ") \
        == track.parse_dice("346125") == track.parse_dice("3, 4,6 1,2,5") == Dice(3, 4, 6, 1, 2, 5)
    assert track.parse_dice("3,4,-,1,-,5", frozenset({"red", "green"})) == Dice(3, 4, 1, 1, 1, 5)
    for bad, words in [("3,4,6,1,2", "got 5"), ("-,4,6,1,2,5", "white dice are always"),
                       ("3,4,6,1,2,0", r"every die shows 1\.\.6, not '0' \(the blue die\)"),
                       ("3 4 x 1 2 5", r"expected six numbers .*, not 'x' \(the red die\)"),
                       ("", "type the dice")]:
        with pytest.raises(track.InputRefused, match=words):
            track.parse_dice(bad)


# -- undo -----------------------------------------------------------------------------------

def test_undo_restarts_the_turn_being_entered(tmp_path):
    save = tmp_path / "game.json"
    lines = ["3,4,6,1,2,5", "red", "undo",                     # at player 2's action 1
             "5,5,6,1,2,5", "- -", "undo",                     # at player 1's action 2
             "1,1,6,1,2,5", "red", "-", "-",                   # the turn as played
             "quit"]
    table = play(["--players", "2", "--save", str(save)], lines)
    assert table.text.count("the turn is started again: type the dice") == 2
    game, _ = load_game(save)
    assert len(game.history) == 1 and game.history[0].dice == Dice(1, 1, 6, 1, 2, 5)
    assert game.history[0].penalty is False
    assert str(game.sheets[0]) == "red:2 yellow: green: blue: penalties:0 closed:"
    assert str(game.sheets[1]) == "red: yellow: green: blue: penalties:0 closed:"


def test_undo_takes_back_completed_turns_and_the_file_follows(tmp_path):
    save = tmp_path / "game.json"
    lines = ["undo",                                           # nothing to take back yet
             "3,4,6,1,2,5", "r y", "-",
             "1,1,6,1,2,5", "- -", "-",                       # player 2: a penalty
             "undo",                                           # takes back turn 2
             "2,2,6,1,2,5", "- g", "-", "quit"]
    table = play(["--players", "2", "--save", str(save)], lines)
    text = table.text
    assert "nothing to take back: no turn has been played yet" in text
    assert "took back turn 2 (player 2 rolled 1,1,6,1,2,5)" in text
    # after the undo the same player rolls again, as turn 2
    dice_prompts = [p for p in table.prompts if DICE_PROMPT in p]
    assert dice_prompts[-2].startswith("turn 2, player 2 rolls") and \
        dice_prompts[-1].startswith("turn 3, player 1 rolls")
    game, _ = load_game(save)
    assert [str(r.dice) for r in game.history] == ["3,4,6,1,2,5", "2,2,6,1,2,5"]
    assert str(game.sheets[1]) == "red: yellow:7 green:4 blue: penalties:0 closed:"


def test_undo_after_the_end_goes_back_into_the_game(tmp_path):
    save = tmp_path / "game.json"
    lines = PENALTY_GAME + ["undo", "1,2,1,1,1,1", "r -", "-"]
    table = play(["--players", "2", "--save", str(save)], lines)
    assert "took back turn 7 (player 1 rolled 1,2,1,1,1,1)" in table.text
    game, _ = load_game(save)
    assert not game.is_over() and len(game.history) == 7
    assert str(game.sheets[0]) == "red:3 yellow:2 green: blue: penalties:3 closed:"


# -- commands -------------------------------------------------------------------------------

def test_show_help_and_save_do_not_change_the_turn(tmp_path):
    later = tmp_path / "later.json"
    lines = ["3,4,6,1,2,5", "help", "r", "show", "g", f"save {later}", "-",
             "1,1,1,1,1,1", "quit"]
    table = play(["--players", "2", "--me", "2"], lines, advisor=FakeAdvisor())
    text = table.text
    assert "action 2  the active player's white die + coloured die" in text    # help
    assert "turn 1: player 1 rolled (the marks of this turn are not on the sheets yet)\n" \
           "lock after 5 marks; closed rows: none\n" \
           "  player 1           0  red: yellow: green: blue: penalties:0 closed:\n" \
           "  player 2 (you)     0  red: yellow: green: blue: penalties:0 closed:\n" \
           "all tied at 0" in text
    assert f"saved 0 turns in {later} (and after every turn from now on)" in text
    assert "player 2 (you) action 1" in text
    # save FILE became the file saved after every turn
    game, me = load_game(later)
    assert len(game.history) == 1 and me == 1
    assert str(game.sheets[0]) == "red:7 yellow: green: blue: penalties:0 closed:"
    assert "the turn being entered is dropped" in text
    assert f"the game is saved in {later}: go on with --resume {later}" in text


def test_save_command_without_a_file_says_how():
    table = play(["--players", "2"], ["save", "quit"])
    assert "save FILE: name the file to save the game in" in table.text


def test_a_failed_save_does_not_end_the_session(tmp_path, capsys):
    lines = [f"save {tmp_path}", "1,1,1,1,1,1", "r -", "-", "quit"]    # a folder: cannot save
    table = play(["--players", "2", "--json"], lines)
    assert f"could not save the game in {tmp_path}" in capsys.readouterr().err
    assert json.loads(table.log[-1])["scores"] == [1, 0]


# -- save and resume ------------------------------------------------------------------------

def test_resume_gives_the_same_game(tmp_path):
    save = tmp_path / "game.json"
    first = ["3,4,6,1,2,5", "r y", "blue 9", "1,1,6,1,2,5", "- -", "blue 6", "2,5,6,6,6,6",
             "- -", "green 8", "quit"]
    before = play(["--players", "2", "--me", "2", "--save", str(save)], first,
                  advisor=FakeAdvisor())
    game, me = load_game(save)
    assert me == 1 and len(game.history) == 3 and game.active == 1
    expected = build_game(2, [("3,4,6,1,2,5", ["red", "yellow"], ("blue", 9)),
                              ("1,1,6,1,2,5", [None, None], ("blue", 6)),
                              ("2,5,6,6,6,6", [None, None], ("green", 8))])
    assert game.sheets == expected.sheets and game.scores() == expected.scores()
    assert [(r.active, r.dice, r.first, r.second, r.penalty) for r in game.history] == \
        [(r.active, r.dice, r.first, r.second, r.penalty) for r in expected.history]
    # resume: the served seat comes from the file, the state is the same, the game goes on
    advisor = FakeAdvisor()
    after = play(["--resume", str(save)], ["show", "4,4,6,6,6,6", "r -", "quit"],
                 advisor=advisor)
    assert after.loaded == [(2, 5)]
    assert "resumed the game of" in after.text and "3 turns played" in after.text
    for seat in range(2):
        assert str(expected.sheets[seat]) in after.text
    assert after.prompts[1].startswith("turn 4, player 2 (you) rolls")
    assert "scores: player 1 3, player 2 (you) 2; ahead: player 1 with 3, by 1" in before.text
    # quit during action 2: the file still holds 3 turns
    assert len(load_game(save)[0].history) == 3


def test_resume_with_save_elsewhere_and_me_override(tmp_path):
    save = tmp_path / "game.json"
    save_game(save, build_game(3, [("3,4,6,1,2,5", ["red", None, None], None)]), 0)
    other = tmp_path / "other.json"
    advisor = FakeAdvisor()
    table = play(["--resume", str(save), "--save", str(other), "--me", "3", "--players", "3"],
                 ["1,1,6,1,2,5", "- - y", "-", "quit"], advisor=advisor)
    assert "advice for player 3 (you)" in table.text
    game, me = load_game(other)
    assert me == 2 and len(game.history) == 2
    assert len(load_game(save)[0].history) == 1          # the resumed file is unchanged


def test_new_game_does_not_overwrite_an_existing_save(tmp_path):
    save = tmp_path / "game.json"
    save.write_text("precious")
    with pytest.raises(track.TrackError, match="the file exists"):
        play(["--players", "2", "--save", str(save)], [])
    resumed = tmp_path / "resumed.json"
    save_game(resumed, Game(2), None)
    with pytest.raises(track.TrackError, match="the file exists"):
        play(["--resume", str(resumed), "--save", str(save)], [])
    assert save.read_text() == "precious"
    play(["--resume", str(resumed), "--save", str(resumed)], ["quit"])     # the same file


def test_resuming_a_finished_game_reports_it_and_finishes(tmp_path):
    save = tmp_path / "game.json"
    save_game(save, build_game(2, FIVE_EACH + [("6,6,1,1,1,1", ["red", "yellow"], None)]),
                    None)
    table = play(["--resume", str(save), "--json"], [""])
    assert json.loads(table.log[-1])["winners"] == [1, 2]


def test_missing_save_file(tmp_path):
    with pytest.raises(track.TrackError, match="cannot read the save file .*missing.json"):
        play(["--resume", str(tmp_path / "missing.json")], [])


@pytest.mark.parametrize("change, message", TAMPERED)
def test_resume_refuses_a_damaged_save_file(tmp_path, change, message):
    save = tampered_file(tmp_path, change)
    with pytest.raises(track.TrackError, match=message):
        play(["--resume", str(save)], [])


# -- options --------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    ([], "--players N \\(2..8\\) is needed"),
    (["--players", "2", "--me", "3"], "--me 3: the seats are 1..2"),
    (["--players", "2", "--save", " "], "--save must name a file"),
])
def test_bad_options(argv, message):
    with pytest.raises(track.TrackError, match=message):
        play(argv, [])


def test_resume_options_must_match_the_file(tmp_path):
    save = tmp_path / "game.json"
    save_game(save, Game(2), None)
    with pytest.raises(track.TrackError, match="--players 3: the game saved in .* has 2"):
        play(["--resume", str(save), "--players", "3"], [])
    with pytest.raises(track.TrackError, match="--lock-after 4: .* locks after 5 marks"):
        play(["--resume", str(save), "--lock-after", "4"], [])


@pytest.mark.parametrize("argv", [["--players", "1"], ["--players", "9"], ["--players", "x"],
                                  ["--me", "0"], ["--lock-after", "3"]])
def test_parser_refuses_out_of_range_options(argv, capsys):
    with pytest.raises(SystemExit):
        parse_args(*argv)
    assert "error" in capsys.readouterr().err


# -- advice ---------------------------------------------------------------------------------

class FakeAdvisor:
    """Records every question; answers with fixed advice."""

    def __init__(self):
        self.calls = []

    def active(self, sheets, seat, dice):
        self.calls.append(("active", seat, str(dice), [str(s) for s in sheets]))
        return [Advice(("red", ("blue", 9)), 0.625, 100.0, 101.5),
                Advice((None, None), 0.125, 90.0, 91.25)]

    def passive(self, sheets, seat, dice, roller):
        self.calls.append(("passive", seat, str(dice), [str(s) for s in sheets]))
        assert roller != seat
        return [Advice(("yellow", None), 0.55, 100.0, 110.25)] + [
            Advice((None, None), 0.05 * i, 90.0, 105.0 - i) for i in range(5)]

    def second(self, sheets, seat, dice, marked_first):
        self.calls.append(("second", seat, str(dice), [str(s) for s in sheets], marked_first))
        return [Advice((None, ("green", 8)), 0.6, 100.0, 101.5),
                Advice((None, None), 0.2, 100.0, 99.0)]


def test_advice_for_the_served_player_on_both_kinds_of_turn():
    advisor = FakeAdvisor()
    lines = ["3,4,6,1,2,5", "-", "y", "-",          # player 1 rolls: player 2 has action 1
             "2,5,6,6,6,6", "r", "-", "green 8",    # player 2 rolls: plan, then action 2
             "quit"]
    table = play(["--players", "2", "--me", "2"], lines, advisor=advisor)
    assert table.loaded == [(2, 5)]                  # loaded once
    kinds = [call[0] for call in advisor.calls]
    assert kinds == ["passive", "active", "second"]
    assert advisor.calls[0][1:3] == (1, "3,4,6,1,2,5")
    assert advisor.calls[1][1:3] == (1, "2,5,6,6,6,6")
    # action 2 advice sees every action-1 mark (player 1's 7 in red) and no own mark
    assert advisor.calls[2][3][0].startswith("red:7 ") and advisor.calls[2][4] is False
    log = table.log
    passive_at = next(i for i, line in enumerate(log) if "advice for player 2 (you), action 1"
                      in line)
    advice_text = log[passive_at]
    assert "  1.  55.0%   110.2  7 in yellow" in advice_text
    assert "  2.   0.0%   105.0  no mark" in advice_text
    assert "(2 more)" in advice_text                 # 6 options, the top 4 shown
    first_prompt = next(i for i, line in enumerate(log) if line.startswith("  player 1 action 1"))
    assert passive_at < first_prompt
    plan_at = next(i for i, line in enumerate(log) if "your roll: both actions" in line)
    assert "  1.  62.5%   101.5  7 in red, then 9 in blue" in log[plan_at]
    assert "  2.  12.5%    91.2  no mark (a penalty)" in log[plan_at]
    second_at = next(i for i, line in enumerate(log) if "advice for player 2 (you), action 2"
                     in line)
    assert "  1.  60.0%   101.5  8 in green" in log[second_at]
    assert "  2.  20.0%    99.0  no mark (a penalty)" in log[second_at]
    action_2 = next(i for i, line in enumerate(log) if line.startswith("  player 2 (you) action 2"))
    last_action_1 = max(i for i, line in enumerate(log) if " action 1 - " in line)
    assert plan_at < last_action_1 < second_at < action_2


def test_no_advice_without_me():
    table = play(["--players", "2"], ["3,4,6,1,2,5", "- -", "-", "quit"])
    assert table.loaded == [] and "advice" not in table.text


def test_advice_errors_do_not_end_the_session():
    class Broken(FakeAdvisor):
        def passive(self, sheets, seat, dice, roller):
            raise track.TrackError("table trouble")
    table = play(["--players", "2", "--me", "2"], ["3,4,6,1,2,5", "- -", "-", "quit"],
                 advisor=Broken())
    assert "no advice: table trouble" in table.text


def test_real_advisor(qwixx_table_dir):
    from qwixx_stats.tables.race import RaceTable
    from qwixx_stats.tables.solitaire import ExpectedValues
    from qwixx_stats.advisor import Advisor

    # the 2-player race table is solved into the folder once (~15 s), then read from it
    advisor = Advisor(RaceTable.load(qwixx_table_dir, players=2),
                      ExpectedValues.load(qwixx_table_dir))
    table = play(["--players", "2", "--me", "1"], ["3,4,6,1,2,5", "quit"], advisor=advisor)
    advice = advisor.active([Sheet(), Sheet()], 0, "3,4,6,1,2,5")
    chances = [item.win_chance for item in advice]
    assert chances == sorted(chances, reverse=True) and 0 < chances[0] < 1
    for rank, item in enumerate(advice[:4], 1):
        first, second = item.option
        plan = ", then ".join(([f"7 in {first}"] if first else [])
                              + ([f"{second[1]} in {second[0]}"] if second else []))
        assert (f"  {rank}. {100 * item.win_chance:5.1f}%  {item.expected_score:6.1f}  "
                f"{plan or 'no mark (a penalty)'}") in table.text
    assert f"  ({len(advice) - 4} more)" in table.text


# -- the command line -----------------------------------------------------------------------

def test_through_the_command_line(monkeypatch, capsys, tmp_path):
    from qwixx_stats.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(TIE_GAME) + "\n"))
    save = tmp_path / "game.json"
    status = main(["track", "--players", "2", "--json", "--save", str(save)])
    captured = capsys.readouterr()
    assert status == 0
    lines = captured.out.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["winners"] == [1, 2]
    assert "winners (a tie)" in captured.err
    assert "  player 1 action 1 - the white sum 2 in (row or -): r y" in captured.err  # echoed
    assert len(load_game(save)[0].history) == 6


@pytest.mark.parametrize("argv, message", [
    (["track"], "--players N (2..8) is needed"),
    (["track", "--players", "9"], "expected a number of players from 2 to 8, not 9"),
    (["track", "--resume", "/nonexistent/game.json"], "cannot read the save file"),
])
def test_command_line_errors(argv, message, capsys):
    from qwixx_stats.cli import main

    status = main(argv)
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert captured.err.startswith("qwixx: error:") and message in captured.err
    assert captured.err.count("\n") == 1
