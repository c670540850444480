"""SocialGrid figures: what the Planning Oracle costs on a small and on the largest map.

Per map: the time to build one distance field (a reverse Dijkstra over every tile x facing), a
distance and a best action read from a cached field (what a prompt asks per task every step),
one plain A* query, and a nearest-target search. Prints figures; nothing is asserted.

    python benchmarks/socialgrid.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.socialgrid.board import FACINGS, Board  # noqa: E402
from engine.socialgrid.mapgen import generate, spawn_tiles  # noqa: E402
from engine.socialgrid.moves import Pose  # noqa: E402
from engine.socialgrid.oracle import Oracle, astar  # noqa: E402

MAPS = {"10x10_2x2": (10, 2, 2), "18x18_4x4": (18, 4, 4)}
STATIONS = 21  # 7 crewmates x 3 tasks, the paper's default table
QUERIES = 5_000


def per_call_us(run: Callable[..., object], calls: list[tuple], repeats: int) -> float:
    """Best of `repeats` passes of `run(*args)` over `calls`, in microseconds per call."""
    passes = []
    for _ in range(repeats):
        start = time.perf_counter()
        for args in calls:
            run(*args)
        passes.append((time.perf_counter() - start) / len(calls) * 1e6)
    return min(passes)


def setup(name: str) -> tuple[Board, frozenset, list[Pose]]:
    """A map with every door closed (the state a game starts in) and random player poses."""
    board = generate(*MAPS[name], stations=STATIONS, rng=random.Random(1))
    rng = random.Random(2)
    poses = [Pose(x, y, rng.choice(FACINGS)) for x, y in spawn_tiles(board, 200, rng)]
    return board, frozenset(board.doors), poses


def field_build_ms(name: str, repeats: int) -> str:
    board, closed, _ = setup(name)
    runs = []
    for _ in range(repeats):
        oracle = Oracle(board)
        start = time.perf_counter()
        for station in board.stations:
            oracle.field(station, closed)
        runs.append((time.perf_counter() - start) / len(board.stations) * 1e3)
    return (f"{name}: build one field {min(runs):.2f} ms (median {statistics.median(runs):.2f}; "
            f"{board.width}x{board.height} tiles, {board.width * board.height * 4} states)")


def cached_query_us(name: str, repeats: int) -> str:
    """What a prompt asks per task and step once the fields are built (all doors closed)."""
    board, closed, poses = setup(name)
    oracle = Oracle(board)
    for station in board.stations:
        oracle.field(station, closed)
    calls = [(poses[i % len(poses)], board.stations[i % STATIONS], closed)
             for i in range(QUERIES)]
    distance = per_call_us(oracle.distance, calls, repeats)
    best = per_call_us(oracle.best_action, calls, repeats)
    three = per_call_us(oracle.distances,
                        [(pose, board.stations[:3], closed) for pose, _, _ in calls], repeats)
    return (f"{name}: from a cached field, distance {distance:.1f} us, best_action {best:.1f} us, "
            f"distances to 3 tasks {three:.1f} us")


def astar_ms(name: str, repeats: int) -> str:
    board, closed, poses = setup(name)
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for i, pose in enumerate(poses[:50]):
            astar(board, pose, board.stations[i % STATIONS], closed)
        runs.append((time.perf_counter() - start) / 50 * 1e3)
    return f"{name}: one A* query {min(runs):.2f} ms (median {statistics.median(runs):.2f})"


def nearest_ms(name: str, repeats: int) -> str:
    """NEAREST_PLAYER_DIST: from each pose to the nearest of the six other players."""
    board, closed, poses = setup(name)
    oracle = Oracle(board)
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for i in range(50):
            others = [p.pos for p in poses[i + 1:i + 7]]
            oracle.nearest(poses[i], others, closed)
        runs.append((time.perf_counter() - start) / 50 * 1e3)
    return f"{name}: nearest of 6 players {min(runs):.2f} ms (median {statistics.median(runs):.2f})"


FIGURES = (field_build_ms, cached_query_us, astar_ms, nearest_ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    for figure in FIGURES:
        for name in MAPS:
            print(figure(name, args.repeats), flush=True)


if __name__ == "__main__":
    main()
