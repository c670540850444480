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


async def test_a_preview_tells_the_seat_what_its_draft_would_be_refused_for_and_plays_nothing(
        make_server):
    """`preview` over the socket: the seat whose description is awaited hears, and only it,
    that a draft names its own word; a draft naming the other word is not warned of (that would
    give the other word away); nothing is played; a stale turn or a spectator is refused."""
    srv = await make_server(client_seeds=False)
    ada, bo = [await Client.connect(srv.url, n) for n in ("ada", "bo")]
    created = await ada.request("create_table", env="impostor", preset="easy", config=CONFIG,
                                seats=["human", "random", "random", "random"], join_seat=0)
    table_id = created["table"]["id"]
    await bo.request("spectate", table_id=table_id)
    turn = await ada.wait_for("your_turn", table_id=table_id)
    while turn["legal"]["kind"] != "text":  # pragma: no cover - seat 0 describes at once here
        turn = await ada.wait_for("your_turn", table_id=table_id)
    n = turn["turn"]
    leak = await ada.request("preview", table_id=table_id, turn=n,
                             action={"text": "Elephants never forget."})
    assert leak["type"] == "preview" and leak["turn"] == n
    assert leak["problems"] == ['it names your word ("elephants")']
    other = await ada.request("preview", table_id=table_id, turn=n,
                              action={"text": f"Not {IMPOSTOR_WORD}, I think."})
    assert other["problems"] == []
    stale = await ada.request("preview", table_id=table_id, turn=n + 5,
                              action={"text": "x"})
    assert stale["type"] == "error" and stale["code"] == "stale_turn"
    watching = await bo.request("preview", table_id=table_id, turn=n, action={"text": "x"})
    assert watching["type"] == "error" and watching["code"] == "not_seated"
    # Nothing was played: the turn is still ours and no description went out.
    await ada.send("act", table_id=table_id, turn=n, action={"text": "A big grey animal."})
    while True:
        msg = await bo.recv()
        said = [e["data"] for e in msg.get("events") or () if e["type"] == "description"]
        if any(d["seat"] == 0 for d in said):
            break
    said = [e["data"]["text"] for m in bo.received if m["type"] == "event"
            for e in m["events"] if e["type"] == "description" and e["data"]["seat"] == 0]
    assert said == ["A big grey animal."]
    assert not any(m["type"] == "preview" for m in bo.received)
