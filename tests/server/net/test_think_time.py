"""A person's think time per decision (actions.latency_ms, the server's clock) counts from the
turn that asked for that decision, in simultaneous rounds and after a refused move too: never
from an earlier turn, and never less than the time the person sat on it. The server runs in
this process, so the test's loop clock is the server's clock: every bound below is causal (a
turn is issued after the move that led to it reached the server, and a move is applied before
the turn that follows it goes out), none is a speed figure."""

from __future__ import annotations

import asyncio

from tests.server.conftest import Client
from tests.server.net.test_play import rows

THINK = 0.3  # seconds a person sits on a decision
GOOD, BAD = "[A7 B7 C6]", "[A99 B0 C0]"


async def _play(client: Client, think: dict[int, float], bad: set[int],
                log: dict[int, tuple[float, float]]) -> None:
    """Answer the k-th your_turn after think[k] seconds (a refused move if k is in `bad`);
    log[k] = (when the answer was sent, when the next turn or game_over came)."""
    loop = asyncio.get_running_loop()
    turns, sent = 0, 0.0
    while True:
        msg = await client.recv()
        if msg["type"] not in ("your_turn", "game_over"):
            continue
        if turns:
            log[turns] = (sent, loop.time())
        if msg["type"] == "game_over":
            return
        turns += 1
        await asyncio.sleep(think.get(turns, 0))
        sent = loop.time()
        await client.send("act", table_id=msg["table_id"], turn=msg["turn"],
                          action=BAD if turns in bad else GOOD)


async def test_think_time_counts_from_each_turn(server):
    ada = await Client.connect(server.url, "ada")
    bob = await Client.connect(server.url, "bob")
    table = await ada.request("create_table", env="colonel-blotto", preset="small",
                              seats=["human", "human"], seed=2, join_seat=0)
    ada_log: dict[int, tuple[float, float]] = {}
    bob_log: dict[int, tuple[float, float]] = {}
    await bob.request("join", table_id=table["table"]["id"])
    # Round 1: ada answers at once, bob thinks. Round 2: bob at once; ada thinks, her move is
    # refused, and she answers the retry (her third turn) at once.
    await asyncio.gather(_play(ada, {2: THINK}, {2}, ada_log),
                         _play(bob, {1: THINK}, set(), bob_log))
    for c in (ada, bob):
        await c.close()
    ada_moves, bob_moves = ([a for a in rows(server.db_path, "SELECT outcome, latency_ms FROM "
                                             "actions WHERE seat = ? ORDER BY idx", seat)]
                            for seat in (0, 1))
    assert [a["outcome"] for a in ada_moves[:3]] == ["ok", "invalid", "ok"]
    assert all(a["latency_ms"] is not None and a["latency_ms"] >= 0
               for a in ada_moves + bob_moves)
    assert bob_moves[0]["latency_ms"] >= THINK * 1000  # bob sat on round 1
    assert ada_moves[1]["latency_ms"] >= THINK * 1000  # ada sat on round 2
    # Round 2's turn was issued after bob's round-1 answer reached the server: ada's time
    # counts from then, not from round 1's turn (which would add bob's THINK).
    assert ada_moves[1]["latency_ms"] <= (ada_log[2][1] - bob_log[1][0]) * 1000
    # The retry is a turn of its own, issued after the refused move reached the server.
    assert ada_moves[2]["latency_ms"] <= (ada_log[3][1] - ada_log[2][0]) * 1000
    # bob answered round 2 at once, on a turn issued no earlier than his round-1 answer.
    assert bob_moves[1]["latency_ms"] <= (bob_log[2][1] - bob_log[1][0]) * 1000
