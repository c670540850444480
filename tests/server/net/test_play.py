"""Whole games over real websockets on 127.0.0.1, checked against the SQLite file."""

from __future__ import annotations

import asyncio
import base64
import json
import random
import sqlite3

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import Client

ALLOC = "[A17 B2 C1]"


async def play_until_over(client: Client, answer=lambda msg: "[A7 B7 C6]") -> dict:
    """Answer every your_turn until game_over; returns the game_over message."""
    while True:
        msg = await client.recv()
        if msg["type"] == "your_turn":
            await client.send("act", table_id=msg["table_id"], turn=msg["turn"],
                              action=answer(msg))
        elif msg["type"] == "game_over":
            return msg


def rows(db, sql, *params):
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(r) for r in conn.execute(sql, params)]


async def test_human_beats_nobody_but_finishes_a_blotto_game_against_a_bot(server):
    ada = await Client.connect(server.url, "ada")
    assert ada.welcome["type"] == "welcome"
    assert {e["id"] for e in ada.welcome["envs"]} >= {"colonel-blotto", "three-player-ipd"}
    reply = await ada.request("create_table", env="colonel-blotto", preset="small",
                              seats=["human", "random"], seed=5, join_seat=0)
    assert reply["type"] == "table" and reply["your_seat"] == 0
    over = await play_until_over(ada)
    assert set(over["result"]["rewards"]) == {"0", "1"}
    assert over["statuses"] == {"0": "finished", "1": "finished"}
    assert set(over["rating_changes"]) == {"0", "1"}
    assert over["metrics"]["seats"]["0"]["rounds_won"] >= 0
    db = server.db_path
    game = rows(db, "SELECT * FROM games")[0]
    assert game["status"] == "finished" and game["env"] == "colonel-blotto"
    seats = rows(db, "SELECT * FROM seats ORDER BY seat")
    assert [(s["identity"], s["status"]) for s in seats] == [("human:ada", "finished"),
                                                            ("random", "finished")]
    actions = rows(db, "SELECT * FROM actions WHERE seat = 0")
    assert actions and all(a["raw"] == "[A7 B7 C6]" and a["outcome"] == "ok" and
                           a["latency_ms"] is not None and a["turn"] for a in actions)
    events = rows(db, "SELECT seq, type FROM events ORDER BY seq")
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert events[-1]["type"] == "game_over"
    assert rows(db, "SELECT count(*) n FROM metrics WHERE seat = 0 AND name = 'reward'")[0]["n"]
    assert {r["identity"] for r in rows(db, "SELECT * FROM ratings")} == {"human:ada", "random"}
    board = await ada.request("leaderboard", env="colonel-blotto")
    assert {r["identity"] for r in board["rows"]} == {"human:ada", "random"}
    await ada.close()


async def _two_people_and_a_spectator(server):
    """ada and bob at a small Blotto table (seats 0 and 1), eve watching it."""
    ada = await Client.connect(server.url, "ada")
    bob = await Client.connect(server.url, "bob")
    eve = await Client.connect(server.url, "eve")
    table = (await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "human"], seed=1, join_seat=0))["table"]
    await eve.request("spectate", table_id=table["id"])
    await bob.request("join", table_id=table["id"])
    return ada, bob, eve, table


async def test_nobody_sees_a_pending_allocation_before_the_round_resolves(server):
    ada, bob, eve, table = await _two_people_and_a_spectator(server)
    turn = await ada.wait_for("your_turn")
    await bob.wait_for("your_turn")
    await ada.send("act", table_id=table["id"], turn=turn["turn"], action=ALLOC)
    submitted = await bob.wait_for("event")
    assert [e["type"] for e in submitted["events"]] == ["allocation_submitted"]
    await eve.wait_for("event", timeout=5)
    await asyncio.sleep(0.1)
    secret = '"A":17'
    for msg in bob.received + eve.received:
        assert secret not in json.dumps(msg, separators=(",", ":")), msg
    own = await ada.wait_for("event")
    assert own["view"]["private"]["allocation"] == {"A": 17, "B": 2, "C": 1}
    bob_turn = [m for m in bob.received if m["type"] == "your_turn"][-1]
    await bob.send("act", table_id=table["id"], turn=bob_turn["turn"], action="[A1 B1 C18]")
    resolved = await eve.wait_for("event")
    while not any(e["type"] == "round_resolved" for e in resolved["events"]):
        resolved = await eve.wait_for("event")
    assert secret in json.dumps(resolved, separators=(",", ":"))
    for c in (ada, bob, eve):
        await c.close()


