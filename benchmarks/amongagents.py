"""AmongAgents figures: what a researcher waits for.

- One scripted 5-player game (paper preset, `scripted:agent` in every seat) played headless on a
  table of the server's own driver, as `parlor sim` plays it: median and max wall time over N
  games.
- The whole evaluation of the paper (4 setups x 2 planner settings x 20 games, `parlor league
  amongagents`) with `scripted:agent` standing in for the LLM and `random` as the baseline, into
  a database on disk: wall time end to end (schedule, games, store, report). Target: under 10 s.

Prints figures; nothing is asserted.

    python benchmarks/amongagents.py [--games 30]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.cli import main  # noqa: E402


def one_game_times(games: int) -> list[float]:
    times = []
    for seed in range(games):
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(["sim", "amongagents", "--seat", "crew=scripted:agent", "--seat",
                         "impostor=scripted:agent", "--games", "1", "--seed", str(seed),
                         "--quiet"])
        times.append(time.perf_counter() - started)
        assert code == 0
    return times


def evaluation(folder: Path) -> tuple[float, dict]:
    out = folder / "eval.json"
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(["league", "amongagents", "--seat", "scripted:agent", "--db",
                     str(folder / "eval.db"), "--json", str(out), "--quiet"])
    wall = time.perf_counter() - started
    assert code == 0
    return wall, json.loads(out.read_text())


def run(games: int) -> None:
    times = one_game_times(games)
    print(f"one scripted 5-player game (parlor sim, {games} seeds): median "
          f"{1000 * statistics.median(times):.0f} ms, max {1000 * max(times):.0f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        wall, report = evaluation(Path(tmp))
    verdict = "MEETS" if wall < 10 else "BELOW"
    print(f"the whole evaluation (parlor league amongagents, {report['games']} games, "
          f"{report['counted']} counted, on disk): {wall:.1f} s — target < 10 s: {verdict}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30)
    run(parser.parse_args().games)
