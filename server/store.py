"""The SQLite store: every game, seat, action, event, metric and rating, via aiosqlite.

WAL mode with a busy timeout; all writes go through ONE writer task fed by a queue, each job in
its own transaction, and callers await the commit (so an action is on disk before anyone is told
about it). The schema is versioned: `MIGRATIONS[i]` brings version i to i + 1.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from engine.core import ActionRecord, Event, GameRecord

MIGRATIONS: list[str] = [
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, identity TEXT NOT NULL
        UNIQUE, created REAL NOT NULL);
    CREATE TABLE games (
        id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, env TEXT NOT NULL,
        rules_version TEXT NOT NULL, preset TEXT, config TEXT NOT NULL, seed INTEGER NOT NULL,
        started REAL NOT NULL, ended REAL, status TEXT NOT NULL DEFAULT 'running', reason TEXT,
        result TEXT, record TEXT);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id), identity TEXT NOT NULL,
        kind TEXT NOT NULL, settings TEXT NOT NULL DEFAULT '{}', status TEXT, reward REAL,
        PRIMARY KEY (game_id, seat));
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id), idx INTEGER NOT NULL,
        seat INTEGER NOT NULL, step INTEGER NOT NULL, turn INTEGER, raw TEXT NOT NULL,
        outcome TEXT NOT NULL, error TEXT, latency_ms REAL, usage TEXT, raw_output TEXT,
        transcript TEXT, created REAL NOT NULL, PRIMARY KEY (game_id, idx));
    CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
        step INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, visible_to TEXT NOT NULL,
        PRIMARY KEY (game_id, seq));
    CREATE TABLE metrics (
        game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER, name TEXT NOT NULL,
        value TEXT);
    CREATE INDEX metrics_game ON metrics(game_id);
    CREATE TABLE ratings (
        env TEXT NOT NULL, identity TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0, updated REAL NOT NULL, PRIMARY KEY (env, identity));
    CREATE TABLE rating_history (
        game_id INTEGER NOT NULL REFERENCES games(id), env TEXT NOT NULL,
        identity TEXT NOT NULL, mu_before REAL, sigma_before REAL, mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL);
    """,
    """
    CREATE TABLE bot_failures (
        game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
        step INTEGER NOT NULL, error TEXT NOT NULL, policy TEXT NOT NULL, transcript TEXT,
        created REAL NOT NULL);
    ALTER TABLE actions ADD COLUMN structured INTEGER NOT NULL DEFAULT 0;
    """,
    """
    ALTER TABLE players ADD COLUMN token_hash TEXT;
    """,
    # Contract v2: the MindGames error class and fatality of a rejected move, the env's clock.
    """
    ALTER TABLE actions ADD COLUMN category TEXT;
    ALTER TABLE actions ADD COLUMN fatal INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE events ADD COLUMN clock TEXT;
    """,
]