async def test_an_event_leaves_the_view_to_the_turn_that_follows_it(server):
    """A seat whose turn is sent straight after an event gets the view and text once, in the
    turn; a seat still deciding, and spectators, get them in the event."""
    ada, bob, eve, table = await _two_people_and_a_spectator(server)
    turns = [await ada.wait_for("your_turn"), await bob.wait_for("your_turn")]
    await ada.send("act", table_id=table["id"], turn=turns[0]["turn"], action=ALLOC)
    submitted = await bob.wait_for("event")  # bob's turn is still open: the event has it all
    assert submitted["view"]["seat"] == 1 and submitted["text"]
    await bob.send("act", table_id=table["id"], turn=turns[1]["turn"], action="[A1 B1 C18]")
    for client, seat in ((ada, 0), (bob, 1)):
        resolved = await client.wait_for("event")
        while not any(e["type"] == "round_resolved" for e in resolved["events"]):
            resolved = await client.wait_for("event")
        assert "view" not in resolved and "text" not in resolved
        turn = await client.recv()
        assert turn["type"] == "your_turn" and turn["view"]["seat"] == seat and turn["text"]
        assert turn["view"]["public"]["history"], "the turn shows the resolved round"
    spectated = await eve.wait_for("event")
    while not any(e["type"] == "round_resolved" for e in spectated["events"]):
        spectated = await eve.wait_for("event")
    assert spectated["view"]["seat"] is None and spectated["text"]
    for c in (ada, bob, eve):
        await c.close()


async def test_a_moves_messages_reach_each_recipient_in_one_write(server):
    """The event that resolves a round and the turn that follows it go out in one write per
    connection (one system call, not one per message); a reply goes out at once."""
    ada, bob, eve, table = await _two_people_and_a_spectator(server)
    writes: dict[str, list[bytes]] = {"ada": [], "bob": [], "eve": []}
    for conn in server._conns:
        if conn.player is not None and conn.player.name in writes:
            kept, transport = writes[conn.player.name], conn.ws.transport
            transport.write = (lambda data, kept=kept, write=transport.write:
                               (kept.append(data), write(data))[1])
    turns = [await ada.wait_for("your_turn"), await bob.wait_for("your_turn")]
    await ada.send("act", table_id=table["id"], turn=turns[0]["turn"], action=ALLOC)
    await bob.wait_for("event")
    await bob.send("act", table_id=table["id"], turn=turns[1]["turn"], action="[A1 B1 C18]")
    for client in (ada, bob):
        await client.wait_for("your_turn")
    one = [w for w in writes["bob"] if b'"round_resolved"' in w]
    assert len(one) == 1 and b'"your_turn"' in one[0]  # both frames, one write
    assert len(writes["ada"]) >= 3 and len(writes["eve"]) >= 2
    listed = len(writes["eve"])
    await eve.request("list_tables")
    assert len(writes["eve"]) == listed + 1  # the reply, written as it was made
    for c in (ada, bob, eve):
        await c.close()


async def test_actions_are_committed_before_they_are_broadcast(server):
    ada = await Client.connect(server.url, "ada")
    await ada.request("create_table", env="colonel-blotto", seats=["human", "random"], seed=2,
                      join_seat=0)
    for _ in range(3):
        turn = await ada.wait_for("your_turn")
        await ada.send("act", table_id=turn["table_id"], turn=turn["turn"], action="[A20]")
        echo = await ada.wait_for("event")
        while not any(e["type"] == "allocation_submitted" and e["data"]["seat"] == 0
                      for e in echo["events"]):
            echo = await ada.wait_for("event")
        seqs = [e["seq"] for e in echo["events"]]
        stored = rows(server.db_path, "SELECT seq FROM events")
        assert set(seqs) <= {r["seq"] for r in stored}
        assert rows(server.db_path, "SELECT count(*) n FROM actions WHERE seat = 0 AND turn = ?",
                    turn["turn"])[0]["n"] == 1
    await ada.close()


