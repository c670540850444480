"""`parlor export --format games actions --out DIR`: time and peak memory against the number of
games, to show that memory stays flat (rows are streamed; Parquet is written in row groups).

    python benchmarks/export_dataset.py [--games 200 2000] [--env colonel-blotto]

For each count, `parlor sim` plays that many games of scripted bots into a fresh database in a
temporary folder, then the export runs in a child process of its own; its wall time (Python's
start and imports included), its peak resident memory (its own ru_maxrss, which pyarrow's and
the engine's imports dominate) and the sizes written are printed, one row per count.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SEATS = {"colonel-blotto": ["scripted:adaptive", "scripted:uniform"],
         "secret-mafia": ["scripted:agent"] * 6,
         "codenames": ["scripted:agent"] * 4}
PARLOR = [sys.executable, "-m", "server.cli"]
# The export, then its own peak RSS (KiB) as the last line on stderr.
EXPORT = [sys.executable, "-c", "import resource, sys\nfrom server.cli import main\n"
          "code = main(sys.argv[1:])\n"
          "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
          "sys.exit(code)"]


def _size(folder: Path, suffix: str) -> float:
    return sum(p.stat().st_size for p in folder.rglob(f"*{suffix}")) / 1e6


def measure(env: str, games: int, tmp: Path) -> str:
    db = tmp / f"{env}-{games}.db"
    seats = [x for spec in SEATS[env] for x in ("--seat", spec)]
    extra = ["--preset", "small"] if env == "colonel-blotto" else []
    subprocess.run([*PARLOR, "sim", env, *seats, *extra, "--games", str(games), "--db", str(db),
                    "--quiet", "--concurrency", "8"], check=True, stdout=subprocess.DEVNULL)
    out = tmp / f"{env}-{games}"
    started = time.perf_counter()
    done = subprocess.run([*EXPORT, "export", "--format", "games", "actions", "--db", str(db),
                           "--out", str(out)], check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    said, peak = done.stderr.strip().splitlines()[-2:]
    rows = said.split("wrote ", 1)[1].split(" (", 1)[0]
    return (f"{env:16} {games:6} games  {seconds:6.1f} s  peak RSS {int(peak) / 1024:6.0f} MiB"
            f"  parquet {_size(out, '.parquet'):6.1f} MB  jsonl {_size(out, '.jsonl'):6.1f} MB"
            f"  ({rows})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=[200, 2000])
    ap.add_argument("--env", choices=tuple(SEATS), default="colonel-blotto")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for games in sorted(args.games):
            print(measure(args.env, games, Path(tmp)), flush=True)


if __name__ == "__main__":
    main()
