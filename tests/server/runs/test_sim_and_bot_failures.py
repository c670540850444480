"""`parlor sim` end to end, and what a table does when a bot fails."""

import json
import sqlite3

import pytest

from bots.base import Bot, BotError, Decision
from bots.registry import SCRIPTED, register_scripted
from server.cli import main
from tests.server.conftest import Client


def test_sim_prints_a_summary_and_stores_games(tmp_path, capsys):
    db = tmp_path / "sim.db"
    assert main(["sim", "colonel-blotto", "--seat", "random", "--seat", "random", "--games", "3",
                 "--seed", "7", "--preset", "small", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Colonel Blotto: 3 games (0 void" in out and "random" in out
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM games WHERE status='finished'").fetchone()[0] == 3
        assert conn.execute("SELECT count(*) FROM actions").fetchone()[0] >= 3 * 2 * 3
        seeds = [int(r[0]) for r in conn.execute("SELECT seed FROM games ORDER BY id")]
    assert seeds == [7, 8, 9]


def test_sim_is_deterministic_given_the_seed(capsys):
    args = ["sim", "three-player-ipd", "--seat", "random", "--seat", "random", "--seat",
            "random", "--games", "2", "--seed", "3"]
    main(args)
    first = capsys.readouterr().out
    main(args)
    assert capsys.readouterr().out == first


class Cooperator(Bot):
    async def decide(self, view, legal, memory):
        if legal["kind"] == "text":
            return Decision(action={"text": ""})
        return Decision(action={f["name"]: "cooperate" for f in legal["fields"]})


@pytest.fixture
def cooperator():
    register_scripted("three-player-ipd", "cooperator", "always cooperates")(
        lambda seed: Cooperator())
    yield "scripted:cooperator"
    SCRIPTED["three-player-ipd"].pop("cooperator")


def test_sim_counts_the_ipd_middle_place_as_a_draw(cooperator, capsys):
    """always-defect 34 points, tit-for-tat 19, the cooperator 15: rewards +1, 0, -1 under the
    rank rule, so W/D/L rows 1/0/0, 0/1/0 and 0/0/1 (the middle place is no loss)."""
    assert main(["sim", "three-player-ipd", "--seat", "scripted:always-defect", "--seat",
                 "scripted:tit-for-tat", "--seat", cooperator, "--games", "2", "--seed", "1",
                 "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    table = lines[lines.index(next(x for x in lines if x.startswith("bot "))) + 1:][:3]
    rows = {line.split()[0]: line.split()[1:6] for line in table}
    assert rows["scripted:always-defect"] == ["2", "2", "0", "0", "1.000"]
    assert rows["scripted:tit-for-tat"] == ["2", "0", "2", "0", "0.000"]
    assert rows["scripted:cooperator"] == ["2", "0", "0", "2", "-1.000"]


@pytest.mark.parametrize("args,needle", [
    (["sim", "chess", "--seat", "random"], "valid environments: amongagents, codenames, colonel-blotto"),
    (["sim", "colonel-blotto", "--seat", "random"], "needs 2 --seat"),
    (["sim", "colonel-blotto", "--seat", "random", "--seat", "alphago"], "valid bots: random"),
    (["sim", "colonel-blotto", "--seat", "random", "--seat", "random", "--config", "units=0"],
     "units must be"),
    (["sim", "colonel-blotto", "--seat", "random", "--seat", "random", "--preset", "huge"],
     "valid presets: paper"),
    (["sim", "colonel-blotto", "--seat", "human", "--seat", "random"], "bots only"),
])
def test_sim_rejects_bad_input_with_exit_2(args, needle, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert needle in capsys.readouterr().err


class BrokenBot(Bot):
    async def decide(self, view, legal, memory):
        raise BotError("provider answered 503 five times")


@pytest.fixture
def broken_bot():
    register_scripted("colonel-blotto", "broken", "always fails")(lambda seed: BrokenBot())
    yield "scripted:broken"
    SCRIPTED["colonel-blotto"].pop("broken")


async def test_a_failing_bot_voids_the_game_by_default(server, broken_bot):
    ada = await Client.connect(server.url, "ada")
    await ada.request("create_table", env="colonel-blotto", seats=["human", broken_bot],
                      join_seat=0)
    over = await ada.wait_for("game_over")
    assert over["result"]["void"] and "503" in over["result"]["reason"]
    assert over["statuses"] == {"0": "finished", "1": "provider_error"}
    await ada.close()


async def test_a_failing_bot_gets_the_default_move_and_the_game_goes_on(server, broken_bot):
    ada = await Client.connect(server.url, "ada")
    await ada.request("create_table", env="colonel-blotto", preset="small",
                      seats=["human", broken_bot], join_seat=0, on_bot_failure="default")
    while True:
        msg = await ada.recv()
        if msg["type"] == "your_turn":
            await ada.send("act", table_id=msg["table_id"], turn=msg["turn"], action="[A10 B10]")
        elif msg["type"] == "game_over":
            break
    assert not msg["result"]["void"]
    assert msg["metrics"]["seats"]["1"]["defaulted_moves"] >= 3  # one per round played
    with sqlite3.connect(server.db_path) as conn:
        rows = list(conn.execute("SELECT outcome, error, raw FROM actions WHERE seat = 1"))
        failures = conn.execute("SELECT count(*) FROM bot_failures").fetchone()[0]
        defaulted = conn.execute("SELECT count(*) FROM events WHERE type = 'move_defaulted'"
                                 ).fetchone()[0]
    assert rows and all(o == "defaulted" and e.startswith("provider_error: scripted:broken")
                        and json.loads(r) == {"A": 7, "B": 7, "C": 6} for o, e, r in rows)
    assert failures == len(rows) == defaulted
    await ada.close()


async def test_the_lobby_forgets_old_finished_tables_but_the_store_keeps_them(tmp_path):
    from server.net.app import MAX_FINISHED_TABLES, Server
    from server.store.store import Store

    server = Server(str(tmp_path / "p.db"))
    server.store = await Store.open(server.db_path)
    try:
        for k in range(MAX_FINISHED_TABLES + 5):
            table = server.create_table("colonel-blotto", "small", {}, ["random", "random"], k)
            await table.start()
            await table.done.wait()
        assert len(server.tables) <= MAX_FINISHED_TABLES + 1
        games = await server.store.fetch("SELECT count(*) n FROM games")
        assert games[0]["n"] == MAX_FINISHED_TABLES + 5
    finally:
        await server.store.close()
