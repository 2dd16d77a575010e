"""pytest-benchmark: search speed on fixed positions (no tables).

    pytest benchmarks/suite/test_bench_search.py --benchmark-enable
"""
from quixo_solver import Board, Solver


def test_search_5x5_start_depth_5(benchmark):
    solver = Solver(tt_mib=64)
    result = benchmark(solver.solve, Board(), depth=5)
    benchmark.extra_info["nodes"] = result.nodes
