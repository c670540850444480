"""Races and leaks at a table, over real websockets (issue 10): one turn answered twice at once,
what an opponent and a spectator can learn of a retried invalid answer, and scripted bots that
take too long to decide."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from bots.base import Bot, Decision
from bots.registry import SCRIPTED, register_scripted
from tests.server.conftest import Client
from tests.server.net.test_play import rows

TRIES = 20
EVEN = "[A7 B7 C6]"  # what scripted:uniform plays: every round a tie, so all rounds are played


async def until_reply(client: Client, ref: int) -> list[dict[str, Any]]:
    """The messages `client` receives up to the reply to its request `ref` (included)."""
    got = []
    while True:
        msg = await client.recv()
        got.append(msg)
        if msg.get("ref") == ref:
            return got


async def test_one_turn_answered_from_two_connections_at_once_is_applied_once(server):
    first = await Client.connect(server.url, "ada")
    second = await Client.connect(server.url, "ada", token=first.welcome["player"]["token"])
    both = (first, second)
    table = (await first.request("create_table", env="colonel-blotto", seed=3, join_seat=0,
                                 config={"rounds": TRIES + 1, "win_rounds": TRIES + 1},
                                 seats=["human", "scripted:uniform"]))["table"]
    next_turn: dict[Client, dict[str, Any] | None] = {first: None, second: None}
    for attempt in range(TRIES):
        turns = [next_turn[c] or await c.wait_for("your_turn") for c in both]
        turn = turns[0]["turn"]
        assert turns[1]["turn"] == turn  # one person, one turn, on both connections
        acts = await asyncio.gather(*(
            c.send("act", table_id=table["id"], turn=turn, action=EVEN) for c in both))
        refused = []
        for client, ref in zip(both, acts, strict=True):
            # A connection's requests are answered in order: once the reply to a later
            # request is in, the act's outcome (an error, or nothing: applied) is known.
            got = await until_reply(client, await client.send("list_tables"))
            errors = [m for m in got if m["type"] == "error"]
            assert all(e["ref"] == ref for e in errors), errors
            refused += errors
            next_turn[client] = next((m for m in got if m["type"] == "your_turn"
                                      and m["turn"] > turn), None)
        assert [e["code"] for e in refused] == ["stale_turn"], f"try {attempt}: {refused}"
    last = next_turn[first] or await first.wait_for("your_turn")  # the last round, once
    await first.send("act", table_id=table["id"], turn=last["turn"], action=EVEN)
    await first.wait_for("game_over")
    answered = rows(server.db_path, "SELECT turn, count(*) n FROM actions WHERE seat = 0 "
                                    "GROUP BY turn ORDER BY turn")
    assert [r["n"] for r in answered] == [1] * (TRIES + 1)
    rounds = rows(server.db_path, "SELECT count(*) n FROM events WHERE type = 'round_resolved'")
    assert rounds[0]["n"] == TRIES + 1
    for client in both:
        await client.close()


# -- a retried invalid answer ----------------------------------------------------------------
ROUND_1 = ("[A10 B5 C5]", "[A5 B10 C5]")  # (alpha, beta)
ROUND_2 = ("[A9 B9 C2]", "[A8 B8 C4]")
INVALID = ("[A99]", "no allocation here")  # a units error, then a format error


async def act(client: Client, seat: int, table_id: str, action: str) -> None:
    """Answer the client's turn; return once its own copy of the outcome is in (the event of
    its allocation, or of its invalid answer)."""
    turn = await client.wait_for("your_turn")
    await client.send("act", table_id=table_id, turn=turn["turn"], action=action)
    while True:
        msg = await client.wait_for("event")
        if any(e["type"] in ("allocation_submitted", "invalid_move") and e["data"]["seat"] == seat
               for e in msg["events"]):
            return


async def watched_game(clients: tuple[Client, Client, Client], invalid: bool
                       ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Alpha and beta (people) play two rounds while a third person watches; with `invalid`,
    alpha's first answer in each round is invalid and retried. Returns what beta and the
    spectator received during the game (to its game_over, then a `history` of it)."""
    alpha, beta, eve = clients
    start = {c: len(c.received) for c in clients}
    table = (await alpha.request("create_table", env="colonel-blotto", seed=11, join_seat=0,
                                 config={"rounds": 2}, seats=["human", "human"]))["table"]
    tid = table["id"]
    await eve.request("spectate", table_id=tid)
    await beta.request("join", table_id=tid)
    if invalid:
        await act(alpha, 0, tid, INVALID[0])
    await act(alpha, 0, tid, ROUND_1[0])
    await act(beta, 1, tid, ROUND_1[1])
    await act(beta, 1, tid, ROUND_2[1])
    if invalid:
        await act(alpha, 0, tid, INVALID[1])
    await act(alpha, 0, tid, ROUND_2[0])
    for client in clients:
        await client.wait_for("game_over")
    for client in (beta, eve):
        await client.request("history", table_id=tid)
    return beta.received[start[beta]:], eve.received[start[eve]:]


