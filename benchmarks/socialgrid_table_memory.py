"""What a live SocialGrid table holds as its game grows (issue 21), through the server's own
path: a `Table` of server/tables/table.py on a real SQLite store, every move committed before it is
shown (durability "action", as a live server plays), a spectator and a seated connection sent
every event message (outbound numbering, catch-up, views). Seven `random` seats, no impostor,
run to the step cap. tracemalloc counts what Python holds; printed at steps 500, 1,250 and
2,499 (and the biggest growth between the first and last checkpoint, by file and line, with
--top). Nothing is asserted.

    python benchmarks/socialgrid_table_memory.py [--steps 2500] [--top 15]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CONFIG = {"impostors": 0, "oracle": "high"}
PLAYERS = 7


class Watcher:
    """A recipient that takes each message as a client would (serialised), and takes the
    figures when the game passes a checkpoint."""

    def __init__(self, table: Any, checkpoints: list[int], top: int) -> None:
        self.table, self.checkpoints, self.top = table, checkpoints, top
        self.first: tracemalloc.Snapshot | None = None
        self.start = time.perf_counter()
        self.bytes = 0

    async def send(self, msg: Any) -> None:
        self.bytes += len(json.dumps(msg))
        game = self.table.game
        if game is None or not self.checkpoints:
            return
        step = game.public_view()["step"]
        if step >= self.checkpoints[0]:
            self.checkpoints.pop(0)
            self.report(step)

    def report(self, step: int) -> None:
        gc.collect()  # what is held, not garbage in cycles waiting for the collector
        current, _ = tracemalloc.get_traced_memory()
        print(json.dumps({"step": step, "actions": self.table.game.step,
                          "table_mb": round((current - BASE[0]) / 1e6, 2),
                          "seconds": round(time.perf_counter() - self.start, 1)}), flush=True)
        if self.top:
            snap = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)])
            if self.first is None:
                self.first = snap
            elif not self.checkpoints:
                for stat in snap.compare_to(self.first, "lineno")[:self.top]:
                    frame = stat.traceback[0]
                    where = f"{Path(frame.filename).name}:{frame.lineno}"
                    print(f"  {stat.size_diff / 1e6:+7.2f} MB {stat.count_diff:+8d} blocks  "
                          f"{where}", flush=True)


BASE = [0]


async def run(steps: int, top: int) -> None:
    from bots.registry import make_bot
    from engine.registry import get
    from server.store.store import Store
    from server.tables.table import Seat, Table, TableOptions

    env = get("socialgrid")
    config = env.config(overrides={**CONFIG, "max_steps": steps})
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "parlor.db")
        tracemalloc.start(1)
        BASE[0] = tracemalloc.get_traced_memory()[0]
        seats = [Seat(i, env.seat_name(i), "random", bot=make_bot("random", "socialgrid", 70 + i))
                 for i in range(PLAYERS)]
        table = Table("t1", env, None, config, 7, seats, store, TableOptions())
        # The last a step before the cap: the figures of a game still running.
        checkpoints = sorted({min(500, steps), steps // 2, steps - 1})
        watcher = Watcher(table, checkpoints, top)
        table.spectators.add(watcher)
        await table.start()
        await table.done.wait()
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2500)
    parser.add_argument("--top", type=int, default=15, help="lines of growth to print")
    args = parser.parse_args()
    asyncio.run(run(args.steps, args.top))


if __name__ == "__main__":
    main()
