"""Four-player Quixo: two teams (X1 and X2 against O1 and O2), cubes with dots.

    from quixo_solver.teams import TeamBoard, perft
    board = TeamBoard(size=3)          # X1 to move; then O1, X2, O2
    board.push("a1c1+")                # the dot of the cube points at the team-mate X2
    perft(TeamBoard(size=3), 4)        # 1366912
"""
from .board import TeamBoard, TeamMove, perft

__all__ = ["TeamBoard", "TeamMove", "perft"]
