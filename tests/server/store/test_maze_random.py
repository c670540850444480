"""A stored SocialMaze instance drawn by the server (`create_table.instance_random`), over real
websockets: the table plays one of the stored instances, no message before the end names it (a
person who knew its id could look its answer up in the public release), the end reveals it, each
table draws afresh, a player is dealt the instances they have not met first, and a draw from
nothing is refused."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from typing import Any

from bots.registry import make_bot
from engine.config import HIDDEN
from engine.dataset_task.files import dumps as dataset_line
from engine.registry import get
from server.cli import main
from tests.server.conftest import Client
from tests.server.net.test_secrets import _ended

ENV = "rating-estimation"


async def _store(tmp_path, seeds=(1, 2, 3)) -> dict[str, dict[str, Any]]:
    """Three synthetic rating puzzles imported as a host would; id -> {record, summary, hash}."""
    env = get(ENV)
    lines = [dataset_line(env.task.generate(s, env.config())) for s in seeds]
    path = tmp_path / "re.jsonl"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    assert await asyncio.to_thread(main, ["--db", str(tmp_path / "parlor.db"), "maze", "import",
                                          str(path)]) == 0
    with sqlite3.connect(tmp_path / "parlor.db") as c:
        rows = c.execute("SELECT id, record, summary, content_hash FROM maze_instances").fetchall()
    return {i: {"record": r, "summary": s, "hash": h} for i, r, s, h in rows}


async def _play_to_the_end(me: Client, table_id: str) -> dict[str, Any]:
    """The seat answers as the majority bot would, until its game_over."""
    bot = make_bot("scripted:majority", ENV, 0)
    while True:
        msg = await me.recv()
        if msg["type"] == "game_over" and msg["table_id"] == table_id:
            return msg
        if msg["type"] == "your_turn":
            decision = await bot.decide(msg["view"], msg["legal"], {})
            await me.send("act", table_id=table_id, turn=msg["turn"], action=decision.action)


async def test_a_drawn_instance_is_named_to_no_one_before_the_end(make_server, tmp_path):
    stored = await _store(tmp_path)
    srv = await make_server(client_seeds=False)
    seat, watcher, stranger = [await Client.connect(srv.url, n)
                               for n in ("solver", "watcher", "eve")]
    created = await seat.request("create_table", env=ENV, instance_random=True, seats=["human"])
    assert created["type"] == "table" and created["table"]["config"]["instance"] == HIDDEN
    table_id = created["table"]["id"]
    await watcher.request("spectate", table_id=table_id)
    await stranger.request("list_tables")
    await seat.request("join", table_id=table_id, seat=0)
    await stranger.request("list_tables")
    await stranger.request("history", table_id=table_id)
    over = await _play_to_the_end(seat, table_id)
    await watcher.wait_for("game_over", table_id=table_id)
    told_the_stranger = len(stranger.received)  # before the lobby after the end
    drawn = over["setup"]["instance_id"]
    assert drawn in stored and over["setup"]["content_hash"] == stored[drawn]["hash"]
    record = json.loads(stored[drawn]["record"])
    secrets = [stored[drawn]["record"], json.dumps(stored[drawn]["record"])[1:-1],
               stored[drawn]["hash"], json.dumps({"answer": record["answer"]})[1:-1]]
    secrets += [s for i in stored.values() for s in (i["summary"],)] + list(stored)
    for who, client in (("seat", seat), ("spectator", watcher), ("stranger", stranger)):
        end = told_the_stranger if client is stranger else \
            next(i for i, m in enumerate(client.received) if _ended(m))
        for msg in client.received[:end]:
            text = json.dumps(msg)
            leaked = [s for s in secrets if s in text]
            assert not leaked, f"{msg['type']} to the {who} holds {leaked}"
    with sqlite3.connect(tmp_path / "parlor.db") as c:  # the record plays it whole, for replay
        config = json.loads(c.execute("SELECT config FROM games").fetchone()[0])
    assert config["instance"] == stored[drawn]["record"]
    for client in (seat, watcher, stranger):
        await client.close()


async def test_each_table_draws_afresh(make_server, tmp_path):
    """30 tables waiting for their person draw uniformly from three: all three come up unless
    something is wrong (a fixed draw fails at once; chance alone fails with 3 * (2/3)^30,
    about 1.6e-5)."""
    stored = await _store(tmp_path)
    srv = await make_server(client_seeds=False)
    alice = await Client.connect(srv.url, "alice")
    drawn = []
    for _ in range(30):
        created = await alice.request("create_table", env=ENV, instance_random=True,
                                      seats=["human"])
        assert created["table"]["config"]["instance"] == HIDDEN
        record = srv.tables[created["table"]["id"]].config.to_json()["instance"]
        drawn.append(json.loads(record)["id"])
    assert set(drawn) == set(stored)
    await alice.close()


async def test_a_player_meets_every_stored_instance_before_any_comes_again(make_server,
                                                                         tmp_path):
    stored = await _store(tmp_path)
    srv = await make_server(client_seeds=False)
    alice = await Client.connect(srv.url, "alice")
    met = []
    for _ in range(len(stored)):
        created = await alice.request("create_table", env=ENV, instance_random=True,
                                      seats=["human"], join_seat=0)
        over = await _play_to_the_end(alice, created["table"]["id"])
        met.append(over["setup"]["instance_id"])
    assert sorted(met) == sorted(stored)
    # all met: the draw is from every instance again; another player starts afresh
    again = await alice.request("create_table", env=ENV, instance_random=True, seats=["human"])
    assert again["type"] == "table"
    await alice.close()


async def test_drawing_from_nothing_or_with_an_id_is_refused(make_server, tmp_path):
    srv = await make_server()
    alice = await Client.connect(srv.url, "alice")
    empty = await alice.request("create_table", env=ENV, instance_random=True, seats=["human"])
    assert empty["code"] == "unknown_instance" and "parlor maze import" in empty["message"]
    await _store(tmp_path)
    elsewhere = await alice.request("create_table", env=ENV, instance_random=True,
                                    instance_source="nowhere.json", seats=["human"])
    assert elsewhere["code"] == "unknown_instance" and "'nowhere.json'" in elsewhere["message"]
    from_file = await alice.request("create_table", env=ENV, instance_random=True,
                                    instance_source="re.jsonl", seats=["human"])
    assert from_file["type"] == "table"
    both = await alice.request("create_table", env=ENV, instance_random=True,
                               instance="synthetic-rating-1", seats=["human"])
    assert both["code"] == "bad_config" and "not both" in both["message"]
    whole = await alice.request("create_table", env=ENV, instance_random=True,
                                config={"instance": "{}"}, seats=["human"])
    assert whole["code"] == "bad_config" and "config.instance" in whole["message"]
    blotto = await alice.request("create_table", env="colonel-blotto", instance_random=True,
                                 seats=["human", "random"])
    assert blotto["code"] == "bad_config" and "plays no stored instances" in blotto["message"]
    word = await alice.request("create_table", env=ENV, instance_random="yes", seats=["human"])
    assert word["code"] == "bad_message" and "true or false" in word["message"]
    off = await alice.request("create_table", env=ENV, instance_random=False, seats=["human"])
    assert off["type"] == "table"  # not drawn: the seed generates one, as without the field
    assert srv.tables[off["table"]["id"]].config.to_json()["instance"] == ""
    await alice.close()
