"""SocialMaze figures: what a researcher waits for with the six tasks.

- `parlor maze import` of a large file per dataset task (our JSONL, N synthetic instances):
  wall time and peak memory of the process (the file is read whole, then stored in one
  transaction);
- `list_instances` on the resulting database, a 500-row page (what the create-table screen asks);
- `parlor league maze` over the six tasks with their scripted baselines and random, M instances
  each, into a database on disk: wall time and games per second.

Prints figures; nothing is asserted.

    python benchmarks/socialmaze.py [--instances 2000] [--league 200]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.cli import main  # noqa: E402
from server.store.instances import list_rows  # noqa: E402

DATASET_TASKS = ("rating-estimation", "review-decision", "user-profile")
SEATS = ["random", "hidden-role:scripted:solver", "social-graph:scripted:solver",
         "find-the-spy:scripted:describer", "rating-estimation:scripted:heuristic",
         "review-decision:scripted:heuristic", "user-profile:scripted:heuristic"]


def _import(folder: Path, task: str, count: int) -> None:
    path = folder / f"{task}.jsonl"
    with contextlib.redirect_stderr(io.StringIO()):
        main(["maze", "generate", "--task", task, "--count", str(count), "--out", str(path)])
    size = path.stat().st_size / 1e6
    code = ("import resource, sys, time; from server.cli import main; t = time.perf_counter(); "
            f"main(['--db', {str(folder / 'maze.db')!r}, 'maze', 'import', {str(path)!r}]); "
            "print(time.perf_counter() - t, "
            "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    print(f"  import {task:<18} {count:>6} instances, {size:5.1f} MB: {float(out[0]):6.2f} s, "
          f"peak {float(out[1]):6.0f} MB")


def run(instances: int, league: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"parlor maze import (our JSONL, {instances} synthetic instances per task):")
        for task in DATASET_TASKS:
            _import(folder, task, instances)
        with sqlite3.connect(folder / "maze.db") as conn:
            started = time.perf_counter()
            page, _ = list_rows(conn, "review-decision")
            took = (time.perf_counter() - started) * 1000
        print(f"  list_instances page of {len(page)}: {took:.1f} ms")
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            main(["league", "maze", "--seat", *SEATS, "--instances", str(league), "--db",
                  str(folder / "league.db"), "--quiet"])
        took = time.perf_counter() - started
        games = league * 6 * 2  # random plus one baseline per task
        print(f"parlor league maze, six tasks x {league} instances x 2 models = {games} games "
              f"on disk: {took:.1f} s ({games / took:.0f} games/s); peak "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=2000)
    parser.add_argument("--league", type=int, default=200)
    args = parser.parse_args()
    run(args.instances, args.league)
