"""Seats over real websockets (issue 9): joining a finished or another table, coming back to a
game with `join`, the table told of a disconnect and a return, leaving as abandonment (the seat
forfeits and the game is rated, unless nobody had moved), and the display names every screen
and event text uses."""

from __future__ import annotations

import sqlite3
import time

from engine.registry import get
from server.store.store import Store
from tests.server.conftest import Client

ALLOC = "[A7 B7 C6]"


def rows(db, sql, *params):
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(r) for r in conn.execute(sql, params)]


async def table_where(client: Client, check) -> dict:
    """The next `table` message whose summary passes `check`."""
    while True:
        msg = await client.wait_for("table")
        if check(msg["table"]):
            return msg


async def two_humans_at_blotto(server, spectator: bool = True):
    """ada (seat 0) and bob (seat 1) at a small Blotto table, both asked to allocate; eve
    watches."""
    ada = await Client.connect(server.url, "ada")
    bob = await Client.connect(server.url, "bob")
    table = (await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "human"], seed=7, join_seat=0))["table"]
    eve = await Client.connect(server.url, "eve")
    if spectator:
        await eve.request("spectate", table_id=table["id"])
    await bob.request("join", table_id=table["id"])
    await ada.wait_for("your_turn")
    return ada, bob, eve, table


async def bob_allocates(bob: Client, table: dict) -> None:
    turn = await bob.wait_for("your_turn")
    await bob.send("act", table_id=table["id"], turn=turn["turn"], action=ALLOC)
    while True:  # his move is stored and broadcast
        msg = await bob.wait_for("event")
        if any(e["type"] == "allocation_submitted" for e in msg["events"]):
            return


# -- A: joining ---------------------------------------------------------------------------
async def test_joining_a_finished_table_is_refused_and_keeps_your_waiting_seat(make_server):
    server = await make_server(turn_timeout=0.2)
    ada = await Client.connect(server.url, "ada")
    done = (await ada.request("create_table", env="colonel-blotto", seats=["human", "random"],
                              join_seat=0))["table"]
    await ada.wait_for("game_over")  # ada never answers: she forfeits on time
    bob = await Client.connect(server.url, "bob")
    waiting = (await bob.request("create_table", env="three-player-ipd",
                                 seats=["human", "human", "human"], join_seat=0))["table"]
    err = await bob.request("join", table_id=done["id"])
    assert err["type"] == "error" and err["code"] == "game_over"
    assert "ended" in err["message"]
    err = await ada.request("join", table_id=done["id"])  # even with a seat there
    assert err["type"] == "error" and err["code"] == "game_over"
    tables = {t["id"]: t for t in (await bob.request("list_tables"))["tables"]}
    assert tables[waiting["id"]]["seats"][0]["player"] == "bob"
    assert tables[done["id"]]["status"] == "over"
    for c in (ada, bob):
        await c.close()


async def test_joining_another_waiting_table_moves_you_there(server):
    ada = await Client.connect(server.url, "ada")
    cy = await Client.connect(server.url, "cy")
    first = (await ada.request("create_table", env="three-player-ipd",
                               seats=["human", "human", "human"], join_seat=0))["table"]
    await cy.request("join", table_id=first["id"], seat=2)
    bob = await Client.connect(server.url, "bob")
    second = (await bob.request("create_table", env="three-player-ipd",
                                seats=["human", "human", "human"], join_seat=0))["table"]
    moved = await ada.request("join", table_id=second["id"])
    assert moved["type"] == "table" and moved["your_seat"] == 1
    freed = await table_where(cy, lambda t: t["id"] == first["id"] and
                              t["seats"][0]["player"] is None)
    assert [s["player"] for s in freed["table"]["seats"]] == [None, None, "cy"]
    tables = {t["id"]: t for t in (await ada.request("list_tables"))["tables"]}
    assert [s["player"] for s in tables[first["id"]]["seats"]] == [None, None, "cy"]
    assert [s["player"] for s in tables[second["id"]]["seats"]] == ["bob", "ada", None]
    for c in (ada, bob, cy):
        await c.close()