Rating = tuple[float, float]  # (mu, sigma)
RatingChanges = dict[str, tuple[Rating | None, Rating]]  # identity -> (before or None, after)
Rater = Callable[[Mapping[str, Rating]], Mapping[str, tuple[Rating | None, Rating]]]


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Store:
    """Open with `await Store.open(path)`; close with `await store.close()`."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._queue: asyncio.Queue[tuple[Callable[[aiosqlite.Connection], Awaitable[Any]],
                                         asyncio.Future[Any]] | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA busy_timeout=5000")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA synchronous=NORMAL")
        try:
            await cls._migrate(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    @staticmethod
    async def _migrate(conn: aiosqlite.Connection) -> None:
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = await (await conn.execute("SELECT version FROM schema_version")).fetchone()
        version = row[0] if row else 0
        if version > len(MIGRATIONS):
            raise RuntimeError(f"database schema v{version} is newer than this Parlor "
                               f"(v{len(MIGRATIONS)}); upgrade Parlor")
        for target in range(version, len(MIGRATIONS)):
            await conn.execute("BEGIN IMMEDIATE")
            for statement in MIGRATIONS[target].split(";"):
                if statement.strip():
                    await conn.execute(statement)
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version VALUES (?)", (target + 1,))
            await conn.execute("COMMIT")

    @property
    def schema_version(self) -> int:
        return len(MIGRATIONS)

    # -- the writer --------------------------------------------------------------------------
    async def _write_loop(self) -> None:
        while True:
            job = await self._queue.get()
            if job is None:
                return
            work, done = job
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                value = await work(self._conn)
                await self._conn.execute("COMMIT")
            except BaseException as exc:  # noqa: BLE001 - the caller gets the error
                try:
                    await self._conn.execute("ROLLBACK")
                except Exception:  # noqa: BLE001
                    pass
                if not done.done():
                    done.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
            else:
                if not done.done():
                    done.set_result(value)

    async def write(self, work: Callable[[aiosqlite.Connection], Awaitable[Any]]) -> Any:
        """Run `work` in one transaction on the writer; returns once it is committed."""
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((work, done))
        return await done

    async def close(self) -> None:
        await self._queue.put(None)
        await self._writer
        await self._conn.close()

    # -- writes --------------------------------------------------------------------------------
    async def player_id(self, name: str, kind: str, identity: str) -> int:
        async def work(c: aiosqlite.Connection) -> int:
            await c.execute("INSERT OR IGNORE INTO players (name, kind, identity, created) "
                            "VALUES (?, ?, ?, ?)", (name, kind, identity, time.time()))
            cur = await c.execute("SELECT id FROM players WHERE identity = ?", (identity,))
            return (await cur.fetchone())[0]
        return await self.write(work)

    async def claim_name(self, name: str, token: str | None, new_token: str
                         ) -> tuple[str, str] | None:
        """Who a person saying hello is, as (name, token); None when the name belongs to someone
        else. A known token wins (its stored name is used); an unclaimed name is claimed with
        `new_token`. Only a hash of each token is stored."""
        async def work(c: aiosqlite.Connection) -> tuple[str, str] | None:
            if token:
                cur = await c.execute("SELECT name FROM players WHERE kind = 'human' AND "
                                      "token_hash = ?", (_hash(token),))
                row = await cur.fetchone()
                if row is not None:
                    return row[0], token
            cur = await c.execute("SELECT token_hash FROM players WHERE identity = ?",
                                  (f"human:{name}",))
            row = await cur.fetchone()
            if row is not None and row[0] is not None:
                return None
            if row is None:
                await c.execute("INSERT INTO players (name, kind, identity, created, token_hash) "
                                "VALUES (?, 'human', ?, ?, ?)",
                                (name, f"human:{name}", time.time(), _hash(new_token)))
            else:  # played before names were claimed: the first to come back claims it
                await c.execute("UPDATE players SET token_hash = ? WHERE identity = ?",
                                (_hash(new_token), f"human:{name}"))
            return name, new_token
        return await self.write(work)

    async def create_game(self, *, table_id: str, env: str, rules_version: str,
                          preset: str | None, config: Mapping[str, Any], seed: int,
                          seats: Sequence[Mapping[str, Any]]) -> int:
        """seats: dicts with identity, name, kind, settings."""
        async def work(c: aiosqlite.Connection) -> int:
            cur = await c.execute(
                "INSERT INTO games (table_id, env, rules_version, preset, config, seed, started) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table_id, env, rules_version, preset, _dump(config), seed, time.time()))
            game_id = cur.lastrowid
            for i, s in enumerate(seats):
                await c.execute("INSERT OR IGNORE INTO players (name, kind, identity, created) "
                                "VALUES (?, ?, ?, ?)", (s["name"], s["kind"], s["identity"],
                                                        time.time()))
                pid = (await (await c.execute("SELECT id FROM players WHERE identity = ?",
                                              (s["identity"],))).fetchone())[0]
                await c.execute("INSERT INTO seats (game_id, seat, player_id, identity, kind, "
                                "settings) VALUES (?, ?, ?, ?, ?, ?)",
                                (game_id, i, pid, s["identity"], s["kind"],
                                 _dump(s.get("settings") or {})))
            return game_id
        return await self.write(work)

    async def record_action(self, game_id: int, idx: int, action: ActionRecord,
                            events: Iterable[Event], *, turn: int | None = None,
                            usage: Mapping[str, Any] | None = None,
                            raw_output: str | None = None,
                            transcript: Any = None) -> None:
        """Store one action and the events it produced in one committed transaction."""
        events = list(events)

        async def work(c: aiosqlite.Connection) -> None:
            await c.execute(
                "INSERT INTO actions (game_id, idx, seat, step, turn, raw, structured, outcome, "
                "error, category, fatal, latency_ms, usage, raw_output, transcript, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, idx, action.seat, action.step, turn,
                 action.raw if isinstance(action.raw, str) else _dump(action.raw),
                 int(not isinstance(action.raw, str)),
                 action.outcome, action.error, action.category, int(action.fatal),
                 action.meta.get("latency_ms"),
                 _dump(usage) if usage is not None else None, raw_output,
                 _dump(transcript) if transcript else None, time.time()))
            await self._insert_events(c, game_id, events)
        await self.write(work)

    async def record_bot_failure(self, game_id: int, seat: int, step: int, error: str,
                                 policy: str, transcript: Any = None) -> None:
        """A failed provider call (not a move): kept so failures can be audited and counted."""
        async def work(c: aiosqlite.Connection) -> None:
            await c.execute("INSERT INTO bot_failures VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (game_id, seat, step, error, policy,
                             _dump(transcript) if transcript else None, time.time()))
        await self.write(work)

    async def usage_by_identity(self, game_ids: Sequence[int]) -> dict[str, dict[str, float]]:
        """Summed usage (tokens, cost, latency, retries) and decisions per seat identity."""
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        rows = await self.fetch(
            f"SELECT s.identity, a.usage FROM actions a JOIN seats s ON s.game_id = a.game_id "
            f"AND s.seat = a.seat WHERE a.game_id IN ({marks}) AND a.usage IS NOT NULL",
            list(game_ids))
        totals: dict[str, dict[str, float]] = {}
        for r in rows:
            t = totals.setdefault(r["identity"], {"decisions": 0})
            t["decisions"] += 1
            for key, value in json.loads(r["usage"]).items():
                if isinstance(value, (int, float)):
                    t[key] = t.get(key, 0) + value
        return totals

    async def record_events(self, game_id: int, events: Iterable[Event]) -> None:
        events = list(events)

        async def work(c: aiosqlite.Connection) -> None:
            await self._insert_events(c, game_id, events)
        await self.write(work)

    @staticmethod
    async def _insert_events(c: aiosqlite.Connection, game_id: int, events: list[Event]) -> None:
        await c.executemany(
            "INSERT INTO events (game_id, seq, step, type, data, visible_to, clock) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, e.seq, e.step, e.type, _dump(dict(e.data)),
              _dump(e.visible_to if e.visible_to == "all" else list(e.visible_to)),
              _dump(dict(e.clock)) if e.clock else None)
             for e in events])

    async def finish_game(self, game_id: int, *, record: GameRecord, statuses: Mapping[int, str],
                          metrics: Mapping[str, Any], identities: Sequence[str] = (),
                          rate: Rater | None = None) -> RatingChanges:
        """Close a game: status, result, record, seat statuses, metrics and rating updates.

        `rate(current)` gets the stored ratings of `identities` and returns {identity: (before,
        after)}. It runs inside this game's write transaction, so two games ending at once never
        rate from the same prior (the second would silently overwrite the first's update).
        Returns the changes applied."""
        result = record.result
        status = "void" if result is None or result.void else "finished"

        async def work(c: aiosqlite.Connection) -> RatingChanges:
            now = time.time()
            await c.execute(
                "UPDATE games SET ended = ?, status = ?, reason = ?, result = ?, record = ? "
                "WHERE id = ?",
                (now, status, result.reason if result else record.aborted,
                 _dump(result.to_json()) if result else None, _dump(record.to_json()), game_id))
            for seat, seat_status in statuses.items():
                reward = None if result is None or result.void else result.rewards.get(seat)
                await c.execute("UPDATE seats SET status = ?, reward = ? WHERE game_id = ? AND "
                                "seat = ?", (seat_status, reward, game_id, seat))
            rows = [(game_id, None, k, _dump(v)) for k, v in metrics.get("game", {}).items()]
            for seat, values in metrics.get("seats", {}).items():
                rows += [(game_id, int(seat), k, _dump(v)) for k, v in values.items()]
            await c.executemany("INSERT INTO metrics (game_id, seat, name, value) "
                                "VALUES (?, ?, ?, ?)", rows)
            changes = dict(rate(await self._ratings(c, record.env, identities))) if rate else {}
            for identity, (before, after) in changes.items():
                await c.execute(
                    "INSERT INTO ratings (env, identity, mu, sigma, games, updated) "
                    "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (env, identity) DO UPDATE SET "
                    "mu = excluded.mu, sigma = excluded.sigma, games = games + 1, "
                    "updated = excluded.updated",
                    (record.env, identity, after[0], after[1], now))
                await c.execute(
                    "INSERT INTO rating_history VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, record.env, identity, before[0] if before else None,
                     before[1] if before else None, after[0], after[1]))
            return changes
        return await self.write(work)

    async def interrupted_games(self) -> list[tuple[int, GameRecord]]:
        """Games left 'running' by a server that died, rebuilt from their stored actions."""
        out = []
        for g in await self.fetch("SELECT * FROM games WHERE status = 'running'"):
            actions = await self.fetch("SELECT * FROM actions WHERE game_id = ? ORDER BY idx",
                                       (g["id"],))
            players = (await self.fetch("SELECT count(*) n FROM seats WHERE game_id = ?",
                                        (g["id"],)))[0]["n"]
            record = GameRecord(
                g["env"], g["rules_version"], json.loads(g["config"]), g["seed"], players,
                [ActionRecord(a["seat"], a["step"],
                              json.loads(a["raw"]) if a["structured"] else a["raw"],
                              a["outcome"], a["error"], {"latency_ms": a["latency_ms"]},
                              a["category"], bool(a["fatal"])) for a in actions], [], None)
            out.append((g["id"], record))
        return out

    # -- reads -----------------------------------------------------------------------------
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        cur = await self._conn.execute(sql, params)
        return list(await cur.fetchall())

    @staticmethod
    async def _ratings(c: aiosqlite.Connection, env: str, identities: Iterable[str]
                       ) -> dict[str, Rating]:
        ids = sorted(set(identities))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        cur = await c.execute(f"SELECT identity, mu, sigma FROM ratings WHERE env = ? AND "
                              f"identity IN ({marks})", [env, *ids])
        return {r["identity"]: (r["mu"], r["sigma"]) for r in await cur.fetchall()}

    async def leaderboard(self, env: str, limit: int = 100) -> list[dict[str, Any]]:
        rows = await self.fetch("SELECT identity, mu, sigma, games FROM ratings WHERE env = ? "
                                "ORDER BY mu - 3 * sigma DESC LIMIT ?", (env, limit))
        return [{"identity": r["identity"], "mu": r["mu"], "sigma": r["sigma"],
                 "conservative": r["mu"] - 3 * r["sigma"], "games": r["games"]} for r in rows]

    async def games(self, env: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """The latest games (newest first), optionally of one env, without their records."""
        where, params = ("WHERE env = ?", [env]) if env else ("", [])
        rows = await self.fetch(
            f"SELECT id, table_id, env, rules_version, preset, seed, started, ended, status, "
            f"reason FROM games {where} ORDER BY id DESC LIMIT ?", [*params, limit])
        return [dict(r) for r in rows]

    async def game(self, game_id: int) -> dict[str, Any] | None:
        """One game: its row (config and result decoded, no record) and its seats in order."""
        rows = await self.fetch("SELECT * FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        game = {k: rows[0][k] for k in rows[0].keys() if k != "record"}
        game["config"] = json.loads(game["config"])
        game["result"] = json.loads(game["result"]) if game["result"] else None
        seats = await self.fetch("SELECT seat, identity, kind, settings, status, reward FROM "
                                 "seats WHERE game_id = ? ORDER BY seat", (game_id,))
        game["seats"] = [dict(r) | {"settings": json.loads(r["settings"])} for r in seats]
        return game

    async def load_record(self, game_id: int) -> GameRecord | None:
        rows = await self.fetch("SELECT record FROM games WHERE id = ?", (game_id,))
        if not rows or rows[0]["record"] is None:
            return None
        return GameRecord.from_json(json.loads(rows[0]["record"]))
