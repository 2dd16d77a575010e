"""Issue 62's judging of the frameworks' own agents on the position sets with exact answers
(tournament/position_sets.py): mistakes, optimal moves and plies lost, by stage, with 95%
intervals.

    python benchmarks/frameworks/judge_agents.py --set quixo-4x4 --per-stage 25 --seed 1 \
        --agents random,mcts:100,mcts:1000,mcts:10000,engine:0.01,engine:0.1 \
        --out benchmarks/results/agents-quixo-4x4.json

Agents, each a bot per player id of OpenSpiel's `python_quixo` of the set's size:
- random: OpenSpiel's uniform random bot (`pyspiel.make_uniform_random_bot`);
- mcts:N: OpenSpiel's Python MCTS (`open_spiel.python.algorithms.mcts.MCTSBot`) with N
  simulations a move, random rollouts (one a leaf), UCT constant 2, seeded;
- engine:S: this project's engine (`quixo_solver.openspiel.EngineBot`) with S seconds a move
  and no tables.
--per-stage N scores the first N positions of each stage of the set (all with 0): MCTS at
10,000 simulations costs seconds a move.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import quixo_solver.openspiel  # noqa: F401   (registers python_quixo)
from quixo_solver.openspiel import EngineBot
from quixo_solver.openspiel.scoring import score_bot
from quixo_solver.tournament.position_sets import PositionSet, stage_of


def bots(game: Any, agent: str, seed: int) -> list[Any]:
    kind, _, setting = agent.partition(":")
    players = range(game.num_players())
    if kind == "random":
        return [pyspiel.make_uniform_random_bot(p, seed + p) for p in players]
    if kind == "mcts":
        return [mcts.MCTSBot(game, 2, int(setting),
                             mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + p)),
                             random_state=np.random.RandomState(seed + 10 + p))
                for p in players]
    if kind == "engine":
        return [EngineBot(game, p, time=float(setting), tt_mib=64) for p in players]
    raise SystemExit(f"unknown agent {agent!r}: random, mcts:N or engine:SECONDS")


def subset(found: PositionSet, per_stage: int) -> PositionSet:
    if per_stage <= 0:
        return found
    taken: dict[str, int] = {}
    rows = []
    for row in found.positions:
        stage = stage_of(row)
        if taken.get(stage, 0) < per_stage:
            taken[stage] = taken.get(stage, 0) + 1
            rows.append(row)
    return PositionSet(found.name, found.size, found.players, found.seed, found.rule,
                       found.command, rows)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", default="quixo-4x4")
    parser.add_argument("--agents", default="random,mcts:100,engine:0.01")
    parser.add_argument("--per-stage", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out")
    args = parser.parse_args()
    found = subset(PositionSet.named_or_read(args.set), args.per_stage)
    game = pyspiel.load_game(f"python_quixo(size={found.size},players={found.players})")
    results = []
    for agent in args.agents.split(","):
        started = time.perf_counter()
        scored = score_bot(game, bots(game, agent, args.seed), found)
        seconds = time.perf_counter() - started
        results.append({"agent": agent, "seconds": round(seconds, 1),
                        "seconds_per_move": round(seconds / len(found.positions), 4), **scored})
        print(f"{agent}: mistakes {scored['mistake_rate']:.3f} {scored['mistake_interval']}, "
              f"optimal {scored['optimal_share']:.3f}, {seconds:.1f} s", flush=True)
    record = {"command": " ".join(sys.argv), "set": found.name, "positions": len(found.positions),
              "per_stage": args.per_stage, "seed": args.seed,
              "machine": {"python": platform.python_version(), "system": platform.platform()},
              "agents": results}
    if args.out:
        Path(args.out).write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
