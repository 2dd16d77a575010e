"""Issue 62: what one step of the PettingZoo environment quixo_v0 costs (5x5 and 4x4, two
players), against PettingZoo's own connect_four_v3, measured side by side in one run.

    python benchmarks/frameworks/step_cost.py [--rounds 15] [--steps 20000] [--seed 1]
        [--out benchmarks/results/frameworks-step-cost.json]

A step is what a learner's loop does for each decision of a game, on the environments as
users make them (`env()`, with PettingZoo's classic wrappers): `env.last()` (the observation
and its action mask), a legal action drawn from the mask, `env.step(action)`; the steps of the
agents of a finished game (`step(None)`) count too, the resets between games do not. Each round
plays at least `--steps` steps of every environment, in an order that turns round by round
(interleaved, so that the machine's load falls on all alike), and records the microseconds a
step; the report gives each environment's median over the rounds and the median of the
per-round ratios to connect_four_v3 (above 1: a quixo_v0 step costs more).

connect_four_v3 needs pygame (`pip install pygame-ce`, as `pettingzoo[classic]` installs it);
the figures are written only with --out (a JSON record).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pettingzoo

from quixo_solver.pettingzoo import quixo_v0

BASELINE = "connect_four_v3"


def connect_four() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)    # its module name is deprecated
        try:
            from pettingzoo.classic import connect_four_v3
        except ModuleNotFoundError as missing:
            sys.exit(f"step_cost.py: {BASELINE} needs pygame ({missing}): "
                     "pip install pygame-ce")
    return connect_four_v3.env()


ENVIRONMENTS: dict[str, Callable[[], Any]] = {
    "quixo_v0 5x5": lambda: quixo_v0.env(size=5),
    "quixo_v0 4x4": lambda: quixo_v0.env(size=4),
    BASELINE: connect_four,
}


def step_cost(env: Any, steps: int, generator: np.random.Generator, seed: int) -> float:
    """Microseconds a step, over whole games played until at least `steps` steps."""
    done, seconds = 0, 0.0
    while done < steps:
        env.reset(seed=seed + done)
        started = time.perf_counter()
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[generator.integers(len(legal))])
            env.step(action)
            done += 1
        seconds += time.perf_counter() - started
    return seconds / done * 1e6


def measure(rounds: int, steps: int, seed: int) -> dict[str, Any]:
    envs = {name: make() for name, make in ENVIRONMENTS.items()}
    generator = np.random.default_rng(seed)
    for env in envs.values():                      # warm up: imports, caches, first games
        step_cost(env, min(steps, 1000), generator, seed)
    names = list(envs)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for round_number in range(rounds):
        shift = round_number % len(names)
        for name in names[shift:] + names[:shift]:
            samples[name].append(step_cost(envs[name], steps, generator, seed))
        print(f"round {round_number + 1}/{rounds}: " + ", ".join(
            f"{name} {samples[name][-1]:.1f} us" for name in names), flush=True)
    ratios = {name: statistics.median(own / base for own, base in
                                      zip(samples[name], samples[BASELINE]))
              for name in names if name != BASELINE}
    return {"rounds": rounds, "steps_per_round": steps, "seed": seed,
            "microseconds_per_step": {name: {"median": statistics.median(values),
                                             "rounds": values}
                                      for name, values in samples.items()},
            "ratio_to_" + BASELINE: ratios}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--steps", type=int, default=20_000,
                        help="steps of each environment a round (whole games: a few more)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args()
    if args.rounds < 1 or args.steps < 1:
        parser.error("--rounds and --steps must be at least 1")
    results = {"benchmark": "frameworks/step_cost.py",
               "machine": f"{os.cpu_count()} cores, load average "
                          f"{os.getloadavg()[0]:.1f} at the start",
               "python": platform.python_version(), "pettingzoo": pettingzoo.__version__,
               **measure(args.rounds, args.steps, args.seed)}
    for name, figures in results["microseconds_per_step"].items():
        print(f"{name:<16} median {figures['median']:8.1f} us a step")
    for name, ratio in results["ratio_to_" + BASELINE].items():
        print(f"{name:<16} {ratio:.2f} x the cost of a {BASELINE} step")
    if args.out is not None:
        args.out.write_text(json.dumps(results, indent=2) + "\n")
        print(f"written to {args.out}")


if __name__ == "__main__":
    main()
