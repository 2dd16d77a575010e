"""How long compiling the extensions takes, one at a time against in parallel.

The Cython translation runs once first (the same work either way, not measured); then the C
compilation of all 13 extensions runs ROUNDS times each way, alternating, from an empty build
folder each time: `build_ext --parallel 1` (one compiler at a time, as before) and
`build_ext` with its default of one compiler per core. Prints the median of each and their
ratio, measured in this one run. The machine is shared: run it under the lock.

    flock /work/bench.lock python tools/time_build.py [--rounds 3]

Needs Cython, numpy and setuptools in the running Python (the build requirements).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(tree: Path, parallel: int | None) -> float:
    """Seconds of one `setup.py build_ext` into an empty build folder."""
    shutil.rmtree(tree / "build", ignore_errors=True)
    command = [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", "build/lib",
               "--build-temp", "build/temp"]
    if parallel is not None:
        command += ["--parallel", str(parallel)]
    started = time.perf_counter()
    subprocess.run(command, cwd=tree, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def translate(tree: Path) -> None:
    """Cython's translation of every .pyx, with setup.py's directives, once: the builds find
    the .c files newer than their sources and only compile."""
    sources = sorted(str(path.relative_to(tree)) for path in (tree / "src").rglob("*.pyx"))
    directives = ["-X", "boundscheck=False", "-X", "wraparound=False", "-X", "cdivision=True",
                  "-X", "initializedcheck=False"]
    subprocess.run([sys.executable, "-m", "Cython.Build.Cythonize", "-3", "-q", *directives,
                    *sources], cwd=tree, check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder)
        for name in ("setup.py", "pyproject.toml", "README.md"):
            shutil.copy(ROOT / name, tree / name)
        shutil.copytree(ROOT / "src", tree / "src",
                        ignore=shutil.ignore_patterns("*.c", "*.so", "__pycache__"))
        started = time.perf_counter()
        translate(tree)
        print(f"Cython translation (not measured below): {time.perf_counter() - started:.1f} s")
        serial: list[float] = []
        parallel: list[float] = []
        for _ in range(args.rounds):
            serial.append(build(tree, 1))
            parallel.append(build(tree, None))
        cores = os.cpu_count()
        print(f"compile, one at a time:   median {statistics.median(serial):.1f} s  "
              f"{[round(s, 1) for s in serial]}")
        print(f"compile, {cores} in parallel:  median {statistics.median(parallel):.1f} s  "
              f"{[round(s, 1) for s in parallel]}")
        print(f"ratio one-at-a-time / parallel: "
              f"{statistics.median(serial) / statistics.median(parallel):.2f}")


if __name__ == "__main__":
    main()
