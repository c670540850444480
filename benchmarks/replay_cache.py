"""What a `replay` request costs the server (server/net/replays.py): the rebuild time of one
perspective of a stored game, the bytes its build keeps in the cache, the largest frame message,
and the process's peak memory while rebuilding.

    parlor sim socialgrid --seat random (x7) --games 3 --seed 5 --quiet --db /tmp/sg.db
    python benchmarks/replay_cache.py /tmp/sg.db [--game ID] [--seat N ...]

Without --game: the game with the most actions. Prints one row per perspective (omniscient and
each --seat given, seat 0 by default)."""

from __future__ import annotations

import argparse
import resource
import sqlite3
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # before benchmarks/engine.py

from server.net.replays import build  # noqa: E402
from server.replays.replay import Replay  # noqa: E402
from server.wire import protocol as p  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("--game", type=int, default=None)
    parser.add_argument("--seat", type=int, action="append", default=None)
    args = parser.parse_args()
    conn = sqlite3.connect(args.db)
    game_id = args.game or conn.execute(
        "SELECT game_id FROM actions GROUP BY game_id ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()[0]
    began = time.perf_counter()
    replay = Replay.from_db(conn, game_id)
    read = time.perf_counter() - began
    print(f"game {game_id} ({replay.env.id}): {len(replay.actions)} actions, "
          f"{len(replay.stored_events)} events; read from the database in {read:.2f} s")
    for seat in [None, *(args.seat or [0])]:
        began = time.perf_counter()
        built = build(replay, seat)
        took = time.perf_counter() - began
        assert built.refusal is None, built.refusal
        largest = max(len(p.encode_bytes(built.reply(1, at, game_id, None))) for at in
                      range(len(built.frames)))
        who = "omniscient" if seat is None else f"seat {seat}"
        print(f"{who:>10}: {len(built.frames)} frames, rebuilt in {took:.2f} s, "
              f"build {built.size / 2**20:.1f} MiB, largest reply {largest / 1024:.0f} KiB, "
              f"peak RSS so far {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} "
              f"MiB")


if __name__ == "__main__":
    main()
