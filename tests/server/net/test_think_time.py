"""A person's think time per decision (actions.latency_ms, the server's clock) counts from the
turn that asked for that decision, in simultaneous rounds too: never from an earlier turn, and
never less than the time the person sat on it. The server runs in this process, so the test's
loop clock is the server's clock: every bound below is causal, none is a speed figure."""

from __future__ import annotations

import asyncio

from tests.server.conftest import Client
from tests.server.net.test_play import rows

THINK = 0.3  # seconds a person sits on a decision


async def _play(client: Client, think: dict[int, float], log: dict[int, tuple[float, float]]
                ) -> None:
    """Answer each your_turn after think[round] seconds; log[round] = (when the answer was
    sent, when the next turn or game_over came: after the server had applied the answer)."""
    loop = asyncio.get_running_loop()
    rounds, sent = 0, 0.0
    while True:
        msg = await client.recv()
        if msg["type"] not in ("your_turn", "game_over"):
            continue
        if rounds:
            log[rounds] = (sent, loop.time())
        if msg["type"] == "game_over":
            return
        rounds += 1
        await asyncio.sleep(think.get(rounds, 0))
        sent = loop.time()
        await client.send("act", table_id=msg["table_id"], turn=msg["turn"],
                          action="[A7 B7 C6]")


async def test_think_time_counts_from_each_simultaneous_turn(server):
    ada = await Client.connect(server.url, "ada")
    bob = await Client.connect(server.url, "bob")
    table = await ada.request("create_table", env="colonel-blotto", preset="small",
                              seats=["human", "human"], seed=2, join_seat=0)
    ada_log: dict[int, tuple[float, float]] = {}
    bob_log: dict[int, tuple[float, float]] = {}
    await bob.request("join", table_id=table["table"]["id"])
    # Round 1: ada answers at once, bob thinks; round 2 the other way round.
    await asyncio.gather(_play(ada, {2: THINK}, ada_log), _play(bob, {1: THINK}, bob_log))
    for c in (ada, bob):
        await c.close()
    think = {(a["seat"], n): a["latency_ms"] for seat in (0, 1) for n, a in enumerate(
        rows(server.db_path, "SELECT seat, latency_ms FROM actions WHERE seat = ? ORDER BY idx",
             seat), 1)}
    assert all(v is not None and v >= 0 for v in think.values())
    assert think[1, 1] >= THINK * 1000  # bob sat on round 1
    assert think[0, 2] >= THINK * 1000  # ada sat on round 2
    # Round 2's turn was issued after bob's round-1 answer reached the server: ada's round-2
    # time counts from then, not from round 1's turn (which would add bob's THINK).
    assert think[0, 2] <= (ada_log[2][1] - bob_log[1][0]) * 1000
    # bob answered round 2 at once, after a turn issued no earlier than his round-1 answer.
    assert think[1, 2] <= (bob_log[2][1] - bob_log[1][0]) * 1000
