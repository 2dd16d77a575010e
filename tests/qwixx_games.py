"""Games the Qwixx tests replay (the tracker's and its save file's tests)."""
from qwixx_stats.rules.game import Game
from qwixx_stats.rules.sheet import Dice

# Player 1 fills red 2..6 and player 2 yellow 2..6 (every white sum marked by both).
FIVE_EACH = [(dice, ["red", "yellow"], None)
             for dice in ("1,1,1,1,1,1", "2,1,1,1,1,1", "2,2,1,1,1,1", "3,2,1,1,1,1",
                          "3,3,1,1,1,1")]


def build_game(players, turns, lock_after=5):
    game = Game(players, lock_after=lock_after)
    for dice, first, second in turns:
        game.play_turn(Dice.parse(dice), list(first), second)
    return game
