"""Lobby edge cases over real websockets: refused requests leave nothing behind, and a
connection cannot say hello as someone else (it keeps its first player and seat)."""

from __future__ import annotations

from tests.server.conftest import Client


async def test_a_refused_join_seat_leaves_no_table_behind(server):
    ada = await Client.connect(server.url, "ada")
    err = await ada.request("create_table", env="colonel-blotto", seats=["human", "random"],
                            join_seat=1)
    assert err["type"] == "error" and err["code"] == "bad_seat"
    err = await ada.request("create_table", env="colonel-blotto", seats=["human", "random"],
                            join_seat=7)
    assert err["code"] == "bad_seat"
    assert (await ada.request("list_tables"))["tables"] == []
    await ada.close()


async def test_a_second_hello_as_someone_else_is_refused_and_the_seat_kept(server):
    conn = await Client.connect(server.url, "ada")
    await conn.request("create_table", env="colonel-blotto", seats=["human", "human"],
                       join_seat=0)
    refused = await conn.request("hello", name="bob")
    assert (refused["type"], refused["code"]) == ("error", "name_fixed")
    seats = (await conn.request("list_tables"))["tables"][0]["seats"]
    assert [s["player"] for s in seats] == ["ada", None]
    await conn.close()
