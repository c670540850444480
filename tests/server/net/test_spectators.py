"""A live table tells its players (and spectators) how many watch: when a spectator starts or
stops watching (spectate, leave, disconnect), at most once per `spectators_told_every`, with the
latest count; the message is the table's public summary and nothing more."""

from __future__ import annotations

import asyncio
import math
import time

from server.tables.table import SPECTATORS_TOLD_EVERY
from tests.server.conftest import Client


async def _ada_against_a_bot(server) -> tuple[Client, str]:
    """ada at a Blotto table against a bot, the game running and waiting for her move."""
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "random"], seed=1, join_seat=0))["table"]
    await ada.wait_for("your_turn")
    return ada, table["id"]


async def _count(client: Client, table_id: str, spectators: int) -> dict:
    """The next `table` broadcast of `table_id` telling `spectators` watchers."""
    while True:
        msg = await client.wait_for("table")
        if msg["table"]["id"] == table_id and msg["table"]["spectators"] == spectators:
            return msg


async def test_players_and_spectators_are_told_when_watchers_come_and_go(make_server):
    server = await make_server(spectators_told_every=0.05)
    ada, table_id = await _ada_against_a_bot(server)
    eve = await Client.connect(server.url, "eve")
    fay = await Client.connect(server.url, "fay")

    await eve.request("spectate", table_id=table_id)
    told = await _count(ada, table_id, 1)
    assert told["your_seat"] == 0 and told.get("ref") is None  # a broadcast, not a reply
    assert (await fay.request("spectate", table_id=table_id))["table"]["spectators"] == 2
    await _count(ada, table_id, 2)
    await _count(eve, table_id, 2)  # a spectator's count follows the others too

    await eve.request("leave", table_id=table_id)
    await _count(ada, table_id, 1)
    await _count(fay, table_id, 1)
    await fay.close()  # a disconnect stops the watching as well
    await _count(ada, table_id, 0)
    for c in (ada, eve):
        await c.close()


async def test_many_spectators_coming_and_going_make_few_broadcasts(server):
    """Twenty watchers arriving at once, then leaving at once: the player gets a few table
    messages (at most one per SPECTATORS_TOLD_EVERY after the first), the last with the count."""
    ada, table_id = await _ada_against_a_bot(server)
    watchers = [await Client.connect(server.url, f"w{i}") for i in range(20)]
    ada.received.clear()

    started = time.monotonic()
    await asyncio.gather(*(w.send("spectate", table_id=table_id) for w in watchers))
    await _count(ada, table_id, 20)
    await asyncio.gather(*(w.close() for w in watchers))
    await _count(ada, table_id, 0)
    elapsed = time.monotonic() - started

    tables = [m for m in ada.received if m["type"] == "table"]
    assert len(tables) <= 1 + math.ceil(elapsed / SPECTATORS_TOLD_EVERY)
    assert len(tables) < 10  # one per arrival and departure would be forty
    assert tables[-1]["table"]["spectators"] == 0
    await ada.close()


async def test_the_count_broadcast_is_the_public_summary_only(make_server):
    """What the players get when someone starts watching is the table as the lobby lists it to
    anyone: no view, no event, nothing of the game's hidden setup."""
    server = await make_server(spectators_told_every=0.05)
    ada, table_id = await _ada_against_a_bot(server)
    eve = await Client.connect(server.url, "eve")
    await eve.request("spectate", table_id=table_id)
    told = await _count(ada, table_id, 1)
    assert set(told) == {"v", "type", "table", "your_seat"}
    outsider = await Client.connect(server.url, "olga")
    listed = (await outsider.request("list_tables"))["tables"]
    assert told["table"] == next(t for t in listed if t["id"] == table_id)
    for c in (ada, eve, outsider):
        await c.close()


async def test_no_count_timer_outlives_the_game(make_server):
    """A count due later is dropped when the game ends (and with a table that closes): the
    table keeps no timer, and a finished table's watchers coming and going tell nobody."""
    server = await make_server(spectators_told_every=3600)
    ada, table_id = await _ada_against_a_bot(server)
    eve = await Client.connect(server.url, "eve")
    fay = await Client.connect(server.url, "fay")
    await eve.request("spectate", table_id=table_id)
    await _count(ada, table_id, 1)  # the first change goes at once
    await fay.request("spectate", table_id=table_id)  # the next waits its hour
    table = server.tables[table_id]
    assert table._spectators_due is not None
    await ada.request("leave", table_id=table_id)  # a forfeit: game_over, then the reply
    assert any(m["type"] == "game_over" for m in ada.received)
    assert table.status == "over" and table._spectators_due is None
    await fay.request("leave", table_id=table_id)
    assert table._spectators_due is None
    for c in (ada, eve, fay):
        await c.close()
