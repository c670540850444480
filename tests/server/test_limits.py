"""What one client may ask of a server open to strangers (issue 10, "Unbounded growth"): a real
server on 127.0.0.1, real websockets, each limit refusing with its code or closing what will never
be useful."""

from __future__ import annotations

import asyncio
import base64
import os

from websockets.exceptions import ConnectionClosed

from server import protocol as p
from server.limits import CLOSE_POLICY, CLOSE_TRY_LATER, Limits
from tests.server.conftest import Client

BLOTTO = {"env": "colonel-blotto", "seats": ["human", "random"]}


async def _closed(client: Client, timeout: float = 5) -> int | None:
    """Read until the server closes the connection; its close code."""
    try:
        while True:
            await client.recv(timeout)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


async def test_a_flood_is_slowed_then_cut_off(make_server):
    server = await make_server(limits=Limits(messages_per_second=5, burst=10, drop_after=50))
    ann = await Client.connect(server.url, "ann")
    for _ in range(40):
        await ann.send("list_tables")
    codes = []
    while len(codes) < 40:
        msg = await ann.recv()
        codes.append(msg["type"] if msg["type"] != "error" else msg["code"])
    assert codes.count("tables") >= 9 and p.RATE_LIMITED in codes  # the burst (hello took one)
    await asyncio.sleep(0.5)  # slowing down is enough to be heard again
    assert (await ann.request("list_tables"))["type"] == "tables"
    for _ in range(200):  # a client that never slows down is closed
        await ann.send("list_tables")
    assert await _closed(ann) == CLOSE_POLICY


async def test_one_address_holds_a_bounded_number_of_connections(make_server):
    server = await make_server(limits=Limits(connections_per_address=3))
    kept = [await Client.connect(server.url, f"p{i}") for i in range(3)]
    extra = await Client.connect(server.url)
    assert await _closed(extra) == CLOSE_TRY_LATER
    await kept[0].close()
    await asyncio.sleep(0.2)
    again = await Client.connect(server.url, "again")  # a freed slot can be used
    assert again.welcome["type"] == "welcome"
    for c in [*kept[1:], again]:
        await c.close()


async def test_a_connection_that_never_says_hello_is_closed(make_server):
    server = await make_server(limits=Limits(hello_timeout=0.3))
    silent = await Client.connect(server.url)
    assert await _closed(silent) == CLOSE_POLICY


async def test_a_connection_that_never_answers_pings_is_closed(make_server):
    """A raw socket that upgrades to websocket, then never reads or answers a ping."""
    server = await make_server(limits=Limits(ping_interval=0.2, ping_timeout=0.2))
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
    assert b" 101 " in await reader.readline()
    for _ in range(80):  # the server's pings go unanswered: it lets go (well before 8 s)
        if not server._conns:
            break
        await asyncio.sleep(0.1)
    assert not server._conns
    writer.close()


async def test_open_tables_are_limited_per_player_and_in_all(make_server):
    server = await make_server(limits=Limits(tables_per_player=2, tables_total=3))
    ann = await Client.connect(server.url, "ann")
    for _ in range(2):
        assert (await ann.request("create_table", **BLOTTO))["type"] == "table"
    refused = await ann.request("create_table", **BLOTTO)
    assert refused["type"] == "error" and refused["code"] == p.LIMIT
    assert "open tables" in refused["message"]
    bo = await Client.connect(server.url, "bo")
    assert (await bo.request("create_table", **BLOTTO))["type"] == "table"
    full = await bo.request("create_table", **BLOTTO)
    assert full["code"] == p.LIMIT and "this server" in full["message"]
    assert len(server.tables) == 3
    for c in (ann, bo):
        await c.close()


async def test_the_table_list_comes_in_pages_and_filters(make_server):
    server = await make_server(limits=Limits(list_page=2, tables_per_player=10))
    ann = await Client.connect(server.url, "ann")
    ids = [(await ann.request("create_table", **BLOTTO))["table"]["id"] for _ in range(3)]
    ids.append((await ann.request("create_table", env="three-player-ipd",
                                  seats=["human", "random", "random"]))["table"]["id"])
    seen, after = [], None
    while True:
        page = await ann.request("list_tables", **({"after": after} if after else {}))
        assert len(page["tables"]) <= 2
        seen += [t["id"] for t in page["tables"]]
        after = page["next"]
        if after is None:
            break
    assert seen == ids
    ipd = await ann.request("list_tables", env="three-player-ipd")
    assert [t["id"] for t in ipd["tables"]] == ids[3:] and ipd["next"] is None
    none = await ann.request("list_tables", status="playing")
    assert none["tables"] == []
    await ann.close()


async def test_a_table_waiting_too_long_closes_and_its_players_are_told(make_server):
    server = await make_server(limits=Limits(waiting_expiry=0.4))
    ann = await Client.connect(server.url, "ann")
    made = await ann.request("create_table", env="colonel-blotto", seats=["human", "human"],
                             join_seat=0)
    closed = await ann.wait_for("table")
    while closed["table"]["status"] != "closed":
        closed = await ann.wait_for("table")
    assert closed["table"]["id"] == made["table"]["id"] and "nobody joined" in \
        closed["table"]["closed"]
    assert (await ann.request("list_tables"))["tables"] == []
    await ann.close()


async def test_tables_left_behind_by_a_vanished_creator_go(make_server):
    server = await make_server(limits=Limits(tables_per_player=10))
    ghost = await Client.connect(server.url, "ghost")
    for _ in range(5):
        await ghost.request("create_table", **BLOTTO)  # nobody sits down
    await ghost.close()
    watcher = await Client.connect(server.url, "watcher")
    for _ in range(50):
        if not (await watcher.request("list_tables"))["tables"]:
            break
        await asyncio.sleep(0.05)
    assert not server.tables
    await watcher.close()
