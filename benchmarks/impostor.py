"""The Impostor game's experiment grid at scale: `parlor league impostor` with scripted bots into a
database on disk, in a child process (its peak memory measured), the statistics included.

The paper's grid is 9 model slots x 5 modes x 4 tiers at 120 games (756 experiments, 90,720
games); the nine slots here are the nine styles of the scripted describer
(`bots/scripted/impostor.py`, `STYLES`), so the defaults play the paper's whole grid. Fewer
`--slots` or games per experiment play a part of it, and the whole grid's time is projected from
the games per second. Target (issue 25): the whole paper grid under 5 minutes on this 2-core
machine, memory flat (the peak of the league's own process and of its largest worker, printed).

    python benchmarks/impostor.py [--slots 9] [--games-per-experiment 120] [--resamples 1000]
                                  [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bots.scripted.impostor import STYLES  # noqa: E402

PAPER_GAMES = 90_720
TARGET_S = 300.0


def run(slots: int, games: int, resamples: int, workers: int) -> None:
    models = [f"scripted:{name}" for name in list(STYLES)[:slots]]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "grid.json"
        code = ("import resource, sys; from server.cli import main; "
                f"code = main(['league', 'impostor', '--models', *{models!r}, "
                f"'--games-per-experiment', '{games}', '--resamples', '{resamples}', "
                f"'--workers', '{workers}', '--db', "
                f"{str(Path(tmp) / 'grid.db')!r}, '--json', {str(out)!r}, '--quiet']); "
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "
                "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, "
                "file=sys.stderr); sys.exit(code)")
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, check=True)
        wall = time.perf_counter() - started
        peak, worker_peak = (float(v) for v in done.stderr.split()[-2:])
        report = json.loads(out.read_text())
    rate = report["counted"] / wall
    projected = PAPER_GAMES / rate
    print(f"parlor league impostor --workers {workers}, {slots} slots x 5 modes x 4 tiers x "
          f"{games} games: "
          f"{report['experiments']} experiments, {report['counted']} games in {wall:.1f} s "
          f"({rate:.0f} games/s end to end, statistics with {resamples} resamples included), "
          f"peak RSS {peak:.0f} MB (the largest worker's {worker_peak:.0f} MB)")
    verdict = "MEETS" if projected < TARGET_S else "BELOW TARGET"
    print(f"the paper's grid ({PAPER_GAMES:,} games) at that rate: "
          f"{projected / 60:.1f} min — target < {TARGET_S / 60:.0f} min: {verdict}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slots", type=int, default=len(STYLES), choices=range(1, 10))
    parser.add_argument("--games-per-experiment", type=int, default=120)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    run(args.slots, args.games_per_experiment, args.resamples, args.workers)
