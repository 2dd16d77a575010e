"""The explorer under load, and the Quixo page's first render (issue 21's speed goals).

    flock /work/bench.lock python benchmarks/explorer/explorer_load.py [--dir TABLES] [--seconds 10]
          [--clients 32] [--out benchmarks/results/explorer-load.json] [--no-browser]

Starts `quixo serve` (its 4x4 tables built first where missing) on a free loopback port, then
32 clients at once ask `GET /api/v1/quixo/analyze?position=P` for 4x4 positions, each client
on one keep-alive connection, a new request as soon as its answer is in. Two runs:
- `distinct`: every request a position not asked before (reached by random play from the
  empty board, seed 0): the server probes the tables and builds the answer each time;
- `repeated`: 200 positions asked over and over: the answers come from the server's cache.
The load comes from `wrk` (C, one thread, 32 connections) where it is installed, else from an
asyncio client in this process (which then takes a share of the 2 cores itself: its figures
are a lower bound). Goal: >= 500 requests/s, p99 < 50 ms.

Then headless Chromium (Debian's chromium and chromedriver, through Selenium) opens the 4x4
page 15 times and reads Navigation Timing: responseEnd, domContentLoaded, first contentful
paint and the page's own `board-drawn` mark (the board and its verdict on screen): the median
of each. Goal: the board drawn < 300 ms.

The machine is shared and noisy: run it under the lock, and read the medians.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

GOAL_RATE, GOAL_P99_MS, GOAL_RENDER_MS = 500, 50, 300
FIRST_RENDER = """
const navigation = performance.getEntriesByType("navigation")[0];
const board = performance.getEntriesByName("board-drawn")[0];
const paint = performance.getEntriesByName("first-contentful-paint")[0];
return {response_end: navigation.responseEnd,
        dom_content_loaded: navigation.domContentLoadedEventEnd,
        first_contentful_paint: paint ? paint.startTime : null,
        board_drawn: board ? board.startTime : null};
