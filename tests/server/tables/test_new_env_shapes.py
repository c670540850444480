"""The shapes of game the coming envs need, end to end through `parlor sim` and the websocket
server with a person: a one-seat task (never rated), a team game with hidden roles (rated by
side, team events only for the team) and a 2,500-step game at seven seats."""

from __future__ import annotations

import json
import sqlite3

import pytest

import tests.envs  # noqa: F401  (registers proving-ground and solo-quiz)
from server.cli import main
from tests.server.conftest import Client
from tests.server.net.test_play import rows


def count(db, sql, *params):
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchone()[0]


def test_sim_plays_one_seat_tasks_and_rates_nobody(tmp_path, capsys):
    db = tmp_path / "solo.db"
    assert main(["sim", "solo-quiz", "--seat", "random", "--games", "4", "--seed", "2",
                 "--db", str(db)]) == 0
    assert "Solo quiz: 4 games (0 void" in capsys.readouterr().out
    assert count(db, "SELECT count(*) FROM games WHERE status = 'finished'") == 4
    assert count(db, "SELECT count(*) FROM ratings") == 0


def test_sim_seats_bots_by_side_and_rates_each_side_as_one_identity(tmp_path, capsys):
    db = tmp_path / "teams.db"
    assert main(["sim", "proving-ground", "--preset", "short", "--seat", "red=scripted:pusher",
                 "--seat", "blue=scripted:holder", "--games", "3", "--seed", "5",
                 "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "scripted:pusher" in out and "scripted:holder" in out
    for game in rows(db, "SELECT id, result FROM games"):
        sides = json.loads(game["result"])["sides"]
        seats = rows(db, "SELECT seat, identity FROM seats WHERE game_id = ? ORDER BY seat",
                     game["id"])
        assert {(sides[s["seat"]], s["identity"]) for s in seats} == {
            ("red", "scripted:pusher"), ("blue", "scripted:holder")}
    board = {r["identity"]: r["games"] for r in rows(db, "SELECT * FROM ratings")}
    assert board == {"scripted:pusher": 3, "scripted:holder": 3}


def test_sim_refuses_a_side_that_does_not_exist(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["sim", "proving-ground", "--seat", "green=random", "--seat", "blue=random"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "no role or side 'green'" in err and "blue" in err and "red captain" in err


def test_sim_stores_a_2500_step_seven_seat_game(tmp_path, capsys):
    db = tmp_path / "long.db"
    assert main(["sim", "proving-ground", "--seat", "red=random", "--seat",
                 "blue=scripted:pusher", "--games", "1", "--db", str(db)]) == 0
    assert count(db, "SELECT count(*) FROM actions") == 7 * 2500
    assert count(db, "SELECT max(json_extract(clock, '$.tick')) FROM events") == 2500
    assert count(db, "SELECT status FROM games") == "finished"


async def test_a_person_solves_a_one_seat_task_over_websockets(server):
    ada = await Client.connect(server.url, "ada")
    await ada.request("create_table", env="solo-quiz", seats=["human"], seed=4, join_seat=0)
    answered = 0
    while True:
        msg = await ada.recv()
        if msg["type"] == "your_turn":
            answered += 1
            await ada.send("act", table_id=msg["table_id"], turn=msg["turn"],
                           action={"choice": msg["legal"]["options"][0]["id"]})
        elif msg["type"] == "game_over":
            break
    assert answered >= 3 and not msg["result"]["void"] and not msg["result"]["draw"]
    assert msg["rating_changes"] == {} and msg["statuses"] == {"0": "finished"}
    assert count(server.db_path, "SELECT count(*) FROM ratings") == 0
    await ada.close()


async def test_a_person_captains_a_team_and_never_hears_the_other_team(server):
    ada = await Client.connect(server.url, "ada")
    reply = await ada.request("create_table", env="proving-ground", preset="short", seed=8,
                              seats=["red captain=human", "red crew=scripted:pusher",
                                     "blue=scripted:holder"])
    table = reply["table"]
    human = next(s["seat"] for s in table["seats"] if s["kind"] == "human")
    await ada.request("join", table_id=table["id"], seat=human)
    side = None
    while True:
        msg = await ada.recv()
        if msg["type"] == "your_turn":
            side = msg["view"]["private"]["role"].split()[0]
            assert msg["view"]["private"]["role"] == "red captain"
            await ada.send("act", table_id=table["id"], turn=msg["turn"], action="[push]")
        elif msg["type"] == "game_over":
            break
    assert side == "red"
    heard = [e for m in ada.received if m["type"] == "event" for e in m["events"]]
    team_events = [e for e in heard if e["type"] == "team_moves"]
    assert team_events and all(e["data"]["side"] == "red" for e in team_events)
    assert any(e["type"] == "setup_revealed" for e in heard)
    result = msg["result"]
    assert result["sides"][human] == "red" and not result["void"]
    changed = {c["identity"] for c in msg["rating_changes"].values()}
    assert changed == {"human:ada", "scripted:pusher", "scripted:holder"}
    await ada.close()


async def test_a_person_plays_a_2500_step_seven_seat_game_to_the_end(server):
    ada = await Client.connect(server.url, "ada")
    await ada.request("create_table", env="proving-ground", seed=1, join_seat=0,
                      seats=["human", *["random"] * 6])
    turns, largest = 0, 0
    while True:
        raw = await ada.ws.recv()
        largest = max(largest, len(raw))
        msg = json.loads(raw)
        if msg["type"] == "your_turn":
            turns += 1
            await ada.send("act", table_id=msg["table_id"], turn=msg["turn"],
                           action="[hold]" if turns % 2 else {"choice": "push"})
        elif msg["type"] == "game_over":
            break
    assert msg["result"]["void"] is False and turns >= 2000
    assert largest < 64 * 1024  # bounded views: no message grows with the game
    assert count(server.db_path, "SELECT count(*) FROM actions WHERE seat = 0") == turns
    await ada.close()