# -- B and C: coming back; the table is told ------------------------------------------------
async def test_join_after_a_restart_resumes_the_game_and_the_table_sees_both_changes(
        make_server):
    server = await make_server(disconnect_grace=30)
    ada, bob, eve, table = await two_humans_at_blotto(server)
    token = ada.welcome["player"]["token"]
    await bob_allocates(bob, table)
    before = time.time()
    await ada.close()
    for watcher in (bob, eve):
        gone = await table_where(watcher, lambda t: t["seats"][0]["return_by"] is not None)
        seat = gone["table"]["seats"][0]
        assert seat["connected"] is False and seat["player"] == "ada"
        assert before + 30 <= seat["return_by"] <= time.time() + 30
        assert gone["table"]["seats"][1]["return_by"] is None
    back = await Client.connect(server.url, "ada", token=token)
    for watcher in (bob, eve):
        again = await table_where(watcher, lambda t: t["seats"][0]["return_by"] is None)
        assert again["table"]["seats"][0]["connected"] is True
    reply = await back.request("join", table_id=table["id"])
    assert reply["type"] == "table" and reply["your_seat"] == 0
    assert reply["table"]["status"] == "playing"
    catch_up = await back.wait_for("event")
    assert catch_up["seat"] == 0 and catch_up["events"]
    assert any(e["type"] == "allocation_submitted" for e in catch_up["events"])
    turn = await back.wait_for("your_turn")
    await back.send("act", table_id=table["id"], turn=turn["turn"], action=ALLOC)
    resolved = await eve.wait_for("event")
    while not any(e["type"] == "round_resolved" for e in resolved["events"]):
        resolved = await eve.wait_for("event")
    for c in (back, bob, eve):
        await c.close()


# -- D: leaving is abandonment --------------------------------------------------------------
async def test_leaving_a_running_game_forfeits_it_and_it_is_rated(server):
    ada, bob, eve, table = await two_humans_at_blotto(server)
    await bob_allocates(bob, table)
    ref = await ada.send("leave", table_id=table["id"])
    over = await ada.wait_for("game_over")
    reply = await ada.wait_for("table", ref=ref)
    assert reply["your_seat"] is None and reply["table"]["status"] == "over"
    for c in (bob, eve):
        assert (await c.wait_for("game_over")) == over
    assert over["statuses"] == {"0": "resigned", "1": "finished"}
    assert not over["result"]["void"] and over["result"]["winners"] == [1]
    assert over["result"]["rewards"] == {"0": -1.0, "1": 1.0}
    assert set(over["rating_changes"]) == {"0", "1"}
    assert over["rating_changes"]["0"]["after"]["mu"] < over["rating_changes"]["1"]["after"]["mu"]
    forfeit = [e for m in eve.received if m["type"] == "event" for e in m["events"]
               if e["type"] == "forfeit"]
    assert forfeit and forfeit[0]["data"] == {"seat": 0, "reason": "left the game"}
    db = server.db_path
    assert rows(db, "SELECT status FROM games")[0]["status"] == "finished"
    assert [r["status"] for r in rows(db, "SELECT status FROM seats ORDER BY seat")] == \
        ["resigned", "finished"]
    assert rows(db, "SELECT seat, outcome, error FROM actions ORDER BY idx")[-1] == \
        {"seat": 0, "outcome": "resigned", "error": "left the game"}
    assert {r["identity"] for r in rows(db, "SELECT identity FROM ratings")} == \
        {"human:ada", "human:bob"}
    record = await server.store.load_record(over["game_id"])
    replayed = get(record.env).replay(record).record()
    assert [e.to_json() for e in replayed.events] == [e.to_json() for e in record.events]
    assert replayed.result == record.result
    for c in (ada, bob, eve):
        await c.close()


