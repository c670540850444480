"""A campaign played by each backend on this machine: the scripted Impostor grid
(`parlor league impostor --plan`, as benchmarks/impostor.py plays it) run by `parlor campaign
run --backend local|ray` into a fresh database, in a child process; games/s while playing (the
progress line's) and the wall time end to end (Ray's start and the league's report included).

    python benchmarks/campaign.py [--backend local ray] [--slots 3] [--games-per-experiment 24]
                                  [--workers 2] [--concurrency 4]

The local backend uses --workers processes; Ray uses every core it finds (one task per core,
each playing --concurrency games at once), like a one-node cluster started by the run.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bots.scripted.impostor import STYLES  # noqa: E402

LINE = re.compile(r"parlor campaign run: (\d+)/(\d+) games in \S+, ([\d,.]+) games/s")


def plan(folder: Path, slots: int, games: int) -> tuple[Path, int]:
    path = folder / "grid.jsonl"
    models = [f"scripted:{name}" for name in list(STYLES)[:slots]]
    subprocess.run([sys.executable, "-m", "server.cli", "league", "impostor", "--models",
                    *models, "--games-per-experiment", str(games), "--resamples", "100",
                    "--plan", str(path)], cwd=ROOT, check=True, capture_output=True)
    with path.open() as lines:
        return path, sum(1 for _ in lines) - 1


def run(manifest: Path, folder: Path, backend: str, workers: int, concurrency: int
        ) -> tuple[float, float]:
    """(games/s while playing, wall seconds end to end)."""
    command = [sys.executable, "-m", "server.cli", "campaign", "run", str(manifest), "--db",
               str(folder / f"{backend}.db"), "--backend", backend, "--concurrency",
               str(concurrency)]
    if backend == "local":
        command += ["--workers", str(workers)]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{backend}: exit status {done.returncode}\n{done.stderr[-2000:]}")
    found = [m for m in map(LINE.search, done.stderr.splitlines()) if m]
    return float(found[-1].group(3).replace(",", "")), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", nargs="+", choices=("local", "ray"),
                        default=["local", "ray"])
    parser.add_argument("--slots", type=int, default=3, choices=range(1, 10))
    parser.add_argument("--games-per-experiment", type=int, default=24)
    parser.add_argument("--workers", type=int, default=2, help="the local backend's processes")
    parser.add_argument("--concurrency", type=int, default=4, help="games at once per process")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        manifest, games = plan(Path(tmp), args.slots, args.games_per_experiment)
        print(f"the scripted Impostor grid, {args.slots} slots x 5 modes x 4 tiers x "
              f"{args.games_per_experiment} games: {games:,} games")
        for backend in args.backend:
            rate, wall = run(manifest, Path(tmp), backend, args.workers, args.concurrency)
            how = f"--workers {args.workers}" if backend == "local" else "every core"
            print(f"  {backend:5} ({how}, --concurrency {args.concurrency}): {rate:,.1f} "
                  f"games/s while playing, {wall:.1f} s wall end to end")


if __name__ == "__main__":
    main()
