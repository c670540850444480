"""Store migrations on real files, and TrueSkill updates."""

import asyncio
import sqlite3

import pytest

from engine.core import Result
from server.store import ratings
from server.store.migrations import MIGRATIONS
from server.store.store import Store


async def test_a_fresh_file_gets_the_schema_and_reopens(tmp_path):
    path = tmp_path / "deep" / "dir" / "p.db"
    store = await Store.open(path)
    pid = await store.player_id("ada", "human", "human:ada")
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == len(MIGRATIONS)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables >= {"players", "games", "seats", "actions", "events", "ratings",
                      "rating_history", "texts"}
    again = await Store.open(path)
    assert await again.player_id("ada", "human", "human:ada") == pid
    await again.close()


async def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "p.db"
    await (await Store.open(path)).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(RuntimeError, match="newer"):
        await Store.open(path)


async def test_a_failed_write_rolls_back_and_the_writer_goes_on(tmp_path):
    store = await Store.open(tmp_path / "p.db")

    def bad(conn):
        conn.execute("INSERT INTO players (name, kind, identity, created) "
                           "VALUES ('x', 'human', 'human:x', 0)")
        raise ValueError("boom")

    with pytest.raises(ValueError):
        await store.write(bad)
    assert await store.fetch("SELECT * FROM players") == []
    await store.player_id("y", "human", "human:y")
    assert len(await store.fetch("SELECT * FROM players")) == 1
    await store.close()


def test_winner_gains_and_loser_drops():
    changes = ratings.rate("trueskill", Result({0: 1.0, 1: -1.0}, (0,), "won"), ["a", "b"], {})
    (before0, after0), (_, after1) = changes["a"], changes["b"]
    assert before0 is None and after0[0] > ratings.MU > after1[0]
    assert after0[1] < ratings.SIGMA


def test_draw_keeps_equal_players_equal_and_ranks_three():
    changes = ratings.rate("trueskill", Result({0: 0.0, 1: 0.0}, (), "draw"), ["a", "b"], {})
    assert changes["a"][1][0] == pytest.approx(changes["b"][1][0])
    three = ratings.rate("trueskill", Result({0: 1.0, 1: 0.0, 2: -1.0}, (0,), "r"),
                         ["a", "b", "c"], {})
    assert three["a"][1][0] > three["b"][1][0] > three["c"][1][0]


def test_existing_ratings_are_the_prior_and_void_or_self_play_is_not_rated():
    prior = {"a": (30.0, 2.0), "b": (20.0, 2.0)}
    changes = ratings.rate("trueskill", Result({0: -1.0, 1: 1.0}, (1,), "upset"), ["a", "b"],
                           prior)
    assert changes["a"][0] == (30.0, 2.0) and changes["a"][1][0] < 30.0
    void = Result({0: 0.0, 1: 0.0}, (), "x", void=True)
    assert ratings.rate("trueskill", void, ["a", "b"], {}) == {}
    assert ratings.rate("trueskill", Result({0: 1.0, 1: -1.0}, (0,), "x"), ["a", "a"], {}) == {}


async def test_an_older_schema_is_migrated_in_place(tmp_path):
    path = tmp_path / "p.db"
    with sqlite3.connect(path) as conn:  # a database written by schema v1
        conn.executescript(MIGRATIONS[0])
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO schema_version VALUES (1)")
        conn.execute("INSERT INTO games (id, table_id, env, rules_version, config, seed, started)"
                     " VALUES (1, 't1', 'colonel-blotto', '1', '{}', 0, 0)")
        conn.execute("INSERT INTO actions (game_id, idx, seat, step, raw, outcome, created) "
                     "VALUES (1, 0, 0, 0, '[A20]', 'ok', 0)")
    store = await Store.open(path)
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == len(MIGRATIONS)
        assert conn.execute("SELECT count(*) FROM bot_failures").fetchone()[0] == 0
        assert conn.execute("SELECT raw, structured FROM actions").fetchone() == ("[A20]", 0)


def test_stored_games_are_found_and_replay_to_the_same_events(tmp_path):
    from engine.registry import get
    from server.cli import main

    db = tmp_path / "p.db"
    for env_id, seats in (("colonel-blotto", ["scripted:adaptive", "random"]),
                          ("three-player-ipd", ["random", "scripted:tit-for-tat", "random"])):
        args = ["sim", env_id, "--games", "2", "--seed", "11", "--db", str(db)]
        assert main(args + [x for s in seats for x in ("--seat", s)]) == 0

    async def check() -> None:
        store = await Store.open(db)
        try:
            listed = await store.games("colonel-blotto")
            assert [g["seed"] for g in listed] == [12, 11]  # newest first
            assert len(await store.games()) == 4
            ipd = (await store.games("three-player-ipd"))[0]
            game = await store.game(ipd["id"])
            assert game["status"] == "finished" and game["config"]["rounds"] >= 1
            assert [s["identity"] for s in game["seats"]] == ["random", "scripted:tit-for-tat",
                                                              "random"]
            assert await store.game(999) is None and await store.load_record(999) is None
            for g in await store.games():
                record = await store.load_record(g["id"])
                replayed = get(record.env).replay(record).record()
                assert [e.to_json() for e in replayed.events] == \
                    [e.to_json() for e in record.events]
                assert replayed.result == record.result
        finally:
            await store.close()

    asyncio.run(check())