def told(received: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a client was told of the game, without what differs between any two tables (ids,
    wall-clock deadlines) and game_over (its metrics count the invalid answers: after the
    game, that is no secret)."""
    return [{k: v for k, v in msg.items() if k not in ("table_id", "deadline", "ref")}
            for msg in received if msg["type"] in ("event", "your_turn", "history")]


async def test_a_retried_invalid_answer_leaves_no_trace_for_the_opponent_or_spectators(server):
    clients = (await Client.connect(server.url, "ada"), await Client.connect(server.url, "bob"),
               await Client.connect(server.url, "eve"))
    beta, eve = await watched_game(clients, invalid=True)
    clean_beta, clean_eve = await watched_game(clients, invalid=False)
    assert told(beta) == told(clean_beta)
    assert told(eve) == told(clean_eve)
    # Nobody is sent an empty event message; each numbers its events from 0, one by one, and
    # the history reads the same numbers.
    for received in (beta, eve):
        events = [m for m in received if m["type"] == "event"]
        assert events and all(m["events"] for m in events)
        shown = [e for m in events for e in m["events"]]
        assert not any(e["type"] == "invalid_move" for e in shown)
        assert [e["seq"] for e in shown] == list(range(len(shown)))
        history = next(m for m in received if m["type"] == "history")
        assert history["events"] == shown
    # The game itself keeps everything: both invalid answers are stored.
    stored = rows(server.db_path, "SELECT count(*) n FROM actions WHERE outcome = 'invalid'")
    assert stored[0]["n"] == 2
    for client in clients:
        await client.close()


# -- scripted bots that take long ------------------------------------------------------------
@pytest.fixture
def scripted():
    """Register throwaway scripted Blotto bots; removed after the test."""
    names: list[str] = []

    def add(name: str, bot: Bot) -> str:
        register_scripted("colonel-blotto", name, "test bot")(lambda seed: bot)
        names.append(name)
        return f"scripted:{name}"

    yield add
    for name in names:
        SCRIPTED["colonel-blotto"].pop(name)


class Blocking(Bot):
    """A bot that never awaits whose decisions, after the first, block its thread until the
    test lets them go: were it deciding on the loop's thread, nothing could let it go."""

    identity = "scripted:blocking"
    never_awaits = True

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.threads: list[bool] = []  # per decision: on the loop's (main) thread?
        self.released: list[bool] = []

    async def decide(self, view, legal, memory):
        self.threads.append(threading.current_thread() is threading.main_thread())
        if len(self.threads) > 1:
            self.started.set()
            self.released.append(self.release.wait(10))
        return Decision(EVEN)


async def test_a_slow_scripted_bot_decides_in_a_thread_while_the_loop_goes_on(make_server,
                                                                              scripted):
    # Every decision counts as slow here: the first one (on the loop) moves the seat's later
    # decisions to a worker thread.
    server = await make_server(offload_after=0)
    bot = Blocking()
    table = server.create_table("colonel-blotto", "small", {},
                                [scripted("blocking", bot), "scripted:uniform"], 4, None)
    await table.start()
    await asyncio.to_thread(bot.started.wait, 10)  # the loop runs this while the bot decides
    bot.release.set()
    await asyncio.wait_for(table.done.wait(), 20)
    assert bot.threads[0] is True and not any(bot.threads[1:])
    assert bot.released and all(bot.released)
    assert not table.game_over_message["result"]["void"]


async def test_quick_scripted_bots_decide_on_the_loop(make_server, scripted):
    server = await make_server(offload_after=60)  # every decision here is "quick"
    bot = Blocking()
    bot.release.set()
    table = server.create_table("colonel-blotto", "small", {},
                                [scripted("quick", bot), "scripted:adaptive"], 5, None)
    await table.start()
    await asyncio.wait_for(table.done.wait(), 20)
    assert len(bot.threads) >= 3 and all(bot.threads)  # no thread hop for a quick decision
