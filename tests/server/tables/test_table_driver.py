"""The table driver with bots: retries after invalid moves, bot time limits, the `wait` policy,
ratings from concurrent games, the embedded server's clean stop, and sim's env metrics."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.sync.client import connect

from bots.base import Bot, BotError, Decision
from bots.registry import SCRIPTED, register_scripted
from server.cli import main
from server.net.app import Server
from server.net.embedded import start_embedded
from server.wire import protocol as p
from tests.server.conftest import figures
from tests.server.net.test_play import rows


@pytest.fixture
def scripted():
    """Register throwaway scripted bots for Blotto; removed after the test."""
    names: list[str] = []

    def add(name: str, factory) -> str:
        register_scripted("colonel-blotto", name, "test bot")(factory)
        names.append(name)
        return f"scripted:{name}"

    yield add
    for name in names:
        SCRIPTED["colonel-blotto"].pop(name)


class Garbler(Bot):
    """Answers with prose first, then a valid allocation, so the env asks it to retry."""

    async def decide(self, view, legal, memory):
        memory["calls"] = memory.get("calls", 0) + 1
        return Decision("I refuse to allocate." if memory["calls"] % 2 else "[A10 B5 C5]")


class Sleeper(Bot):
    async def decide(self, view, legal, memory):
        await asyncio.sleep(30)
        return Decision("[A20]")


class FailsOnce(Bot):
    async def decide(self, view, legal, memory):
        if not memory.get("failed"):
            memory["failed"] = True
            raise BotError("provider hiccup")
        return Decision("[A7 B7 C6]")


async def play(server, specs, seed=0, preset="small", on_bot_failure=None):
    """An all-bot game through the server's own table driver; returns the game_over message."""
    table = server.create_table("colonel-blotto", preset, {}, specs, seed, on_bot_failure)
    await table.start()
    await asyncio.wait_for(table.done.wait(), 20)
    return table.game_over_message


async def test_a_bot_asked_to_retry_after_an_invalid_move_is_asked_again(server, scripted):
    over = await play(server, ["random", scripted("garbler", lambda seed: Garbler())])
    assert not over["result"]["void"]
    outcomes = [a["outcome"] for a in rows(server.db_path, "SELECT outcome FROM actions "
                                                            "WHERE seat = 1 ORDER BY idx")]
    assert outcomes[:2] == ["invalid", "ok"]


async def test_a_bot_over_its_time_limit_voids_the_game(make_server, scripted):
    server = await make_server(bot_timeout=0.2)
    over = await play(server, ["random", scripted("sleeper", lambda seed: Sleeper())])
    assert over["result"]["void"] and over["statuses"]["1"] == "provider_error"
    assert over["rating_changes"] == {}
    failure = rows(server.db_path, "SELECT * FROM bot_failures")[0]
    assert failure["seat"] == 1 and "Timeout" in failure["error"]


async def test_the_wait_policy_retries_a_failed_decision(make_server, scripted):
    server = await make_server(bot_retry_delay=0.01)
    over = await play(server, ["random", scripted("fails_once", lambda seed: FailsOnce())],
                      on_bot_failure="wait")
    assert not over["result"]["void"] and over["statuses"]["1"] == "finished"
    failures = rows(server.db_path, "SELECT policy, error FROM bot_failures")
    assert failures == [{"policy": "wait", "error": "scripted:fails_once failed: BotError: "
                                                    "provider hiccup"}]


async def test_a_bot_answering_with_a_non_action_voids_the_game(server, scripted):
    class Confused(Bot):
        async def decide(self, view, legal, memory):
            return Decision(action=42)

    over = await play(server, ["random", scripted("confused", lambda seed: Confused())])
    assert over["result"]["void"] and over["statuses"]["1"] == "provider_error"


async def test_a_crash_while_driving_a_bot_voids_the_game_instead_of_stalling(server,
                                                                              monkeypatch):
    table = server.create_table("colonel-blotto", "small", {}, ["random", "random"], 0)
    await table.start()  # bot tasks are created but have not run yet

    def broken_view(game, seat):
        raise RuntimeError("view exploded")

    monkeypatch.setattr(type(table.game), "view", broken_view)  # games have slots
    await asyncio.wait_for(table.done.wait(), 10)
    assert table.game.result.void and "view exploded" in table.game.result.reason
    assert rows(server.db_path, "SELECT status FROM games") == [{"status": "void"}]


async def test_concurrent_games_never_rate_from_a_stale_prior(server):
    await asyncio.gather(*(play(server, ["random", "scripted:adaptive"], seed=k)
                           for k in range(6)))
    for identity in ("random", "scripted:adaptive"):
        history = rows(server.db_path, "SELECT mu_before, mu_after FROM rating_history "
                                       "WHERE identity = ? ORDER BY rowid", identity)
        assert len(history) == 6 and history[0]["mu_before"] is None
        # Each game starts from the rating the previous one left.
        assert all(b["mu_before"] == a["mu_after"] for a, b in
                   zip(history, history[1:], strict=False))
        stored = rows(server.db_path, "SELECT mu, games FROM ratings WHERE identity = ?",
                      identity)[0]
        assert stored == {"mu": history[-1]["mu_after"], "games": 6}


def test_stopping_the_embedded_server_voids_a_running_game_and_flushes(tmp_path):
    db = tmp_path / "local.db"
    server = start_embedded(str(db), turn_timeout=30)
    try:
        with connect(server.url) as ws:
            def send(type, **body):
                ws.send(json.dumps(p.request(type, **body)))

            def wait_for(type):
                while (msg := json.loads(ws.recv(10)))["type"] != type:
                    pass
                return msg

            send("hello", name="ada")
            wait_for("welcome")
            send("create_table", env="colonel-blotto", seats=["human", "random"], join_seat=0)
            turn = wait_for("your_turn")
            send("act", table_id=turn["table_id"], turn=turn["turn"], action="[A20]")
            wait_for("your_turn")  # round 2 was asked for, so round 1 is stored
    finally:
        server.stop()
    game = rows(db, "SELECT status, reason FROM games")[0]
    assert game == {"status": "void", "reason": "server shut down"}
    assert rows(db, "SELECT raw FROM actions WHERE seat = 0") == [{"raw": "[A20]"}]


def test_sim_prints_the_envs_own_aggregate_metrics(capsys):
    assert main(["sim", "colonel-blotto", "--seat", "scripted:adaptive", "--seat", "random",
                 "--games", "2", "--preset", "small"]) == 0
    out = capsys.readouterr().out
    assert "Colonel Blotto metrics (the env's own aggregate):" in out
    assert figures(out, "Games counted (not void)") == ["2"]
    assert figures(out, "Void (aborted, not counted)") == ["0"]


async def test_a_server_stopped_while_a_game_starts_leaves_it_void_not_running(tmp_path):
    server = Server(str(tmp_path / "p.db"))
    await server.start("127.0.0.1", 0)
    table = server.create_table("colonel-blotto", None, {}, ["random", "random"], 1)
    starting = asyncio.create_task(table.start())
    await asyncio.sleep(0)  # the start waits for its game row
    starting.cancel()  # ctrl-c cancels it mid-start
    await server.stop()
    (game,) = rows(str(tmp_path / "p.db"), "SELECT status, reason FROM games")
    assert game == {"status": "void", "reason": "server shut down"}
