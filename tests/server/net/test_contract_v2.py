"""Contract v2 at a live server: a stalled person gets the env's default move and the game goes
on, the event log is read by cursor in bounded pages, events carry the env's clock and its own
transcript text, and a database written by schema v3 migrates."""

from __future__ import annotations

import json
import sqlite3

from server.store.migrations import MIGRATIONS
from server.store.store import Store
from tests.server.conftest import Client, schema_at
from tests.server.net.test_play import rows


async def test_a_person_who_stalls_gets_the_default_move_and_the_game_goes_on(make_server):
    server = await make_server(turn_timeout=0.2)
    ada = await Client.connect(server.url, "ada")
    await ada.request("create_table", env="three-player-ipd", seats=["human", "random", "random"],
                      seed=3, join_seat=0, on_timeout="default")
    over = await ada.wait_for("game_over", timeout=30)  # ada never answers
    assert not over["result"]["void"]
    assert over["statuses"]["0"] == "finished"
    assert over["metrics"]["seats"]["0"]["defaulted_moves"] == 10  # 5 chats + 5 decisions
    actions = rows(server.db_path, "SELECT outcome, error, raw FROM actions WHERE seat = 0")
    assert len(actions) == 10 and {a["outcome"] for a in actions} == {"defaulted"}
    assert {a["error"] for a in actions} == {"timeout"}
    assert {a["raw"] for a in actions} == {'{"text":""}', '{"1":"cooperate","2":"cooperate"}'}
    lines = [e["text"] for m in ada.received if m["type"] == "event" for e in m["events"]
             if e["type"] == "move_defaulted"]
    assert lines and lines[0] == "ada made the default move (timeout)"  # display names
    await ada.close()


async def test_mindgames_envs_keep_their_rule_a_timed_out_seat_forfeits(make_server):
    server = await make_server(turn_timeout=1.0)
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="colonel-blotto", seats=["human", "random"],
                               join_seat=0))["table"]
    turn = await ada.wait_for("your_turn")  # she moves once, then lets her time run out
    await ada.send("act", table_id=table["id"], turn=turn["turn"], action="[A7 B7 C6]")
    over = await ada.wait_for("game_over")  # a person had moved: a forfeit, not a void game
    assert not over["result"]["void"] and over["statuses"]["0"] == "timeout"
    err = await ada.request("create_table", env="colonel-blotto", seats=["human", "random"],
                            on_timeout="later")
    assert err["code"] == "bad_config" and "default, void" in err["message"]
    await ada.close()


async def test_the_event_log_is_read_in_pages_and_only_by_who_may_see_it(server):
    ada = await Client.connect(server.url, "ada")
    eve = await Client.connect(server.url, "eve")
    table = (await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "random"], seed=2, join_seat=0))["table"]
    for _ in range(3):
        turn = await ada.wait_for("your_turn")
        await ada.send("act", table_id=table["id"], turn=turn["turn"], action="[A9 B9 C2]")
    await ada.wait_for("event")
    err = await eve.request("history", table_id=table["id"])
    assert err["type"] == "error" and err["code"] == "not_seated"
    pages, since = [], 0
    while since is not None:
        page = await ada.request("history", table_id=table["id"], since=since, limit=4)
        assert page["type"] == "history" and len(page["events"]) <= 4
        pages.append(page)
        since = page["next"]
    seen = [e for p in pages for e in p["events"]]
    assert [e["seq"] for e in seen] == sorted({e["seq"] for e in seen}) and len(pages) > 2
    assert {e["type"] for e in seen} >= {"round_started", "allocation_submitted",
                                         "round_resolved"}
    started = next(e for e in seen if e["type"] == "round_started")
    assert started["clock"] == {"round": 1} and started["text"] == "── Round 1 of 5 ──"
    # The opponent's pending allocation was never in ada's log.
    assert all(e["data"].get("seat") in (0, None) for e in seen
               if e["type"] == "invalid_move")
    await eve.request("spectate", table_id=table["id"])
    public = await eve.request("history", table_id=table["id"], limit=200)
    assert all(e["type"] != "invalid_move" or e["data"]["fatal"] for e in public["events"])
    await ada.close()
    await eve.close()


async def test_a_database_written_by_schema_v3_migrates_and_its_games_still_load(tmp_path):
    path = tmp_path / "v3.db"
    with sqlite3.connect(path) as conn:
        schema_at(conn, 3)
        conn.execute("INSERT INTO games (id, table_id, env, rules_version, config, seed, started)"
                     " VALUES (1, 't1', 'colonel-blotto', '1', ?, 5, 0)",
                     (json.dumps({"rounds": 3}),))
        conn.execute("INSERT INTO players (id, name, kind, identity, created) "
                     "VALUES (1, 'random', 'bot', 'random', 0)")
        for seat in (0, 1):
            conn.execute("INSERT INTO seats (game_id, seat, player_id, identity, kind) "
                         "VALUES (1, ?, 1, 'random', 'bot')", (seat,))
        conn.execute("INSERT INTO actions (game_id, idx, seat, step, raw, outcome, created) "
                     "VALUES (1, 0, 0, 0, '[A20]', 'ok', 0)")
        conn.execute("INSERT INTO events (game_id, seq, step, type, data, visible_to) "
                     "VALUES (1, 0, 0, 'round_started', '{}', '\"all\"')")
    store = await Store.open(path)
    try:
        (game_id, record), = await store.interrupted_games()
        assert game_id == 1 and record.actions[0].raw == "[A20]"
        assert record.actions[0].category is None and record.actions[0].fatal is False
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == len(MIGRATIONS)
        assert conn.execute("SELECT clock FROM events").fetchone() == (None,)
        assert conn.execute("SELECT category, fatal FROM actions").fetchone() == (None, 0)
