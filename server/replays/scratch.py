"""A replay file written back into a database of its own, for `parlor replay FILE --watch`: the
TUI watches games through a server, and a server serves the games of its database. The game is
stored through the Store's own writing path (its seats, each action with its stored decision
data, the stored events, its end), then given the file's times, so it reads back
(`Replay.from_db`) as the file holds it, think times included."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from engine.records import GameRecord, Result
from server.replays.replay import Replay
from server.store.store import Rows, Store, event_rows

TABLE_ID = "replay-file"  # the table a game from a file was played at is not in the file
UNRATED = "not rated: a game read from a replay file, to watch it again"


async def store_replay(store: Store, replay: Replay) -> int:
    """Store `replay`'s game in `store` as a new game; its id."""
    d = replay.data
    identities = d.get("identities") or [f"{k}:{n}" for k, n in zip(d["kinds"], d["names"],
                                                                    strict=True)]
    game_id = await store.create_game(
        table_id=TABLE_ID, env=d["env"], rules_version=d["rules_version"],
        preset=d.get("preset"), config=d["config"], seed=int(d["seed"]),
        seats=[{"identity": i, "name": n, "kind": k}
               for i, n, k in zip(identities, d["names"], d["kinds"], strict=True)])
    rows = Rows.joined(
        store.action_rows(game_id, idx, action, (), usage=stored.get("usage"),
                          raw_output=stored.get("raw_output"), transcript=stored.get("transcript"))
        for idx, (action, stored) in enumerate(zip(replay.actions, d["actions"], strict=True)))
    rows.events = event_rows(game_id, replay.stored_events)
    result = Result.from_json(d["result"]) if d.get("result") else None
    record = GameRecord(d["env"], d["rules_version"], d["config"], int(d["seed"]),
                        d["players"], replay.actions, replay.stored_events, result,
                        d.get("aborted"))
    await store.finish_game(game_id, record=record, statuses={}, metrics={}, unrated=UNRATED,
                            unwritten=rows)
    created = [(a["created"], game_id, idx) for idx, a in enumerate(d["actions"])
               if a.get("created") is not None]

    def file_times(c: sqlite3.Connection) -> None:
        c.execute("UPDATE games SET started = coalesce(?, started), ended = coalesce(?, ended) "
                  "WHERE id = ?", (d.get("started"), d.get("ended"), game_id))
        c.executemany("UPDATE actions SET created = ? WHERE game_id = ? AND idx = ?", created)
    await store.write(file_times)
    return game_id


def scratch_database(replay: Replay, path: Path) -> int:
    """A new database at `path` holding `replay`'s game alone; the game's id there."""
    async def write() -> int:
        store = await Store.open(path)
        try:
            return await store_replay(store, replay)
        finally:
            await store.close()
    return asyncio.run(write())
