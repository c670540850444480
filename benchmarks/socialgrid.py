"""SocialGrid figures: what the Planning Oracle costs on a small and on the largest map, and
what a user waits for: one episode, headless and through `parlor sim` with the database on
disk, and a whole scripted Crew Elo league.

Per map: the time to build one distance field (a reverse Dijkstra over every tile x facing), a
distance and a best action read from a cached field (what a prompt asks per task every step),
one plain A* query, and a nearest-target search (`Oracle.nearest`, as a view asks it, next to
the module-level A* it is tested against). Episodes: the default table (2x2 rooms of 10x10,
5 scripted crewmates + 2 scripted impostors, up to 2,500 steps). Prints figures; nothing is
asserted.

    python benchmarks/socialgrid.py [--repeats 5] [--episodes 20] [--skip-league]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.socialgrid.board import FACINGS, Board  # noqa: E402
from engine.socialgrid.mapgen import generate, spawn_tiles  # noqa: E402
from engine.socialgrid.moves import Pose  # noqa: E402
from engine.socialgrid.observe import NEAR  # noqa: E402
from engine.socialgrid.oracle import Oracle, astar, nearest  # noqa: E402

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
    """NEAREST_PLAYER_DIST: from each pose to the nearest of the six other players, through
    `Oracle.nearest` (what a view asks, within NEAR) and through the module-level A* (the
    reference it is tested against)."""
    board, closed, poses = setup(name)
    oracle = Oracle(board)
    calls = [(poses[i], [p.pos for p in poses[i + 1:i + 7]], closed) for i in range(50)]
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for pose, others, doors in calls:
            oracle.nearest(pose, others, doors)
        runs.append((time.perf_counter() - start) / len(calls) * 1e3)

    def bounded(search: Callable[..., object]) -> Callable[..., object]:
        return lambda pose, others, doors: search(pose, others, doors, frozenset(), NEAR)

    reference = partial(nearest, board)  # the same arguments as oracle.nearest
    near = per_call_us(bounded(oracle.nearest), calls, repeats) / 1e3
    plain = per_call_us(reference, calls, repeats) / 1e3
    plain_near = per_call_us(bounded(reference), calls, repeats) / 1e3
    return (f"{name}: nearest of 6 players {min(runs):.2f} ms (median "
            f"{statistics.median(runs):.2f}), within {NEAR:g} {near:.2f} ms; module-level A* "
            f"{plain:.2f} ms, within {NEAR:g} {plain_near:.2f} ms")


FIGURES = (field_build_ms, cached_query_us, astar_ms, nearest_ms)
AGENT = "scripted:agent"  # plays whichever role its seat is dealt


def play_headless(seed: int) -> tuple[float, int, float]:
    """One default episode with scripted bots, straight through the engine: (seconds, steps,
    seconds of it spent in the bots)."""
    from bots.registry import make_bot
    from engine.registry import get

    env = get("socialgrid")
    start = time.perf_counter()
    game = env.new_game(env.config(), seed, 7)
    bots = [make_bot(AGENT, "socialgrid", seed * 10 + s) for s in range(7)]
    memory: list[dict] = [{} for _ in range(7)]
    in_bots = 0.0
    while not game.over:
        for seat in sorted(game.pending()):
            view, legal = game.view(seat), game.legal(seat).to_json()
            thinking = time.perf_counter()
            decision = _decide(bots[seat], view, legal, memory[seat])
            in_bots += time.perf_counter() - thinking
            game.act(seat, decision.action)
    env.game_metrics(game.record())
    return time.perf_counter() - start, game.public_view()["step"], in_bots


def _decide(bot, view, legal, memory):
    """A scripted bot's decision without an event loop (it never awaits)."""
    coroutine = bot.decide(view, legal, memory)
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    raise RuntimeError("a scripted bot awaited")


def episodes_headless(episodes: int) -> str:
    runs = [play_headless(seed) for seed in range(episodes)]
    seconds = [r[0] for r in runs]
    steps = [r[1] for r in runs]
    bots = [r[2] for r in runs]
    return (f"default episode, headless (engine + scripted bots + metrics): median "
            f"{statistics.median(seconds):.3f} s, max {max(seconds):.3f} s over {episodes} "
            f"episodes; median {statistics.median(steps):g} steps; bots "
            f"{statistics.median(bots) / statistics.median(seconds):.0%} of the time")


def episodes_sim(episodes: int) -> str:
    """`parlor sim` with the database on disk (the table driver, the store, the metrics)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "server.cli", "sim", "socialgrid", "--seat",
                   f"crew={AGENT}", "--seat", f"impostor={AGENT}", "--games", str(episodes),
                   "--db", str(Path(tmp) / "sim.db"), "--quiet"]
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        seconds = time.perf_counter() - start
    return (f"default episode through parlor sim --db on disk: {seconds / episodes:.3f} s per "
            f"episode ({episodes} episodes in {seconds:.1f} s, process start included)")


def league(episodes: int = 1) -> str:
    """A whole Crew Elo league over every scripted SocialGrid bot and random."""
    import subprocess

    from bots.registry import available

    models = sorted(available("socialgrid"))
    command = [sys.executable, "-m", "server.cli", "league", "socialgrid-elo", "--models",
               *models, "--episodes", str(episodes), "--quiet"]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    seconds = time.perf_counter() - start
    return (f"Crew Elo league of {len(models)} models ({len(models) ** 2} pairs x {episodes} "
            f"episode): {seconds:.1f} s wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--skip-league", action="store_true")
    args = parser.parse_args()
    for figure in FIGURES:
        for name in MAPS:
            print(figure(name, args.repeats), flush=True)
    print(episodes_headless(args.episodes), flush=True)
    print(episodes_sim(args.episodes), flush=True)
    if not args.skip_league:
        print(league(), flush=True)


if __name__ == "__main__":
    main()