async def test_bad_messages_get_errors_and_the_game_goes_on(server):
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "random"], seed=3, join_seat=0))["table"]
    turn = await ada.wait_for("your_turn")
    await ada.send_raw("{definitely not json")
    assert (await ada.wait_for("error"))["code"] == "bad_json"
    await ada.send_raw("x" * 70_000)
    assert (await ada.wait_for("error"))["code"] == "too_large"
    assert (await ada.request("teleport"))["code"] == "unknown_type"
    assert (await ada.request("join", table_id=7))["code"] == "bad_message"
    assert (await ada.request("join", table_id="t999"))["code"] == "unknown_table"
    assert (await ada.request("act", table_id=table["id"], turn=turn["turn"] + 50,
                              action="[A20]"))["code"] == "stale_turn"
    assert (await ada.request("create_table", env="chess", seats=["human"]))["code"] == \
        "unknown_env"
    err = await ada.request("create_table", env="colonel-blotto", seats=["human", "random"],
                            config={"units": -3})
    assert err["code"] == "bad_config" and "units" in err["message"]
    err = await ada.request("create_table", env="colonel-blotto", seats=["human", "gpt-9"])
    assert err["code"] == "bad_seat" and "random" in err["message"]
    err = await ada.request("create_table", env="colonel-blotto", seats=["human"])
    assert err["code"] == "bad_config" and "2" in err["message"]
    # An invalid move is not a protocol error: the env asks for a retry.
    await ada.send("act", table_id=table["id"], turn=turn["turn"], action="[A99]")
    retry = await ada.wait_for("your_turn")
    assert retry["turn"] != turn["turn"] and "99" in retry["view"]["private"]["last_error"] \
        or retry["view"]["private"]["invalid_count"] == 1
    await ada.send("act", table_id=table["id"], turn=retry["turn"], action="[A7 B7 C6]")
    over = await play_until_over(ada)
    assert not over["result"]["void"]
    await ada.close()


async def test_unseated_and_premature_actions_are_refused(server):
    ada = await Client.connect(server.url, "ada")
    bob = await Client.connect(server.url, "bob")
    first = await bob.request("list_tables")
    assert first["tables"] == []
    table = (await ada.request("create_table", env="colonel-blotto",
                               seats=["human", "human"], join_seat=0))["table"]
    assert (await bob.request("act", table_id=table["id"], turn=1, action="x"))["code"] == \
        "not_seated"
    assert (await ada.request("act", table_id=table["id"], turn=1, action="x"))["code"] == \
        "not_your_turn"
    assert (await bob.request("join", table_id=table["id"], seat=0))["code"] == "seat_taken"
    assert (await bob.request("join", table_id=table["id"], seat=5))["code"] == "bad_seat"
    raw = await Client.connect(server.url)
    await raw.send("list_tables")
    assert (await raw.wait_for("error"))["code"] == "hello_required"
    for c in (ada, bob, raw):
        await c.close()


async def test_disconnect_then_resume_within_grace(make_server):
    server = await make_server(disconnect_grace=5, turn_timeout=30)
    ada = await Client.connect(server.url, "ada")
    token = ada.welcome["player"]["token"]
    table = (await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "random"], seed=4, join_seat=0))["table"]
    await ada.wait_for("your_turn")
    await ada.close()
    await asyncio.sleep(0.2)
    back = await Client.connect(server.url, "ada", token=token)
    assert back.welcome["player"]["token"] == token
    await back.send("resume", table_id=table["id"])
    over = await play_until_over(back)
    assert not over["result"]["void"] and over["statuses"]["0"] == "finished"
    await back.close()


async def test_a_vanished_player_forfeits_after_the_grace_period(make_server):
    server = await make_server(disconnect_grace=0.3, turn_timeout=30)
    ada = await Client.connect(server.url, "ada")
    eve = await Client.connect(server.url, "eve")
    table = (await ada.request("create_table", env="colonel-blotto",
                               seats=["human", "random"], join_seat=0))["table"]
    await eve.request("spectate", table_id=table["id"])
    turn = await ada.wait_for("your_turn")  # she allocates once (a game no person has
    await ada.send("act", table_id=table["id"], turn=turn["turn"], action="[A7 B7 C6]")
    await ada.wait_for("your_turn")  # moved in would be void), then vanishes
    await ada.close()
    over = await eve.wait_for("game_over")
    assert not over["result"]["void"] and over["statuses"]["0"] == "disconnected"
    assert over["result"]["winners"] == [1] and set(over["rating_changes"]) == {"0", "1"}
    game = rows(server.db_path, "SELECT status FROM games")[0]
    assert game["status"] == "finished"
    assert rows(server.db_path, "SELECT status FROM seats WHERE seat = 0")[0]["status"] == \
        "disconnected"
    assert rows(server.db_path, "SELECT count(*) n FROM ratings")[0]["n"] == 2
    await eve.close()


