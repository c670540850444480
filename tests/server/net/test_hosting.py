"""A host's controls (issue 10): invite-only names, the admin token (close tables, remove seats),
games between people on one address left unrated, spectators bounded. Real servers on
127.0.0.1, real websockets, the real SQLite file."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.net.limits import UNLIMITED, Limits
from server.store import accounts
from server.store.store import Store
from tests.server.conftest import Client
from tests.server.net.test_play import play_until_over, rows


def make_invites(db: str, count: int = 1) -> list[str]:
    conn = Store._connect(db)
    try:
        return accounts.create_invites(conn, count, "test")
    finally:
        conn.close()


def make_admin_token(db: str) -> str:
    conn = Store._connect(db)
    try:
        return accounts.new_admin_token(conn)
    finally:
        conn.close()


async def hello(url: str, name: str, **body) -> tuple[Client, dict]:
    client = await Client.connect(url)
    return client, await client.request("hello", name=name, **body)


# -- invites -------------------------------------------------------------------------------
async def test_an_invite_only_server_admits_a_new_name_once_per_code(make_server):
    server = await make_server(invite_only=True)
    first, second = make_invites(server.db_path, 2)  # made beside the running server

    zoe, refused = await hello(server.url, "zoe")
    assert refused["code"] == "invite_required"
    assert "invite-only" in refused["message"] and "invite code from the host" in refused["message"]
    _, wrong = await hello(server.url, "zoe", invite="aaaa-bbbb-cccc")
    assert wrong["code"] == "bad_invite"

    # Typed by hand: any case, spaces for dashes.
    _, welcome = await hello(server.url, "zoe", invite=first.upper().replace("-", " "))
    assert welcome["type"] == "welcome" and welcome["player"]["name"] == "zoe"
    _, spent = await hello(server.url, "yan", invite=first)
    assert spent["code"] == "bad_invite" and "already been used" in spent["message"]

    # zoe comes back with her token and no invite; her name is not for anyone else.
    _, back = await hello(server.url, "zoe", token=welcome["player"]["token"])
    assert back["type"] == "welcome"
    _, taken = await hello(server.url, "Zoe", invite=second)
    assert taken["code"] == "name_taken"
    _, yan = await hello(server.url, "yan", invite=second)  # a refused hello spends nothing
    assert yan["type"] == "welcome"

    conn = sqlite3.connect(server.db_path)
    used = conn.execute("SELECT used_by FROM invites ORDER BY used_by").fetchall()
    assert used == [("human:yan",), ("human:zoe",)]
    assert not conn.execute("SELECT count(*) FROM invites WHERE code_hash = ? OR code_hash = ?",
                            (first, second)).fetchone()[0]  # only hashes are kept
    conn.close()
    await zoe.close()


async def test_an_open_server_ignores_invites(make_server):
    server = await make_server()
    _, welcome = await hello(server.url, "ada", invite="whatever")
    assert welcome["type"] == "welcome"


# -- the admin token -----------------------------------------------------------------------
async def admin(url: str, token: str, action: str, **body) -> dict:
    """An admin request on a fresh connection, without hello (as `parlor admin` sends it)."""
    client = await Client.connect(url)
    try:
        return await client.request("admin", token=token, action=action, **body)
    finally:
        await client.close()


async def test_a_wrong_admin_token_is_refused_and_repeated_guesses_close_the_connection(
        make_server):
    server = await make_server()
    assert (await admin(server.url, "no-token-made-yet", "tables"))["code"] == "forbidden"
    make_admin_token(server.db_path)
    guesser = await Client.connect(server.url)
    for _ in range(3):
        reply = await guesser.request("admin", token="guess", action="tables")
        assert reply["code"] == "forbidden"
    with pytest.raises(ConnectionClosed):
        await guesser.recv(timeout=5)
    # A new token replaces the old one at once, on the running server.
    old = make_admin_token(server.db_path)
    new = make_admin_token(server.db_path)
    assert (await admin(server.url, old, "tables"))["code"] == "forbidden"
    assert (await admin(server.url, new, "tables"))["type"] == "admin"


async def test_the_host_lists_and_closes_a_waiting_table(make_server):
    server = await make_server()
    token = make_admin_token(server.db_path)
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="colonel-blotto",
                               seats=["human", "human"], join_seat=0))["table"]
    listed = await admin(server.url, token, "tables")
    assert [t["id"] for t in listed["tables"]] == [table["id"]]
    assert listed["tables"][0]["seats"][0]["player"] == "ada"

    done = await admin(server.url, token, "close_table", table_id=table["id"], reason="tidy up")
    assert done["type"] == "admin" and "closed" in done["done"]
    told = await ada.wait_for("table")
    while told["table"]["status"] == "waiting":  # the broadcasts of her own joining
        told = await ada.wait_for("table")
    assert told["table"]["status"] == "closed"
    assert told["table"]["closed"] == "closed by the host: tidy up"
    unknown = await admin(server.url, token, "close_table", table_id="t999")
    assert unknown["code"] == "unknown_table"


async def test_the_host_closes_a_game_under_way_as_void(make_server):
    server = await make_server()
    token = make_admin_token(server.db_path)
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="colonel-blotto", seats=["human", "random"],
                               join_seat=0))["table"]
    turn = await ada.wait_for("your_turn")
    await ada.send("act", table_id=table["id"], turn=turn["turn"], action="[A7 B7 C6]")
    await admin(server.url, token, "close_table", table_id=table["id"], reason="abuse")
    over = await ada.wait_for("game_over")
    assert over["result"]["void"] and over["result"]["reason"].endswith("closed by the host: "
                                                                         "abuse")
    assert over["rating_changes"] == {}
    assert rows(server.db_path, "SELECT status FROM games") == [{"status": "void"}]
    again = await admin(server.url, token, "close_table", table_id=table["id"])
    assert again["code"] == "game_over"


async def ada_waits_for_bob(make_server) -> tuple[Any, str, Client, Client, dict]:
    """A server with an admin token; ada waits at a two-person Blotto table, bob is in the
    lobby. Returns (server, token, ada, bob, table)."""
    server = await make_server()
    token = make_admin_token(server.db_path)
    ada = await Client.connect(server.url, "ada")
    bob = await Client.connect(server.url, "bob")
    table = (await ada.request("create_table", env="colonel-blotto",
                               seats=["human", "human"], join_seat=0))["table"]
    return server, token, ada, bob, table


async def test_the_host_removes_a_person_from_a_waiting_table_for_good(make_server):
    server, token, ada, bob, table = await ada_waits_for_bob(make_server)
    for bad_seat in ({}, {"seat": 1}, {"seat": 7}):  # no seat, an empty seat, no such seat
        assert (await admin(server.url, token, "kick", table_id=table["id"],
                            **bad_seat))["code"] == "bad_seat"
    done = await admin(server.url, token, "kick", table_id=table["id"], seat=0,
                       reason="rude name")
    assert done["done"] == f"ada left seat 0 of table {table['id']}"
    removed = await ada.wait_for("table", your_seat=None)
    assert removed["removed"] == "removed by the host: rude name"
    assert removed["table"]["seats"][0]["player"] is None
    refused = await ada.request("join", table_id=table["id"])
    assert refused["code"] == "forbidden"
    assert (await bob.request("join", table_id=table["id"], seat=0))["your_seat"] == 0


async def test_removing_a_person_from_a_game_under_way_forfeits_their_seat(make_server):
    server, token, ada, bob, table = await ada_waits_for_bob(make_server)
    await bob.request("join", table_id=table["id"])
    for client in (ada, bob):
        turn = await client.wait_for("your_turn")
        await client.send("act", table_id=table["id"], turn=turn["turn"],
                             action="[A7 B7 C6]")
    await admin(server.url, token, "kick", table_id=table["id"], seat=1)
    over = await ada.wait_for("game_over")
    assert over["result"]["winners"] == [0] and over["statuses"]["1"] == "removed"
    assert "removed by the host" in over["result"]["reason"]
    assert set(over["rating_changes"]) == {"0", "1"}  # a forfeit is rated, like leaving
    assert (await bob.wait_for("game_over"))["outcomes"]["1"] == "loss"


# -- people on one address -----------------------------------------------------------------
async def two_people_play(url: str, bob_from: str) -> dict:
    """ada (from 127.0.0.1) and bob (from `bob_from`) play one small Blotto game."""
    ada = await Client.connect(url, "ada")
    bob = Client(await connect(url, local_addr=(bob_from, 0)))
    await bob.request("hello", name="bob")
    table = (await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "human"], join_seat=0))["table"]
    await bob.request("join", table_id=table["id"])
    overs = await asyncio.gather(play_until_over(ada, lambda m: "[A20]"),
                                 play_until_over(bob, lambda m: "[B20]"))
    return overs[0]


async def test_games_between_people_on_one_address_are_unrated_when_the_host_says_so(
        make_server):
    server = await make_server(unrated_same_address=True)
    over = await two_people_play(server.url, "127.0.0.1")
    assert over["rating_changes"] == {}
    assert over["unrated"] == "not rated: ada and bob connected from the same address"
    assert rows(server.db_path, "SELECT count(*) n FROM ratings")[0]["n"] == 0
    metrics = rows(server.db_path, "SELECT json_extract(metrics, '$.unrated') u FROM games")
    assert metrics == [{"u": over["unrated"]}]


async def test_people_on_different_addresses_are_rated(tmp_path):
    from server.net.app import Server

    server = Server(str(tmp_path / "p.db"), limits=UNLIMITED, unrated_same_address=True)
    await server.start("0.0.0.0", 0)  # reachable from 127.0.0.2 too
    try:
        over = await two_people_play(f"ws://127.0.0.1:{server.port}", "127.0.0.2")
        assert over["unrated"] is None and set(over["rating_changes"]) == {"0", "1"}
    finally:
        await server.stop()


async def test_by_default_one_address_is_no_reason_to_skip_ratings(make_server):
    server = await make_server()
    over = await two_people_play(server.url, "127.0.0.1")
    assert over["unrated"] is None and set(over["rating_changes"]) == {"0", "1"}


# -- spectators ----------------------------------------------------------------------------
async def test_spectators_are_bounded_per_table_and_per_connection(make_server):
    limits = Limits(**{**UNLIMITED.__dict__, "spectators_per_table": 2,
                       "spectating_per_connection": 2})
    server = await make_server(limits=limits)
    ada = await Client.connect(server.url, "ada")
    tables = [(await ada.request("create_table", env="colonel-blotto",
                                 seats=["human", "human"]))["table"]["id"] for _ in range(3)]
    watchers = [await Client.connect(server.url, name) for name in ("w1", "w2", "w3")]
    for w in watchers[:2]:
        assert (await w.request("spectate", table_id=tables[0]))["type"] == "table"
    full = await watchers[2].request("spectate", table_id=tables[0])
    assert full["code"] == "limit" and "2 spectators" in full["message"]
    again = await watchers[0].request("spectate", table_id=tables[0])  # already watching
    assert again["type"] == "table"
    assert (await watchers[0].request("spectate", table_id=tables[1]))["type"] == "table"
    busy = await watchers[0].request("spectate", table_id=tables[2])
    assert busy["code"] == "limit" and "watching 2 tables" in busy["message"]
    await watchers[0].request("leave", table_id=tables[1])
    assert (await watchers[0].request("spectate", table_id=tables[2]))["type"] == "table"
