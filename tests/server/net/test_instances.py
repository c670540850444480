"""Several servers sharing one database (the documented way to use more than one core): each
names its tables, rates from the shared ratings inside its own write, and on restart recovers
only the games it started."""

from __future__ import annotations

import asyncio

from server.net.app import Server
from tests.server.conftest import Client
from tests.server.net.test_play import play_until_over, rows


async def start(db, instance: str) -> Server:
    server = Server(str(db), instance=instance, turn_timeout=30, client_seeds=True)
    await server.start("127.0.0.1", 0)
    return server


async def test_two_servers_share_one_database_and_its_ratings(tmp_path):
    db = tmp_path / "shared.db"
    one, two = await start(db, "w1"), await start(db, "w2")
    try:
        async def play(server: Server, name: str, seed: int):
            client = await Client.connect(server.url, name)
            reply = await client.request("create_table", env="colonel-blotto", preset="small",
                                         seats=["human", "random"], seed=seed, join_seat=0)
            over = await play_until_over(client)
            await client.close()
            return reply["table"]["id"], over

        games = await asyncio.gather(*(play(server, f"p{i}", i)
                                       for i, server in enumerate([one, two] * 3)))
        assert {table_id.split(".")[0] for table_id, _ in games} == {"w1", "w2"}
        assert all(not over["result"]["void"] for _, over in games)
        stored = rows(db, "SELECT instance, status FROM games")
        assert sorted(r["instance"] for r in stored) == ["w1"] * 3 + ["w2"] * 3
        # Every game rated the shared `random` identity from the stored prior: none was lost.
        (bot,) = rows(db, "SELECT games FROM ratings WHERE identity = 'random'")
        assert bot["games"] == 6
    finally:
        await one.stop()
        await two.stop()


async def test_a_restarted_server_voids_only_its_own_interrupted_games(tmp_path):
    db = tmp_path / "shared.db"
    one, two = await start(db, "w1"), await start(db, "w2")
    ada = await Client.connect(one.url, "ada")
    bob = await Client.connect(two.url, "bob")
    turns = []
    for client in (ada, bob):
        await client.request("create_table", env="colonel-blotto", seats=["human", "random"],
                             seed=1, join_seat=0)
        turns.append(await client.wait_for("your_turn"))
    # w1 dies without a word (its games stay 'running' in the file) and comes back.
    one._server.close()
    await one.store.close()
    again = await start(db, "w1")
    try:
        by_instance = {r["instance"]: r for r in rows(db, "SELECT instance, status, reason "
                                                         "FROM games")}
        assert by_instance["w1"]["status"] == "void"
        assert "interrupted" in by_instance["w1"]["reason"]
        assert by_instance["w2"]["status"] == "running"  # w2's game goes on, untouched
        turn = turns[1]
        await bob.send("act", table_id=turn["table_id"], turn=turn["turn"], action="[A20]")
        over = await play_until_over(bob)
        assert not over["result"]["void"]
    finally:
        await ada.close()
        await bob.close()
        await again.stop()
        await two.stop()
