"""A person's name is theirs: claimed with a token at first hello, kept across restarts, so human
ratings cannot be played under someone else's name."""

from __future__ import annotations

import hashlib

from server.net.app import Server
from tests.server.conftest import Client
from tests.server.net.test_play import rows


async def test_a_claimed_name_needs_its_token_even_after_a_restart(tmp_path):
    db = str(tmp_path / "p.db")
    first = Server(db)
    await first.start("127.0.0.1", 0)
    ada = await Client.connect(first.url, "ada")
    token = ada.welcome["player"]["token"]
    assert ada.welcome["player"]["id"] == "human:ada"
    bob = await Client.connect(first.url)
    refused = await bob.request("hello", name="ada")
    assert refused["type"] == "error" and refused["code"] == "name_taken"
    assert (await bob.request("hello", name="bob"))["type"] == "welcome"  # still connected
    for c in (ada, bob):
        await c.close()
    await first.stop()

    stored = rows(db, "SELECT token_hash FROM players WHERE identity = 'human:ada'")[0]
    assert stored["token_hash"] == hashlib.sha256(token.encode()).hexdigest() != token

    second = Server(db)
    await second.start("127.0.0.1", 0)
    try:
        back = await Client.connect(second.url, "ada", token=token)
        assert back.welcome["player"] == {"id": "human:ada", "name": "ada", "token": token}
        # A token vouches only for its own name: with another name it is a new person (two
        # people on one machine may offer each other's token).
        other = await Client.connect(second.url, "whatever", token=token)
        assert other.welcome["player"]["name"] == "whatever"
        assert other.welcome["player"]["token"] != token
        await other.close()
        squatter = await Client.connect(second.url)
        assert (await squatter.request("hello", name="ada"))["code"] == "name_taken"
        wrong = await squatter.request("hello", name="ada", token="not-the-token")
        assert wrong["code"] == "name_taken"
        for c in (back, squatter):
            await c.close()
    finally:
        await second.stop()
