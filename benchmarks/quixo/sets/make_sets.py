"""Issue 62's position sets with exact answers: drawn with a seed, answered by the tables.

    python benchmarks/quixo/sets/make_sets.py --dir TABLES --size 4 --per-stage 100 \
        --seed 1 --out src/quixo_solver/tournament/sets/quixo-4x4.json

    python benchmarks/quixo/sets/make_sets.py --dir TABLES --size 5 --blanks 0,1,2,3,4 \
        --per-stage 50 --seed 1 --out src/quixo_solver/tournament/sets/quixo-5x5-endgame.json

    python benchmarks/quixo/sets/make_sets.py --dir TEAM-TABLES --players 4 --size 4 \
        --per-stage 100 --seed 1 --out src/quixo_solver/tournament/sets/quixo-4x4-teams.json

The sampling rule (written into the set), without --blanks: random games from the empty
board (of --players players: 4 is the team game, answered by its four-player tables), each move drawn
uniformly from the legal moves (numpy's default generator, seeded); every position a game
reaches that is not over is a candidate, in the order met; a candidate is kept if it is not
in the set yet and its stage (tournament/position_sets.stage_of: plies played, plies to the
end) holds fewer than --per-stage positions. Games go on until every stage is full or
--games games were played. With --blanks, for each blank count in turn: positions drawn uniformly from every position
with that many blanks (tablebase/sample.py's rule, the seed plus the blank count), those not
over kept in the order drawn while their stage (blanks, plies to the end) holds fewer than
--per-stage, up to --draws draws a count. Each kept position is answered by the tables: its
value and plies and the value every legal move leaves the player to move.
"""
import argparse
import sys

import numpy as np

from quixo_solver.rules.board import Board
from quixo_solver.search import BaseSolver
from quixo_solver.tablebase import Tablebase, sample
from quixo_solver.variants import find_variant
from quixo_solver.tournament.position_sets import (PLAYED_STAGES, PositionSet, SetPosition,
                                                   answered, stage_of, stages_of)

END_STAGES = ("near", "far", "draw")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True, help="a folder with the board's tables")
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--per-stage", type=int, default=100)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    parser.add_argument("--blanks", help="blank counts (0,1,2): positions drawn from their "
                        "classes instead of reached by random games")
    parser.add_argument("--draws", type=int, default=20_000)
    args = parser.parse_args()
    variant = find_variant(args.players)
    if args.blanks is not None:
        if args.players != 2:
            parser.error("--blanks draws from two-player classes only")
        return drawn_from_classes(args, variant.new_solver(tablebase=Tablebase(args.dir)))
    solver = variant.new_solver(tablebase=args.dir)
    rng = np.random.default_rng(args.seed)
    wanted = {f"{played}/{end}" for played, _, _ in PLAYED_STAGES for end in END_STAGES}
    kept: dict[str, list] = {stage: [] for stage in wanted}
    seen: set[str] = set()
    games = 0
    while games < args.games and any(len(rows) < args.per_stage for rows in kept.values()):
        games += 1
        board = variant.start(args.size)
        played = 0
        while not board.is_game_over() and played < 200:
            text = str(board)
            if text not in seen:
                seen.add(text)
                value = solver.settled_result(board, line=0)      # one probe: its stage
                if value is None:
                    raise SystemExit(f"the tables of {args.dir} do not answer {board}: "
                                     "build the whole game first")
                stage = stage_of(SetPosition(text, played, value.value, value.plies, {}))
                if len(kept[stage]) < args.per_stage:
                    row = answered(board.copy(stack=False), played, solver)
                    if row is not None:
                        kept[stage].append(row)
            moves = list(board.legal_moves)
            board.push(moves[int(rng.integers(len(moves)))])
            played += 1
    positions = [row for stage in sorted(kept) for row in kept[stage]]
    rule = ("random games from the empty board, each move drawn uniformly from the legal "
            "moves (numpy default_rng(seed)); every position reached that is not over is a "
            "candidate in the order met; kept if new and its stage (plies played: opening "
            "0-4, middle 5-14, late 15 on; plies to the end: near <= 5, far, draw) holds fewer "
            f"than {args.per_stage}; until every stage is full or {args.games} games "
            f"(here {games} games were played)")
    name = f"quixo-{args.size}x{args.size}" + ("-teams" if args.players == 4 else "")
    found = PositionSet(name, args.size, args.players, args.seed, rule, " ".join(sys.argv),
                        positions)
    found.save(args.out)
    print(f"{len(positions)} positions from {games} games: {stages_of(positions)}; stages "
          f"not full: {sorted(s for s, rows in kept.items() if len(rows) < args.per_stage)}")
    return 0


def drawn_from_classes(args: argparse.Namespace, solver: BaseSolver) -> int:
    counts = [int(b) for b in args.blanks.split(",")]
    kept: dict[str, list] = {}
    for blanks in counts:
        found = sample.draw(solver.tablebase, args.size, args.draws, [blanks],
                            args.seed + blanks)
        for text in found.positions():
            board = Board(str(text))
            if board.is_game_over():
                continue
            value = solver.settled_result(board, line=0)
            stage = stage_of(SetPosition(str(text), -1, value.value, value.plies, {}))
            rows = kept.setdefault(stage, [])
            if len(rows) < args.per_stage and all(row.position != str(text) for row in rows):
                row = answered(board, -1, solver)
                if row is not None:
                    rows.append(row)
    positions = [row for stage in sorted(kept) for row in kept[stage]]
    rule = (f"for each blank count of {counts}: {args.draws} positions drawn uniformly from "
            "every position with that many blanks (quixo tablebase sample's rule, seed = the "
            "set's seed + the blank count), those not over kept in the order drawn while their "
            f"stage (blanks; plies to the end: near <= 5, far, draw) holds fewer than "
            f"{args.per_stage}")
    name = f"quixo-{args.size}x{args.size}-endgame"
    PositionSet(name, args.size, 2, args.seed, rule, " ".join(sys.argv), positions).save(args.out)
    print(f"{len(positions)} positions: {stages_of(positions)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
