"""People's pseudonyms: stable per database and study, unlinkable across them, bots kept."""

import sqlite3

import pytest

from server.store.pseudonyms import PREFIX, PseudonymKeyMissing, Pseudonyms, pseudonym
from server.store.store import Store


async def _db(path):
    await (await Store.open(path)).close()
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


async def test_a_person_keeps_one_pseudonym_per_database_and_study(tmp_path):
    one = await _db(tmp_path / "one.db")
    two = await _db(tmp_path / "two.db")
    a = Pseudonyms(one)
    assert a.label("human:ada", "human") == Pseudonyms(one).label("human:ada", "human")
    assert a.label("human:ada", "human").startswith(PREFIX)
    assert a.label("human:ada", "human") != a.label("human:bob", "human")
    # Another study or another database cannot be joined on the id.
    assert Pseudonyms(one, "pilot").label("human:ada", "human") != a.label("human:ada", "human")
    assert Pseudonyms(two).label("human:ada", "human") != a.label("human:ada", "human")
    # The name is nowhere in it, and a guessed name cannot be tested without the key.
    assert "ada" not in a.label("human:ada", "human")
    assert pseudonym(b"\0" * 32, "human:ada") != a.label("human:ada", "human")


async def test_bots_keep_their_identity(tmp_path):
    conn = await _db(tmp_path / "p.db")
    assert Pseudonyms(conn).label("scripted:agent", "scripted") == "scripted:agent"
    assert Pseudonyms(conn).label("openai:gpt-4o", "llm") == "openai:gpt-4o"


def test_a_database_without_a_key_says_how_to_get_one(tmp_path):
    conn = sqlite3.connect(tmp_path / "old.db")
    conn.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    with pytest.raises(PseudonymKeyMissing, match="upgrade"):
        Pseudonyms(conn)
