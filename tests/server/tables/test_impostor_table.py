"""The Impostor game over real websockets: a person plays Player 1 with three random bots at a
table whose deal the config fixes (as a league does); nothing the person, a spectator or a
stranger listing tables receives before the end holds the impostor's word or the fixed deal,
and the end reveals both words and every ballot."""

from __future__ import annotations

import json

from engine.config import HIDDEN
from tests.server.conftest import Client

IMPOSTOR_WORD = "democracy"  # easy pair 0: elephant (majority) / democracy; longer than any
# word the random bots type, so it can only appear if the game gives it away
CONFIG = {"impostor_seat": 2, "pair_index": 0}


async def test_a_person_plays_and_nothing_leaks_before_the_end(make_server):
    srv = await make_server(client_seeds=False)
    seat, watcher, stranger = [await Client.connect(srv.url, n) for n in ("ada", "bo", "eve")]
    created = await seat.request("create_table", env="impostor", preset="easy", config=CONFIG,
                                 seats=["human", "random", "random", "random"], join_seat=0)
    assert created["type"] != "error", created
    table_id = created["table"]["id"]
    await watcher.request("spectate", table_id=table_id)
    await stranger.request("list_tables")
    while True:
        msg = await seat.recv()
        if msg["type"] == "game_over":
            over = msg
            break
        if msg["type"] != "your_turn":
            continue
        if msg["legal"]["kind"] == "text":
            assert msg["view"]["private"]["word"] == "elephant"
            action = {"text": "It is a very large grey animal with a trunk."}
        else:
            action = {"suspected_impostor_id": "3", "confidence": 0.7, "reasoning": "vague",
                      "self_declaration": False}
        await seat.send("act", table_id=table_id, turn=msg["turn"], action=action)
        await stranger.request("list_tables")
    await watcher.wait_for("game_over", table_id=table_id)
    for who, client in (("seat", seat), ("spectator", watcher), ("stranger", stranger)):
        end = next((i for i, m in enumerate(client.received)
                    if m["type"] == "game_over" or '"setup_revealed"' in json.dumps(m)),
                   len(client.received))
        for msg in client.received[:end]:
            assert IMPOSTOR_WORD not in json.dumps(msg), f"{msg['type']} to the {who}"
            for table in [msg.get("table"), *(msg.get("tables") or [])]:
                if table:
                    assert table["config"]["impostor_seat"] == HIDDEN
                    assert table["config"]["pair_index"] == HIDDEN
    setup = over["setup"]
    assert (setup["majority_word"], setup["impostor_word"]) == ("elephant", IMPOSTOR_WORD)
    assert setup["impostor"] == 2 and over["result"]["reason"]
