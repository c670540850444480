"""What one client may ask of a server open to strangers (issue 10, "Unbounded growth"): a real
server on 127.0.0.1, real websockets, each limit refusing with its code or closing what will never
be useful."""

from __future__ import annotations

import asyncio
import base64
import os
import sqlite3
import time

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.net.app import Server
from server.net.limits import CLOSE_POLICY, CLOSE_TRY_LATER, DAY, Limits, address_key
from server.wire import protocol as p
from tests.server.conftest import Client
from tests.server.net.test_play import play_until_over, rows

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


# -- identities (issue 21, "Limits that do not hold") -------------------------------------------
async def _from(url: str, address: str, name: str | None = None) -> Client:
    """A client connecting from another loopback address (another machine, to the server)."""
    client = Client(await connect(url, local_addr=(address, 0)))
    if name is not None:
        client.welcome = await client.request("hello", name=name)
    return client


async def test_one_connection_cannot_collect_tables_under_new_names(make_server):
    """The attack: hello as a new name before each create_table. One identity per connection
    stops it; strangers can still make tables; leaving closes every table it opened."""
    server = await make_server(limits=Limits(tables_per_player=2, tables_total=12,
                                             tables_per_address=5))
    flood = await Client.connect(server.url, "n0")
    made, codes = 0, []
    for i in range(12):
        hello = await flood.request("hello", name=f"n{i}")
        codes.append(hello["type"] if hello["type"] != "error" else hello["code"])
        made += (await flood.request("create_table", **BLOTTO))["type"] == "table"
    assert made == 2 and codes == ["welcome"] + [p.NAME_FIXED] * 11
    refused = await flood.request("hello", name="bo")
    assert "open a new connection" in refused["message"]
    again = await flood.request("hello", name="N0")  # the same name again is fine (resume)
    assert again["type"] == "welcome" and again["player"]["name"] == "n0"
    stranger = await _from(server.url, "127.0.0.2", "stranger")
    assert (await stranger.request("create_table", **BLOTTO))["type"] == "table"
    await flood.close()
    for _ in range(50):
        if len(server.tables) == 1:
            break
        await asyncio.sleep(0.05)
    assert [t.id for t in server.tables.values()] == [t["id"] for t in (
        await stranger.request("list_tables"))["tables"]] and len(server.tables) == 1
    await stranger.close()


async def test_open_tables_are_limited_per_address_whatever_the_names(make_server):
    server = await make_server(limits=Limits(tables_per_player=2, tables_per_address=5))
    clients = [await Client.connect(server.url, f"p{i}") for i in range(4)]
    replies = [await c.request("create_table", **BLOTTO) for c in clients for _ in range(2)]
    assert [r["type"] for r in replies].count("table") == 5
    refused = [r for r in replies if r["type"] == "error"]
    assert {r["code"] for r in refused} == {p.LIMIT}
    assert "from your address" in refused[0]["message"]
    stranger = await _from(server.url, "127.0.0.2", "stranger")
    assert (await stranger.request("create_table", **BLOTTO))["type"] == "table"
    await clients[0].close()  # its two tables close: the address may open more
    for _ in range(50):
        if len(server.tables) == 4:
            break
        await asyncio.sleep(0.05)
    assert (await clients[3].request("create_table", **BLOTTO))["type"] == "table"
    for c in [*clients[1:], stranger]:
        await c.close()


async def test_new_names_are_capped_per_address_per_hour(make_server):
    server = await make_server(limits=Limits(names_per_address_per_hour=5))
    now = [1000.0]
    server._new_names.clock = lambda: now[0]
    claimed = []
    for i in range(8):
        client = await Client.connect(server.url)
        claimed.append(await client.request("hello", name=f"grab{i}"))
        await client.close()
    assert [r["type"] for r in claimed] == ["welcome"] * 5 + ["error"] * 3
    assert claimed[5]["code"] == p.LIMIT and "try again in about 60 min" in claimed[5]["message"]
    assert len(rows(server.db_path, "SELECT * FROM players WHERE name GLOB 'grab*'")) == 5
    # A name with its token is no new name; another address has its own share.
    back = await Client.connect(server.url, "grab0", token=claimed[0]["player"]["token"])
    assert back.welcome["type"] == "welcome"
    stranger = await _from(server.url, "127.0.0.2", "stranger")
    assert stranger.welcome["type"] == "welcome"
    now[0] += 3600  # an hour later the address may claim again
    later = await Client.connect(server.url, "grab5")
    assert later.welcome["type"] == "welcome"
    for c in (back, stranger, later):
        await c.close()


