"""The store after issue 8: records rebuilt from rows (no second copy), group commits, and a
database written by the schema before it (v4, with the record blob) migrating in place."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3

import pytest

from engine.registry import get
from engine.sampling import random_action
from server.store.migrations import MIGRATIONS
from server.store.store import Rows, Store, event_rows
from tests.server.conftest import schema_at


def play(env_id: str, players: int, seed: int, abort: str | None = None):
    env = get(env_id)
    game = env.new_game(env.config(None), seed, players)
    rng = random.Random(seed)
    while not game.over:
        if abort and game.step == 5:
            game.abort(abort)
            break
        seat = min(game.pending())
        game.act(seat, random_action(game.legal(seat), rng), meta={"latency_ms": 1.5})
    return game


def write_v4_database(path, games) -> None:
    """A file as the store of schema v4 wrote it: the record also kept whole in games.record."""
    with sqlite3.connect(path) as conn:
        schema_at(conn, 4)
        conn.execute("INSERT INTO players (id, name, kind, identity, created) "
                     "VALUES (1, 'random', 'bot', 'random', 0)")
        for game_id, game in enumerate(games, start=1):
            record = game.record()
            result = record.result
            conn.execute(
                "INSERT INTO games (id, table_id, env, rules_version, preset, config, seed, "
                "started, ended, status, reason, result, record) VALUES "
                "(?, 't', ?, ?, NULL, ?, ?, 0, 1, ?, ?, ?, ?)",
                (game_id, record.env, record.rules_version, json.dumps(record.config),
                 record.seed, "void" if result.void else "finished", result.reason,
                 json.dumps(result.to_json()), json.dumps(record.to_json())))
            for seat in range(record.players):
                conn.execute("INSERT INTO seats (game_id, seat, player_id, identity, kind) "
                             "VALUES (?, ?, 1, 'random', 'bot')", (game_id, seat))
            for idx, a in enumerate(record.actions):
                conn.execute(
                    "INSERT INTO actions (game_id, idx, seat, step, raw, structured, outcome, "
                    "error, category, fatal, latency_ms, created) VALUES "
                    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                    (game_id, idx, a.seat, a.step,
                     a.raw if isinstance(a.raw, str) else json.dumps(a.raw),
                     int(not isinstance(a.raw, str)), a.outcome, a.error, a.category,
                     int(a.fatal), a.meta.get("latency_ms")))
            metrics = get(record.env).game_metrics(record)
            conn.executemany("INSERT INTO metrics (game_id, seat, name, value) VALUES (?, ?, ?, ?)",
                             [(game_id, None, k, json.dumps(v)) for k, v in metrics["game"].items()]
                             + [(game_id, int(s), k, json.dumps(v))
                                for s, values in metrics["seats"].items()
                                for k, v in values.items()])
            conn.executemany(
                "INSERT INTO events (game_id, seq, step, type, data, visible_to, clock) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(game_id, e["seq"], e["step"], e["type"], json.dumps(e["data"]),
                  json.dumps(e["visible_to"]), json.dumps(e["clock"]) if e["clock"] else None)
                 for e in record.to_json()["events"]])


async def test_a_v4_database_migrates_and_every_game_loads_and_replays_as_before(tmp_path):
    path = tmp_path / "v4.db"
    games = [play("colonel-blotto", 2, 1), play("three-player-ipd", 3, 2),
             play("colonel-blotto", 2, 3, abort="alice disconnected")]
    write_v4_database(path, games)
    before = {i: json.loads(json.dumps(g.record().to_json())) for i, g in enumerate(games, 1)}
    with sqlite3.connect(path) as conn:
        metric_rows = sorted(conn.execute("SELECT game_id, coalesce(seat, -1), name, value "
                                          "FROM metrics"))

    store = await Store.open(path)
    try:
        for game_id, expected in before.items():
            record = await store.load_record(game_id)
            assert json.loads(json.dumps(record.to_json())) == expected
            replayed = get(record.env).replay(record).record()
            assert [e.to_json() for e in replayed.events] == \
                [e.to_json() for e in record.events]
            assert replayed.result == record.result
        assert (await store.load_record(3)).aborted == "alice disconnected"
        for game_id, game in enumerate(games, start=1):  # metrics kept whole, per game
            stored = (await store.game(game_id))["metrics"]
            assert stored == json.loads(json.dumps(get(game.env.id).game_metrics(game.record())))
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        columns = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
        assert "record" not in columns and {"setup", "aborted"} <= columns
        assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == len(MIGRATIONS)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # The view gives old queries the rows they read before (a name and value per metric).
        viewed = sorted(conn.execute("SELECT game_id, coalesce(seat, -1), name, value FROM "
                                     "metrics"))
        assert len(viewed) == len(metric_rows)
        rewards = {(g, s): v for g, s, n, v in viewed if n == "reward"}
        assert rewards == {(g, s): json.loads(v) for g, s, n, v in metric_rows if n == "reward"}
        assert {(g, s, n) for g, s, n, _ in viewed} == {(g, s, n) for g, s, n, _ in metric_rows}


async def test_a_record_written_now_is_rebuilt_exactly_from_its_rows(tmp_path):
    store = await Store.open(tmp_path / "p.db")
    try:
        for env_id, players in (("colonel-blotto", 2), ("three-player-ipd", 3)):
            game = play(env_id, players, 7)
            record = game.record()
            game_id = await store.create_game(
                table_id="t", env=env_id, rules_version=record.rules_version, preset=None,
                config=record.config, seed=record.seed,
                seats=[{"identity": "random", "name": "random", "kind": "bot"}] * players)
            rows = Rows(events=[])
            for idx, action in enumerate(record.actions):
                rows.extend(store.action_rows(game_id, idx, action, ()))
            rows.events = event_rows(game_id, record.events)
            await store.finish_game(game_id, record=record, statuses={}, metrics={},
                                    unwritten=rows)
            loaded = await store.load_record(game_id)
            assert json.loads(json.dumps(loaded.to_json())) == \
                json.loads(json.dumps(record.to_json()))
    finally:
        await store.close()


async def test_writes_made_together_share_one_commit_and_a_failing_one_rolls_back_alone(
        tmp_path):
    store = await Store.open(tmp_path / "p.db")
    try:
        commits = store.commits

        def bad(conn):
            conn.execute("INSERT INTO players (name, kind, identity, created) "
                         "VALUES ('x', 'human', 'human:x', 0)")
            raise ValueError("boom")

        results = await asyncio.gather(
            *(store.player_id(f"p{i}", "bot", f"bot:{i}") for i in range(20)),
            store.write(bad), return_exceptions=True)
        assert store.commits == commits + 1  # twenty-one jobs, one transaction
        assert isinstance(results[-1], ValueError)
        assert len(set(results[:-1])) == 20
        names = {r["name"] for r in await store.fetch("SELECT name FROM players")}
        assert names == {f"p{i}" for i in range(20)}  # the failed job left nothing
        assert store.jobs >= 21
    finally:
        await store.close()


async def test_moves_queued_together_are_inserted_together_and_one_that_fails_fails_alone(
        tmp_path):
    """Many tables' moves in one group commit go in as one insert; when one of them cannot be
    stored (here: an event whose seq is taken), only its caller hears of it."""
    store = await Store.open(tmp_path / "p.db")
    try:
        game = play("colonel-blotto", 2, 3)
        game_id = await store.create_game(
            table_id="t", env="colonel-blotto", rules_version="1", preset=None,
            config={}, seed=3, seats=[{"identity": "random", "kind": "bot", "name": "r"}] * 2)
        events = game.events
        commits = store.commits
        parts = [Rows(events=event_rows(game_id, events[i:i + 1])) for i in range(6)]
        parts[3] = Rows(events=event_rows(game_id, events[1:2]))  # seq 1 again
        results = await asyncio.gather(*(store.write_rows(r) for r in parts),
                                       return_exceptions=True)
        assert store.commits == commits + 1
        assert [isinstance(r, sqlite3.IntegrityError) for r in results] == \
            [False, False, False, True, False, False]
        stored = [r["seq"] for r in await store.fetch("SELECT seq FROM events ORDER BY seq")]
        assert stored == [0, 1, 2, 4, 5]
    finally:
        await store.close()


async def test_a_table_number_is_committed_with_the_writes_queued_before_it(tmp_path):
    """A table's number is on disk before it is given out, in the commit of the moves other
    tables queued meanwhile (no transaction of its own); numbers count on per instance."""
    store = await Store.open(tmp_path / "p.db")
    try:
        commits = store.commits
        queued = [asyncio.ensure_future(store.player_id(f"p{i}", "bot", f"bot:{i}"))
                  for i in range(3)]
        await asyncio.sleep(0)  # they queue their writes (the commit comes a turn later)
        assert store.next_table_number("") == 1
        assert store.commits == commits + 1  # the number and the three queued jobs
        with sqlite3.connect(tmp_path / "p.db") as other:  # on disk, seen by anyone
            assert other.execute("SELECT last FROM table_numbers WHERE instance = ''"
                                 ).fetchone() == (1,)
            assert other.execute("SELECT count(*) FROM players").fetchone() == (3,)
        assert len(set(await asyncio.gather(*queued))) == 3
        assert [store.next_table_number(""), store.next_table_number("w2"),
                store.next_table_number("")] == [2, 1, 3]
        assert store.commits == commits + 4
    finally:
        await store.close()


async def test_a_commit_that_fails_fails_every_caller_and_the_store_goes_on(tmp_path):
    store = await Store.open(tmp_path / "p.db")
    other = sqlite3.connect(tmp_path / "p.db", timeout=0)
    try:
        store._conn.execute("PRAGMA busy_timeout=50")
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await asyncio.gather(store.player_id("a", "bot", "bot:a"),
                                 store.player_id("b", "bot", "bot:b"))
        other.rollback()
        assert await store.player_id("c", "bot", "bot:c") >= 1
        assert [r["name"] for r in await store.fetch("SELECT name FROM players")] == ["c"]
    finally:
        other.close()
        await store.close()


def test_processes_opening_one_new_file_at_once_migrate_it_once(tmp_path):
    """Servers sharing a database may start together: each reads the schema version inside
    its own write transaction."""
    import subprocess
    import sys

    db = tmp_path / "shared.db"
    code = ("import asyncio, sys\nfrom server.store.store import Store\n"
            "async def main():\n    s = await Store.open(sys.argv[1])\n    await s.close()\n"
            "asyncio.run(main())\n")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(db)], stderr=subprocess.PIPE,
                              text=True) for _ in range(4)]
    errors = [p.communicate(timeout=60)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, errors
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == \
            [(len(MIGRATIONS),)]


async def test_the_log_stays_bounded_under_a_steady_writer(tmp_path, monkeypatch):
    """A writer that never pauses must not grow the WAL without end (passive checkpoints alone
    never find it idle)."""
    from server.store import store as store_module

    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 0.01)
    monkeypatch.setattr(store_module, "WAL_LIMIT", 512 * 1024)
    monkeypatch.setattr(store_module, "CHECK_LOG_EVERY", 8)
    store = await Store.open(tmp_path / "p.db")
    wal = tmp_path / "p.db-wal"
    sizes = []
    try:
        blob = "x" * 3000
        for n in range(3000):  # ~9 MB of rows, each commit right after the last
            await store.player_id(f"{n}{blob}", "bot", f"bot:{n}")
            if n % 100 == 99:
                sizes.append(wal.stat().st_size)
    finally:
        await store.close()
    # Unbounded, the log reaches ~50 MB here; bounded it is cut back each time it passes the
    # limit (a checkpoint under way may delay that by a few commits).
    assert any(later < earlier for earlier, later in zip(sizes, sizes[1:], strict=False)), sizes
    assert max(sizes) < 12_000_000, sizes