async def test_a_player_who_never_answers_times_out(make_server):
    server = await make_server(turn_timeout=0.3)
    ada = await Client.connect(server.url, "ada")
    await ada.request("create_table", env="three-player-ipd",
                      seats=["human", "random", "random"], join_seat=0)
    turn = await ada.wait_for("your_turn")
    assert turn["deadline"] is not None
    over = await ada.wait_for("game_over")
    assert over["result"]["void"] and over["statuses"] == {"0": "timeout", "1": "finished",
                                                           "2": "finished"}
    await ada.close()


async def test_an_ipd_game_with_chat_and_decisions(server):
    ada = await Client.connect(server.url, "ada")
    await ada.request("create_table", env="three-player-ipd", seats=["human", "random", "random"],
                      seed=9, join_seat=0)

    def answer(msg):
        legal = msg["legal"]
        if legal["kind"] == "text":
            return "I will cooperate with everyone."
        return {"1": "defect", "2": "cooperate"}

    over = await play_until_over(ada, answer)
    assert over["metrics"]["seats"]["0"]["cooperation_rate_vs_1"] == 0.0
    chat = [e for m in ada.received if m["type"] == "event" for e in m["events"]
            if e["type"] == "chat" and e["data"]["seat"] == 0]
    assert len(chat) == 5 and chat[0]["data"]["text"] == "I will cooperate with everyone."
    await ada.close()


async def test_leaving_a_waiting_table_frees_the_seat(server):
    ada = await Client.connect(server.url, "ada")
    bob = await Client.connect(server.url, "bob")
    table = (await ada.request("create_table", env="three-player-ipd",
                               seats=["human", "human", "human"], join_seat=0))["table"]
    await bob.request("join", table_id=table["id"], seat=1)
    await bob.close()
    for _ in range(50):
        listed = (await ada.request("list_tables"))["tables"][0]
        if listed["seats"][1]["player"] is None:
            break
        await asyncio.sleep(0.02)
    assert listed["status"] == "waiting" and listed["seats"][1]["player"] is None
    cy = await Client.connect(server.url, "cy")
    dee = await Client.connect(server.url, "dee")
    assert (await cy.request("join", table_id=table["id"]))["your_seat"] == 1
    assert (await dee.request("join", table_id=table["id"]))["your_seat"] == 2
    started = await cy.wait_for("table")
    while started["table"]["status"] != "playing":
        started = await cy.wait_for("table")
    for c in (ada, cy, dee):
        await c.close()


async def test_a_client_that_stops_reading_is_dropped_and_its_seat_disconnects(make_server,
                                                                               caplog):
    """Its full buffers must not hold up the table: once it is too far behind the connection is
    cut, and the disconnect policy takes over (here: grace, then the seat forfeits)."""
    server = await make_server(disconnect_grace=0.3, turn_timeout=30, max_unsent=1_000_000)
    ada = Client(await connect(server.url, max_queue=1))  # reads nothing once its queue is full
    token = (await ada.request("hello", name="ada"))["player"]["token"]
    eve = await Client.connect(server.url, "eve")
    table = (await ada.request("create_table", env="colonel-blotto",
                               seats=["human", "random"], join_seat=0))["table"]
    await eve.request("spectate", table_id=table["id"])
    await ada.wait_for("your_turn")
    (conn,) = server.players[token].conns
    blob = base64.b64encode(random.Random(1).randbytes(196_608)).decode()  # does not compress
    with pytest.raises(ConnectionClosed):
        for _ in range(2000):  # up to 500 MB: far beyond any socket buffer
            await conn.send({"v": 1, "type": "noise", "blob": blob})
    assert "dropping a client more than 1000000 bytes behind" in caplog.text
    over = await eve.wait_for("game_over")
    assert over["statuses"]["0"] == "disconnected"  # a forfeit: the bot had moved
    assert not server.players[token].conns
    await eve.close()
