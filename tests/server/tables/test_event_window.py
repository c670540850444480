"""A live table keeps a window of its game's log in memory and reads older events back from the
store (issue 21: memory per table bounded by the window, not by the game's length). Over real
websockets and a real SQLite file, the same seeded SocialGrid game played with a tiny window and
with one that never fills must look the same to its person and to a spectator who comes late:
every event and view, a late joiner's catch-up, every `history` page, and the result."""

from __future__ import annotations

import random
from typing import Any

from engine.sampling import random_action
from engine.spaces import ActionSpace
from server.tables import table as tables
from tests.server.conftest import Client

SEATS = ["human"] + ["random"] * 4
CONFIG = {"impostors": 1, "max_steps": 60, "vote_interval": 20, "kill_cooldown": 30}
WALL_CLOCK = {"deadline", "ref", "latency_ms", "rating", "ratings", "table_id", "game_id",
              "table", "id"}


def _plain(value: Any, name: str) -> Any:
    """A message without what differs between two tables by design (ids, wall clock, the
    ratings the first game moved, the people's names)."""
    if isinstance(value, dict):
        return {k: _plain(v, name) for k, v in value.items() if k not in WALL_CLOCK}
    if isinstance(value, list):
        return [_plain(v, name) for v in value]
    if isinstance(value, str):
        return value.replace(f"{name}-person", "PERSON").replace(f"{name}-watcher", "WATCHER")
    return value


async def _history(client: Client, table_id: str) -> list[dict[str, Any]]:
    events, since = [], 0
    while True:
        page = await client.request("history", table_id=table_id, since=since, limit=37)
        events += page["events"]
        if page["next"] is None:
            return events
        since = page["next"]


async def _play(server, name: str, seed: int) -> dict[str, Any]:
    person = await Client.connect(server.url, f"{name}-person")
    watcher = await Client.connect(server.url, f"{name}-watcher")
    table = (await person.request("create_table", env="socialgrid", seats=SEATS, seed=seed,
                                  join_seat=0, config=CONFIG))["table"]
    rng, moves, caught_up, seen = random.Random(seed), 0, None, []
    while True:
        msg = await person.recv()
        seen.append(msg)
        if msg["type"] == "game_over":
            break
        if msg["type"] == "your_turn":
            moves += 1
            if moves == 25:  # a spectator comes late: the catch-up reaches past the window
                caught_up = await watcher.request("spectate", table_id=table["id"])
                early = await _history(watcher, table["id"])
            action = random_action(ActionSpace.from_json(msg["legal"]), rng)
            await person.send("act", table_id=table["id"], turn=msg["turn"], action=action)
    live = server.tables[table["id"]]
    seen = {"person": seen, "caught_up": caught_up, "early": early,
            "history": await _history(person, table["id"]),
            "watched": await _history(watcher, table["id"])}
    return {**_plain(seen, name),
            "kept": len(live.game._events), "base": live.game._events_base}


async def test_a_tiny_window_plays_and_reads_back_exactly_as_a_whole_log(server, monkeypatch):
    whole = await _play(server, "a", seed=11)
    monkeypatch.setattr(tables, "EVENTS_KEPT", 12)
    windowed = await _play(server, "b", seed=11)
    assert windowed["base"] > 50 and windowed["kept"] <= 2 * 12 + 20  # it forgot
    assert whole["base"] == 0
    assert len(whole["history"]) > 60 and len(whole["early"]) > 30  # most of it forgotten
    assert whole["person"][-1]["type"] == "game_over"
    for key in ("person", "caught_up", "early", "history", "watched"):
        assert windowed[key] == whole[key], key