async def test_leaving_before_anyone_moved_voids_the_game(server):
    ada, bob, eve, table = await two_humans_at_blotto(server)
    await ada.send("leave", table_id=table["id"])
    over = await bob.wait_for("game_over")
    assert over["result"]["void"] and over["statuses"] == {"0": "resigned", "1": "finished"}
    assert over["rating_changes"] == {}
    assert (await ada.wait_for("game_over")) == over
    assert rows(server.db_path, "SELECT status FROM games")[0]["status"] == "void"
    assert rows(server.db_path, "SELECT count(*) n FROM ratings")[0]["n"] == 0
    for c in (ada, bob, eve):
        await c.close()


async def test_a_player_who_does_not_come_back_forfeits(make_server):
    server = await make_server(disconnect_grace=0.3)
    ada, bob, eve, table = await two_humans_at_blotto(server)
    await bob_allocates(bob, table)
    await ada.close()
    over = await eve.wait_for("game_over")
    assert not over["result"]["void"] and over["result"]["winners"] == [1]
    assert over["statuses"] == {"0": "disconnected", "1": "finished"}
    assert set(over["rating_changes"]) == {"0", "1"}
    ended = await table_where(eve, lambda t: t["status"] == "over")
    assert ended["table"]["seats"][0]["return_by"] is None  # no countdown after the end
    for c in (bob, eve):
        await c.close()


async def test_running_out_of_time_under_the_void_policy_forfeits(make_server):
    server = await make_server(turn_timeout=1.0, on_timeout="void")
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="colonel-blotto", seats=["human", "random"],
                               seed=3, join_seat=0))["table"]
    turn = await ada.wait_for("your_turn")  # she allocates once, then never again
    await ada.send("act", table_id=table["id"], turn=turn["turn"], action=ALLOC)
    over = await ada.wait_for("game_over")
    assert not over["result"]["void"] and over["result"]["winners"] == [1]
    assert over["statuses"] == {"0": "timeout", "1": "finished"}
    assert set(over["rating_changes"]) == {"0", "1"}
    await ada.close()


async def test_leaving_a_bot_game_before_your_first_move_voids_it(server):
    """The bot allocates the moment the game starts; the leave dialog promises a game no person
    has moved in is void, and so it is (issue 22)."""
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="colonel-blotto", seats=["human", "random"],
                               seed=3, join_seat=0))["table"]
    while True:  # the bot's allocation is in
        msg = await ada.wait_for("event")
        if any(e["type"] == "allocation_submitted" for e in msg["events"]):
            break
    await ada.send("leave", table_id=table["id"])
    over = await ada.wait_for("game_over")
    assert over["result"]["void"] and over["rating_changes"] == {}
    assert over["statuses"]["0"] == "resigned"
    assert rows(server.db_path, "SELECT count(*) n FROM ratings")[0]["n"] == 0
    await ada.close()


async def test_running_out_of_time_before_anyone_moved_voids_the_game(make_server):
    server = await make_server(turn_timeout=0.2, on_timeout="void")
    ada, bob, eve, table = await two_humans_at_blotto(server, spectator=False)
    over = await ada.wait_for("game_over")
    assert over["result"]["void"] and over["rating_changes"] == {}
    assert "timeout" in over["statuses"].values()
    for c in (ada, bob, eve):
        await c.close()


async def test_a_resigned_game_round_trips_through_the_store(tmp_path):
    env = get("three-player-ipd")
    game = env.new_game(env.config(), 5, 3)
    while not game.over and game.step < 4:
        seat = min(game.pending())
        game.act(seat, game.default_action(seat), meta={"latency_ms": 1.5})
    game.resign(2, "left the game")
    assert game.over and game.result.rewards == {0: 1.0, 1: 1.0, 2: -1.0}
    record = game.record()
    assert record.actions[-1].outcome == "resigned" and record.actions[-1].error == \
        "left the game"
    store = await Store.open(tmp_path / "p.db")
    try:
        game_id = await store.create_game(
            table_id="t1", env=env.id, rules_version=env.rules_version, preset="paper",
            config=record.config, seed=5,
            seats=[{"identity": f"random{i}", "kind": "bot", "name": f"random{i}"}
                   for i in range(3)])
        for i, action in enumerate(record.actions):
            events = [e for e in record.events if e.step == action.step]
            await store.write_rows(store.action_rows(game_id, i, action, events))
        await store.finish_game(game_id, record=record, statuses={2: "resigned"}, metrics={})
        loaded = await store.load_record(game_id)
    finally:
        await store.close()
    assert [a.to_json() for a in loaded.actions] == [a.to_json() for a in record.actions]
    replayed = env.replay(loaded).record()
    assert [e.to_json() for e in replayed.events] == [e.to_json() for e in record.events]
    assert replayed.result == record.result


