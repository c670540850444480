"""`parlor forget NAME`: the name, token, words and form answers gone from the whole file; the
games still replay to their stored events for the others, and ratings keep their numbers."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine.registry import get
from server.cli import main
from server.store.store import Store
from server.store.study import parse_study
from tests.server.conftest import Client
from tests.server.net.test_play import rows

STUDY = """+++
name = "pilot"
[[form]]
id = "about"
label = "About you"
type = "text"
max_chars = 80
+++
Consent text.
"""


def _decision(seat: int) -> str:
    return " ".join(f"[{o} cooperate]" for o in range(3) if o != seat)


async def _play(client: Client, chat: str) -> None:
    while True:
        msg = await client.recv()
        if msg["type"] == "your_turn":
            text = msg["legal"]["kind"] == "text"
            await client.send("act", table_id=msg["table_id"], turn=msg["turn"],
                              action=chat if text else _decision(msg["seat"]))
        elif msg["type"] == "game_over":
            return


def _file_text(db: str) -> bytes:
    return b"".join(p.read_bytes().lower() for p in Path(db).parent.glob(Path(db).name + "*"))


async def test_forget_removes_the_person_and_keeps_the_game_for_the_others(make_server, capsys):
    study = parse_study(STUDY)
    server = await make_server(study=study)
    zelda = await Client.connect(server.url, "Zelda9")
    bob = await Client.connect(server.url, "bob")
    await zelda.request("consent", consent_hash=study.consent_hash, agree=True,
                        answers={"about": "zelda9 from Lisbon"})
    await bob.request("consent", consent_hash=study.consent_hash, agree=True)
    bob_token = bob.welcome["player"]["token"]
    table = await zelda.request("create_table", env="three-player-ipd",
                                seats=["human", "human", "random"], seed=3, join_seat=0)
    await bob.request("join", table_id=table["table"]["id"])
    await asyncio.gather(_play(zelda, "I am Zelda9, I live at 12 Rua Augusta"),
                         _play(bob, "hello zelda9, cooperate with me"))
    for c in (zelda, bob):
        await c.close()
    await server.stop()
    db = server.db_path
    ratings_before = rows(db, "SELECT env, scheme, mu, sigma, games FROM ratings ORDER BY mu")
    assert b"zelda9" in _file_text(db) and b"rua augusta" in _file_text(db)

    assert await asyncio.to_thread(main, ["forget", "nobody-here", "--db", db, "--yes"]) == 2
    assert "no person called 'nobody-here'" in capsys.readouterr().err
    assert await asyncio.to_thread(main, ["forget", "Zelda9", "--db", db, "--yes"]) == 0
    out = capsys.readouterr().out
    assert "still appears" not in out and "no longer replay" not in out and "kept" not in out

    text = _file_text(db)
    assert b"zelda9" not in text and b"rua augusta" not in text and b"lisbon" not in text
    marker = rows(db, "SELECT name, token_hash FROM players WHERE kind = 'human' AND "
                      "name LIKE 'forgotten-%'")
    assert len(marker) == 1 and marker[0]["token_hash"] == "forgotten"
    identity = f"human:{marker[0]['name']}"
    seats = rows(db, "SELECT identity FROM seats ORDER BY seat")
    assert [s["identity"] for s in seats] == [identity, "human:bob", "random"]
    assert rows(db, "SELECT env, scheme, mu, sigma, games FROM ratings ORDER BY mu") == \
        ratings_before
    assert {r["identity"] for r in rows(db, "SELECT identity FROM rating_history")} == \
        {identity, "human:bob", "random"}
    consent = rows(db, "SELECT identity, consent_hash, answers FROM consents "
                       "WHERE identity = ?", identity)
    assert consent == [{"identity": identity, "consent_hash": study.consent_hash,
                        "answers": None}]
    chats = rows(db, "SELECT json_extract(data, '$.seat') seat, data FROM events "
                     "WHERE type = 'chat' ORDER BY seq")
    assert chats and all('"[removed]"' in c["data"] for c in chats if c["seat"] == 0)
    assert any('hello [removed], cooperate with me' in c["data"] for c in chats)

    # The game replays from its stored actions to exactly its stored events and result.
    store = await Store.open(db)
    try:
        record = await store.load_record(1)
        game = get(record.env).replay(record)
        assert game.events == record.events
        assert game.result.rewards == record.result.rewards
    finally:
        await store.close()

    # bob still plays and sees his board; the marker cannot be taken over.
    again = await make_server(study=study)
    bob = await Client.connect(again.url, "bob", token=bob_token)
    board = await bob.request("leaderboard", env="three-player-ipd")
    assert identity in {r["identity"] for r in board["rows"]}
    squatter = await Client.connect(again.url)
    taken = await squatter.request("hello", name=marker[0]["name"])
    assert taken["code"] == "name_taken"
    fresh = await squatter.request("hello", name="Zelda9")  # the name is free again
    assert fresh["type"] == "welcome" and fresh["study"]["status"] == "unanswered"
    for c in (bob, squatter):
        await c.close()


async def test_forget_asks_first_and_changes_nothing_unless_told_yes(tmp_path, monkeypatch,
                                                                      capsys):
    db = str(tmp_path / "p.db")
    store = await Store.open(db)
    await store.claim_name("ada", None, "token-of-ada")
    await store.close()
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    assert await asyncio.to_thread(main, ["forget", "ada", "--db", db]) == 1
    assert "Nothing changed" in capsys.readouterr().out
    assert rows(db, "SELECT name FROM players") == [{"name": "ada"}]
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    assert await asyncio.to_thread(main, ["forget", "ADA", "--db", db]) == 0  # as names match
    assert [r["name"][:12] for r in rows(db, "SELECT name FROM players")] == ["forgotten-p-"]