"""


def positions(count: int, seed: int = 0) -> list[str]:
    """`count` distinct 4x4 positions (not over) of random games from the empty board."""
    from quixo_solver import Board

    rng = random.Random(seed)
    seen: dict[str, None] = {}
    board = Board(size=4)
    while len(seen) < count:        # one random game after another, every position kept
        if board.is_game_over():
            board = Board(size=4)
        board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over():
            seen[str(board)] = None
    return list(seen)


def path_of(position: str) -> str:
    return "/api/v1/quixo/analyze?" + urllib.parse.urlencode({"position": position})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(tables: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    """`quixo serve --dir tables OPTIONS` on a free port, once it answers, and its URL. (A
    server whose stderr is not read must be given --access-log: see the load runs.)"""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "quixo_solver", "serve", "--dir",
                                str(tables), "--port", str(port), *options],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"quixo serve exited: {process.stderr.read().decode()[-500:]}"
                             if process.stderr else "quixo serve exited")
        try:
            with urllib.request.urlopen(f"{url}/api/v1/status", timeout=2):
                return process, url
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("quixo serve did not answer within 300 s")


# -- load: wrk, or an asyncio client -----------------------------------------------------------

WRK_SCRIPT = """
local paths = {}
for line in io.lines("%s") do paths[#paths + 1] = line end
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", paths[((counter - 1) %% #paths) + 1])
end
done = function(summary, latency, requests)
  io.write(string.format("JSON {\\"requests\\": %%d, \\"seconds\\": %%f, \\"p50_us\\": %%d, " ..
    "\\"p90_us\\": %%d, \\"p99_us\\": %%d, \\"max_us\\": %%d, \\"errors\\": %%d, \\"status_errors\\": %%d}\\n",
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status))
end
"""


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Ctrl-C to the server, then, after 10 s, the kill."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def report(results: dict[str, object], out: Path | None) -> None:
    """The figures printed as JSON, and written to `out` too."""
    text = json.dumps(results, indent=1)
    print(text)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text + "\n")


def load_with_wrk(url: str, paths: list[str], clients: int, seconds: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        listing = Path(folder) / "paths.txt"
        listing.write_text("\n".join(paths) + "\n")
        script = Path(folder) / "paths.lua"
        script.write_text(WRK_SCRIPT % listing)
        run = subprocess.run(["wrk", "-t1", f"-c{clients}", f"-d{seconds:g}s", "--timeout",
                              "10s", "-s", str(script), url], capture_output=True, text=True,
                             check=False)
    if run.returncode:
        raise SystemExit(f"wrk failed: {run.stderr.strip()[-500:]}")
    output = run.stdout
    found = re.search(r"^JSON (.*)$", output, re.M)
    if not found:
        raise SystemExit(f"wrk printed no summary:\n{output}")
    raw = json.loads(found.group(1))
    return {"client": "wrk -t1", "requests": raw["requests"],
            "requests_per_second": raw["requests"] / raw["seconds"],
            "p50_ms": raw["p50_us"] / 1000, "p90_ms": raw["p90_us"] / 1000,
            "p99_ms": raw["p99_us"] / 1000, "max_ms": raw["max_us"] / 1000,
            "errors": raw["errors"] + raw["status_errors"]}


async def _asyncio_load(host: str, port: int, paths: list[str], clients: int,
                        seconds: float) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    cursor = 0
    stop = time.perf_counter() + seconds

    async def client() -> None:
        nonlocal cursor, errors
        reader, writer = await asyncio.open_connection(host, port)
        try:
            while time.perf_counter() < stop:
                path = paths[cursor % len(paths)]
                cursor += 1
                began = time.perf_counter()
                writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(re.search(rb"content-length: *(\d+)", head, re.I).group(1))  # type: ignore[union-attr]
                await reader.readexactly(length)
                latencies.append(time.perf_counter() - began)
                if not head.startswith(b"HTTP/1.1 200"):
                    errors += 1
        finally:
            writer.close()
    began = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    elapsed = time.perf_counter() - began
    ordered = sorted(latencies)

    def percentile(p: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]
    return {"client": "asyncio (in process)", "requests": len(ordered),
            "requests_per_second": len(ordered) / elapsed, "p50_ms": percentile(50),
            "p90_ms": percentile(90), "p99_ms": percentile(99), "max_ms": 1000 * ordered[-1],
            "errors": errors}


def load(url: str, paths: list[str], clients: int, seconds: float) -> dict[str, float]:
    if shutil.which("wrk"):
        return load_with_wrk(url, paths, clients, seconds)
    host, port = url.split("//")[1].split(":")
    return asyncio.run(_asyncio_load(host, int(port), paths, clients, seconds))


# -- the page's first render ------------------------------------------------------------------

def first_render(url: str, loads: int) -> dict[str, float | None]:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    options = Options()
    options.binary_location = os.environ.get("EXPLORER_CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(os.environ.get("EXPLORER_CHROMEDRIVER",
                                                             "/usr/bin/chromedriver")),
                              options=options)
    samples: list[dict[str, float | None]] = []
    try:
        page = f"{url}/quixo/..../..../..../...._X"
        driver.get(page)                          # the first visit fills the browser's cache
        for _ in range(loads):
            driver.get("about:blank")
            driver.get(page)
            WebDriverWait(driver, 20, 0.02).until(lambda d: d.execute_script(
                "return performance.getEntriesByName('board-drawn').length > 0"))
            samples.append(driver.execute_script(FIRST_RENDER))
    finally:
        driver.quit()
    result: dict[str, float | None] = {"loads": float(loads)}
    for key in ("response_end", "dom_content_loaded", "first_contentful_paint", "board_drawn"):
        values = [sample[key] for sample in samples if sample[key] is not None]
        result[f"{key}_ms_median"] = statistics.median(values) if values else None
        result[f"{key}_ms_max"] = max(values) if values else None
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=None,
                        help="the Quixo tables (default: a temporary folder, 4x4 built there)")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--renders", type=int, default=15)
    parser.add_argument("--positions", type=int, default=30_000,
                        help="distinct positions (the last 2,000 warm the server up)")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        tables = args.dir or Path(scratch)
        process, url = start_server(tables, "--rate-limit", "0", "--access-log", "off")
        try:
            distinct = [path_of(position) for position in positions(args.positions)]
            # warm up: the tables' pages into memory, uvicorn's workers, the kernels' imports
            load(url, distinct[-2000:], args.clients, 2)
            results: dict[str, object] = {
                "machine": f"{os.cpu_count()} cores, load average "
                           f"{os.getloadavg()[0]:.1f} at the start",
                "clients": args.clients, "seconds": args.seconds}
            results["distinct"] = load(url, distinct[:-2000], args.clients, args.seconds)
            results["repeated"] = load(url, distinct[:200], args.clients, args.seconds)
            with urllib.request.urlopen(f"{url}/api/v1/status") as answer:
                results["server_status"] = json.load(answer)
            if not args.no_browser:
                results["first_render"] = first_render(url, args.renders)
        finally:
            stop_server(process)
    results["goals"] = {"requests_per_second": GOAL_RATE, "p99_ms": GOAL_P99_MS,
                        "board_drawn_ms": GOAL_RENDER_MS}
    report(results, args.out)


if __name__ == "__main__":
    main()