# -- E: display names ---------------------------------------------------------------------
async def test_every_screen_names_seats_by_their_display_names(server):
    ada = await Client.connect(server.url, "ada")
    created = await ada.request("create_table", env="three-player-ipd", seed=4,
                                seats=["human", "random", "random"])
    assert [s["display"] for s in created["table"]["seats"]] == \
        ["open seat", "random #1", "random #2"]
    joined = await ada.request("join", table_id=created["table"]["id"])
    assert [s["display"] for s in joined["table"]["seats"]] == ["ada", "random #1", "random #2"]
    assert all(s["return_by"] is None for s in joined["table"]["seats"])
    texts = []
    while True:
        msg = await ada.recv()
        if msg["type"] == "event":
            texts += [e["text"] for e in msg["events"] if e["type"] == "chat"]
        elif msg["type"] == "your_turn":
            action = "hello all" if msg["legal"]["kind"] == "text" else \
                {"1": "cooperate", "2": "cooperate"}
            await ada.send("act", table_id=msg["table_id"], turn=msg["turn"], action=action)
        elif msg["type"] == "game_over":
            over = msg
            break
    assert "ada: hello all" in texts
    assert any(t.startswith("random #1: ") for t in texts)
    assert not any(t.startswith("Player ") for t in texts)
    assert over["display"] == {"0": "ada", "1": "random #1", "2": "random #2"}
    assert "setup" in over and isinstance(over["setup"], dict)
    await ada.close()


async def test_a_lone_bot_keeps_its_plain_identity(server):
    ada = await Client.connect(server.url, "ada")
    created = await ada.request("create_table", env="colonel-blotto",
                                seats=["human", "random"], join_seat=0)
    assert [s["display"] for s in created["table"]["seats"]] == ["ada", "random"]
    await ada.close()


async def test_a_seat_freed_at_a_waiting_table_shows_no_countdown(server):
    """A disconnect at a waiting table frees the seat (no grace): it is open again."""
    ada = await Client.connect(server.url, "ada")
    bob = await Client.connect(server.url, "bob")
    table = (await ada.request("create_table", env="three-player-ipd",
                               seats=["human", "human", "human"], join_seat=0))["table"]
    await bob.request("join", table_id=table["id"])
    await bob.close()
    freed = await table_where(ada, lambda t: t["seats"][1]["player"] is None)
    assert freed["table"]["seats"][1]["return_by"] is None
    assert freed["table"]["seats"][1]["display"] == "open seat #1"
    await ada.close()


async def test_a_waiting_table_closes_when_its_last_person_leaves(server):
    """Issue 22: an IPD table with two seats for people stayed listed, empty, after its only
    person left the waiting room."""
    ada = await Client.connect(server.url, "ada")
    bob = await Client.connect(server.url, "bob")
    table = (await ada.request("create_table", env="three-player-ipd",
                               seats=["human", "human", "scripted:tit-for-tat"],
                               join_seat=0))["table"]
    listed = await bob.request("list_tables")
    assert [t["id"] for t in listed["tables"]] == [table["id"]]
    left = await ada.request("leave", table_id=table["id"])
    assert left["your_seat"] is None
    listed = await bob.request("list_tables")
    assert [t for t in listed["tables"] if t["status"] != "closed"] == []
    refused = await bob.request("join", table_id=table["id"])
    assert refused["type"] == "error"
    for c in (ada, bob):
        await c.close()
