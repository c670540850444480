"""How long the server's sweep of unused names holds the event loop (issue 21).

The store runs on the loop, so `Store.forget_unused_names` stalls every table while it runs: once
an hour, and in batches after a flood of names. Builds a database of `--names` claimed names (half
played a game long ago, 40% said hello recently, 10% are unused and old), then times the batches
that forget the old unused ones and a sweep that finds nothing.

    python benchmarks/forget_names.py [--names 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.net.app import FORGET_BATCH  # noqa: E402
from server.store.store import Store  # noqa: E402


async def run(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "p.db")
        now = time.time()
        c = store._conn
        with c:
            c.executemany(
                "INSERT INTO players (name, kind, identity, created, token_hash, skeleton, "
                "last_hello) VALUES (?, 'human', ?, 1, 'h', ?, ?)",
                [(f"p{i}", f"human:p{i}", f"p{i}", 1 if i % 2 == 0 or i % 10 == 1 else now)
                 for i in range(count)])
            game = c.execute("INSERT INTO games (table_id, env, rules_version, config, seed, "
                             "started) VALUES ('t1', 'x', '1', '{}', 1, 1)").lastrowid
            c.executemany("INSERT INTO seats (game_id, seat, player_id, identity, kind) "
                          "VALUES (?, ?, ?, ?, 'human')",
                          [(game, i, i + 1, f"human:p{i}") for i in range(0, count, 2)])
        longest, total, forgotten = 0.0, 0.0, 0
        while True:
            start = time.perf_counter()
            batch = await store.forget_unused_names(now - 86400, (), FORGET_BATCH)
            took = time.perf_counter() - start
            longest, total, forgotten = max(longest, took), total + took, forgotten + len(batch)
            if len(batch) < FORGET_BATCH:
                break
        start = time.perf_counter()
        await store.forget_unused_names(now - 86400, (), FORGET_BATCH)
        idle = time.perf_counter() - start
        await store.close()
    print(f"{count:,} names: forgot {forgotten:,} in {total * 1000:.0f} ms (batches of "
          f"{FORGET_BATCH}, longest {longest * 1000:.0f} ms); a sweep with nothing to forget "
          f"{idle * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", type=int, default=100_000)
    asyncio.run(run(parser.parse_args().names))


if __name__ == "__main__":
    main()
