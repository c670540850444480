"""A name cannot be spoofed: spellings of a taken name, lookalikes of it and names hiding
invisible or direction-changing characters are refused, with a message saying why (issue 10)."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from server.net.app import Server
from tests.server.conftest import Client, schema_at
from tests.server.net.test_play import rows

ZWJ, RLO = "\u200d", "\u202e"


@pytest.fixture
async def alice(server):
    client = await Client.connect(server.url, "alice")
    yield client
    await client.close()


@pytest.mark.parametrize("spoof, code, says", [
    ("ALICE", "name_taken", "belongs to another player"),
    ("\u0430lice", "name_taken", "too close to an existing name ('alice')"),  # Cyrillic а
    ("a1ice", "name_taken", "too close to an existing name"),
    ("ａｌｉｃｅ", "name_taken", "belongs to another player"),  # fullwidth: NFKC makes it alice
    (f"alice{ZWJ}", "bad_name", "U+200D ZERO WIDTH JOINER"),
    (f"{RLO}ecila", "bad_name", "text-direction control (U+202E RIGHT-TO-LEFT OVERRIDE)"),
    (f"ali{ZWJ}cia", "bad_name", "invisible formatting character (U+200D"),
    ("bob\u0007", "bad_name", "control character"),
    ("bob\ue000", "bad_name", "private-use character"),
    ("bob\u3164", "bad_name", "invisible character"),
    ("...", "bad_name", "at least one letter or digit"),
])
async def test_spellings_lookalikes_and_hidden_characters_are_refused(server, alice, spoof,
                                                                      code, says):
    other = await Client.connect(server.url)
    refused = await other.request("hello", name=spoof)
    assert (refused["type"], refused["code"]) == ("error", code)
    assert says in refused["message"]
    assert (await other.request("hello", name="alicia"))["type"] == "welcome"  # still open
    await other.close()


async def test_distinct_names_are_still_free_and_kept_as_written(server, alice):
    for name, kept in [("José", "José"), ("Jose", "Jose"), ("Ada  Lovelace", "Ada Lovelace"),
                       ("ｃａｒｏｌ", "carol"), ("Ωmega", "Ωmega")]:
        client = await Client.connect(server.url, name)
        assert client.welcome["player"]["name"] == kept
        assert client.welcome["player"]["id"] == f"human:{kept}"
        await client.close()


async def test_a_token_vouches_for_its_name_in_any_spelling_and_only_for_it(server, alice):
    token = alice.welcome["player"]["token"]
    shouting = await Client.connect(server.url, "ALICE", token=token)
    assert shouting.welcome["player"] == {"id": "human:alice", "name": "alice", "token": token}
    # With a name that only looks like alice's, the token vouches for nothing: it is a new
    # claim, refused because the name is too close to alice.
    lookalike = await Client.connect(server.url)
    refused = await lookalike.request("hello", name="\u0430lice", token=token)
    assert refused["code"] == "name_taken"
    # With another name altogether it claims that name (two people on one machine).
    bob = await lookalike.request("hello", name="bob", token=token)
    assert bob["player"]["name"] == "bob" and bob["player"]["token"] != token
    for c in (shouting, lookalike):
        await c.close()


async def test_the_oldest_of_lookalike_players_keeps_the_name_when_the_store_upgrades(tmp_path):
    """A database from before this rule (schema v5) with alice, then a Cyrillic-а alice and
    ALICE, each with a token: the upgrade keeps alice (the oldest); the others can no longer
    say hello under those names, even with their tokens. Their games stay theirs."""
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        schema_at(conn, 5)
        for i, name in enumerate(["alice", "\u0430lice", "ALICE", "bob"]):
            conn.execute("INSERT INTO players (name, kind, identity, created, token_hash) "
                         "VALUES (?, 'human', ?, ?, ?)",
                         (name, f"human:{name}", 100 - i if name == "bob" else 10 + i,
                          hashlib.sha256(f"token-{i}".encode()).hexdigest()))
        conn.execute("INSERT INTO players (name, kind, identity, created) "
                     "VALUES ('random', 'bot', 'random', 1)")
    server = Server(str(db))
    await server.start("127.0.0.1", 0)
    try:
        looks = {r["identity"]: r["skeleton"] for r in rows(db, "SELECT identity, skeleton "
                                                                "FROM players")}
        assert looks == {"human:alice": "allce", "human:\u0430lice": None, "human:ALICE": None,
                         "human:bob": "bob", "random": None}
        for i, name in enumerate(["alice", "\u0430lice", "ALICE", "bob"]):
            client = await Client.connect(server.url)
            reply = await client.request("hello", name=name, token=f"token-{i}")
            if name in ("alice", "bob"):
                assert reply["player"] == {"id": f"human:{name}", "name": name,
                                           "token": f"token-{i}"}
            else:
                assert reply["code"] == "name_taken", reply
            await client.close()
        with pytest.raises(sqlite3.IntegrityError):  # one person per look, by the schema
            with sqlite3.connect(db) as conn:
                conn.execute("UPDATE players SET skeleton = 'allce' WHERE name = 'bob'")
    finally:
        await server.stop()


async def test_the_tui_says_why_a_name_is_refused(server):
    from tests.tui.helpers import wait_for_text
    from tui.app import ParlorApp

    app = ParlorApp(server.url, f"alice{ZWJ}", server_key="names-test")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "U+200D ZERO WIDTH JOINER")
        await wait_for_text(pilot, "--name NAME")
        assert app.screen.KIND == "connect"