def _long_ago(db: str) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE players SET last_hello = 1, created = 1")


async def test_names_never_used_for_a_game_are_forgotten(tmp_path):
    """Across a restart: a name that only said hello long ago is free again; a name that
    played keeps its owner (and its rating)."""
    db = str(tmp_path / "p.db")
    first = Server(db, limits=Limits(unused_name_expiry=7 * DAY))
    await first.start("127.0.0.1", 0)
    ada = await Client.connect(first.url, "ada")
    await ada.request("create_table", env="colonel-blotto", preset="small",
                      seats=["human", "random"], join_seat=0)
    await play_until_over(ada, lambda m: "[A20]")
    ghost = await Client.connect(first.url, "ghost")
    recent = await Client.connect(first.url, "recent")
    for c in (ada, ghost, recent):
        await c.close()
    await first.stop()
    _long_ago(db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE players SET last_hello = ? WHERE name = 'recent'", (time.time(),))

    second = Server(db, limits=Limits(unused_name_expiry=7 * DAY))
    await second.start("127.0.0.1", 0)  # forgets at start, then hourly
    try:
        taker = await Client.connect(second.url, "ghost")
        assert taker.welcome["type"] == "welcome"
        assert taker.welcome["player"]["token"] != ghost.welcome["player"]["token"]
        for name in ("ada", "recent"):
            squatter = await Client.connect(second.url)
            assert (await squatter.request("hello", name=name))["code"] == p.NAME_TAKEN
            await squatter.close()
        owner = await Client.connect(second.url, "ada", token=ada.welcome["player"]["token"])
        assert owner.welcome["type"] == "welcome"
        assert rows(db, "SELECT count(*) AS n FROM ratings WHERE identity = 'human:ada'")[0]["n"]
        for c in (taker, owner):
            await c.close()
    finally:
        await second.stop()


async def test_a_name_forgotten_by_another_process_is_not_resumed_with_its_old_token(tmp_path):
    """Two servers share one database (--workers): one forgets a name the other still knows by
    its token; the other must not hand the name to the old token once someone else took it."""
    db = str(tmp_path / "p.db")
    a = Server(db, instance="a", limits=Limits(unused_name_expiry=7 * DAY))
    b = Server(db, instance="b", limits=Limits(unused_name_expiry=7 * DAY))
    await a.start("127.0.0.1", 0)
    await b.start("127.0.0.1", 0)
    try:
        ghost = await Client.connect(a.url, "ghost")
        token = ghost.welcome["player"]["token"]
        await ghost.close()
        _long_ago(db)
        assert await b.forget_unused_names() == ["human:ghost"]
        taker = await Client.connect(b.url, "ghost")
        assert taker.welcome["type"] == "welcome"
        old = await Client.connect(a.url)
        assert (await old.request("hello", name="ghost", token=token))["code"] == p.NAME_TAKEN
        for c in (taker, old):
            await c.close()
    finally:
        await a.stop()
        await b.stop()


async def test_a_connected_name_is_not_forgotten(make_server):
    server = await make_server(limits=Limits(unused_name_expiry=7 * DAY))
    here = await Client.connect(server.url, "here")
    gone = await Client.connect(server.url, "gone")
    await gone.close()
    await asyncio.sleep(0.1)
    _long_ago(server.db_path)
    assert await server.forget_unused_names() == ["human:gone"]
    again = await Client.connect(server.url, "here", token=here.welcome["player"]["token"])
    assert again.welcome["player"]["token"] == here.welcome["player"]["token"]
    for c in (here, again):
        await c.close()


def test_an_ipv6_client_is_counted_by_its_network():
    """One host commonly holds a whole IPv6 /64: the address limits count the network."""
    assert address_key("2001:db8:1:2::5") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::5") != address_key("2001:db8:1:3::5")
    assert address_key("::ffff:192.0.2.7") == address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("?") == "?"
