"""The SQLite store: every game, seat, action, event, metric and rating.

It runs on the event loop's own thread, in group commits: the writes queued during one turn of
the loop are flushed together, in one transaction, as soon as the loop gets to them (each job in
a savepoint of its own, so a failing job rolls back alone), and each caller awaits its commit, so
an action is on disk before anyone is told about it. Under load one commit carries the moves of
many tables; alone, a move is one short transaction. SQLite's work per commit (WAL mode,
synchronous=NORMAL: no fsync) is smaller than a hop to a worker thread and back, which is what
the store did before (aiosqlite). The WAL is checkpointed by a thread of its own, so the fsyncs
of a checkpoint never stall the loop.

Nothing is stored twice: a game's record is rebuilt from its rows (`load_record`). LLM
transcripts are compacted by `server.store.transcripts` (each long text stored once in `texts`).
The schema is versioned: `MIGRATIONS[i]` (server/store/migrations.py) brings version i to i + 1.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core import ActionRecord, Event, GameRecord, Result
from server.store import accounts, names
from server.store.migrations import MIGRATIONS
from server.wire.jsontext import dumps

log = logging.getLogger("parlor.store")
CHECKPOINT_EVERY = 1.0  # seconds between WAL checkpoints (the checkpointer thread)
WAL_LIMIT = 32 * 1024 * 1024  # bytes of WAL past which the writer truncates it
CHECK_LOG_EVERY = 64  # commits between looks at the WAL's size
OPEN_ATTEMPTS = 5
TEMPORARY = (":memory:", "")  # SQLite's in-memory and private temporary databases


Rating = tuple[float, float]  # (mu, sigma)
RatingChanges = dict[str, tuple[Rating | None, Rating]]  # identity -> (before or None, after)
Rater = Callable[[Mapping[str, Rating]], Mapping[str, tuple[Rating | None, Rating]]]
Job = Callable[[sqlite3.Connection], Any]

_dump = dumps


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Rows:
    """Rows ready to insert: what one or more actions (or events alone) add to a game. Built
    when the move is made, written by `write_rows` or in a game's finishing transaction."""

    actions: list[tuple[Any, ...]] = field(default_factory=list)
    events: list[tuple[Any, ...]] = field(default_factory=list)
    texts: list[tuple[str, str]] = field(default_factory=list)

    def extend(self, other: Rows) -> None:
        self.actions += other.actions
        self.events += other.events
        self.texts += other.texts

    @classmethod
    def joined(cls, parts: Iterable[Rows]) -> Rows:
        rows = cls()
        for part in parts:
            rows.extend(part)
        return rows


def event_rows(game_id: int, events: Iterable[Event]) -> list[tuple[Any, ...]]:
    return [(game_id, e.seq, e.step, e.type, _dump(e.data),
             '"all"' if e.visible_to == "all" else _dump(list(e.visible_to)),
             _dump(dict(e.clock)) if e.clock else None)
            for e in events]


def _insert(c: sqlite3.Connection, rows: Rows) -> None:
    if rows.texts:
        c.executemany("INSERT OR IGNORE INTO texts (hash, text) VALUES (?, ?)", rows.texts)
    if rows.actions:
        c.executemany(
            "INSERT INTO actions (game_id, idx, seat, step, turn, raw, structured, outcome, "
            "error, category, fatal, latency_ms, usage, raw_output, transcript, created) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows.actions)
    if rows.events:
        c.executemany("INSERT INTO events (game_id, seq, step, type, data, visible_to, clock) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?)", rows.events)


class _InsertRows:
    """The job `write_rows` queues: its rows, which a group commit may insert with others'."""

    __slots__ = ("rows",)

    def __init__(self, rows: Rows) -> None:
        self.rows = rows

    def __call__(self, c: sqlite3.Connection) -> None:
        _insert(c, self.rows)


def _units(jobs: list[tuple[Job, asyncio.Future[Any]]]
           ) -> list[list[tuple[Job, asyncio.Future[Any]]]]:
    """The queued jobs in order, each run of `_InsertRows` together, every other job alone."""
    units: list[list[tuple[Job, asyncio.Future[Any]]]] = []
    for job in jobs:
        if isinstance(job[0], _InsertRows) and units and isinstance(units[-1][0][0],
                                                                    _InsertRows):
            units[-1].append(job)
        else:
            units.append([job])
    return units


class Store:
    """Open with `await Store.open(path)`; close with `await store.close()`."""

    def __init__(self, conn: sqlite3.Connection, path: str, instance: str = "") -> None:
        self._conn = conn
        self._path = path
        self._log_over = False  # the WAL passed WAL_LIMIT and is not truncated yet
        self.instance = instance  # stamped on the games this store starts
        self._loop = asyncio.get_running_loop()
        self._queue: list[tuple[Job, asyncio.Future[Any] | None]] = []
        self._flush_scheduled = False
        self._closed = False
        self._checkpointer: _Checkpointer | None = None
        if path not in TEMPORARY:
            self._checkpointer = _Checkpointer(path)
        self._compactors: dict[int, Any] = {}  # game id -> its TranscriptCompactor
        self._player_ids: dict[str, int] = {}  # identity -> players.id (ids never change)
        self.commits = 0  # transactions committed (figures for benchmarks)
        self.jobs = 0  # jobs they carried
        self.games_ended = 0  # games this process finished or voided (a report's freshness)

    @classmethod
    async def open(cls, path: str | Path, instance: str = "") -> Store:
        """`instance` names this server process when several share one file: each recovers
        only the games it started."""
        path = str(path)
        if path not in TEMPORARY:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        for attempt in range(OPEN_ATTEMPTS):
            try:
                return cls(cls._connect(path), path, instance)
            except sqlite3.OperationalError as e:
                # Processes opening a new file together: switching it to WAL can be refused
                # at once ("locked") rather than waited for; the next attempt finds it done.
                if "locked" not in str(e) or attempt + 1 == OPEN_ATTEMPTS:
                    raise
                await asyncio.sleep(0.1 * (attempt + 1))
        raise AssertionError("unreachable")

    @classmethod
    def _connect(cls, path: str) -> sqlite3.Connection:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        try:
            conn.execute("PRAGMA busy_timeout=5000")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer thread does it
            cls.migrate(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    @staticmethod
    def migrate(conn: sqlite3.Connection) -> None:
        """Bring the file to the latest schema, one version per transaction (`conn` in
        autocommit mode: isolation_level None). The version is read inside each write
        transaction, so processes opening one file at once (servers sharing a database) never
        apply a step twice."""
        conn.create_function("name_skeleton", 1, names.skeleton, deterministic=True)
        while True:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                row = conn.execute("SELECT version FROM schema_version").fetchone()
                version = row[0] if row else 0
                if version > len(MIGRATIONS):
                    raise RuntimeError(f"database schema v{version} is newer than this Parlor "
                                       f"(v{len(MIGRATIONS)}); upgrade Parlor")
                if version == len(MIGRATIONS):
                    conn.execute("COMMIT")
                    return
                for statement in MIGRATIONS[version].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("DELETE FROM schema_version")
                conn.execute("INSERT INTO schema_version VALUES (?)", (version + 1,))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    @property
    def schema_version(self) -> int:
        return len(MIGRATIONS)

    # -- group commit ------------------------------------------------------------------------
    def _submit(self, work: Job) -> asyncio.Future[Any]:
        if self._closed:
            raise RuntimeError("the store is closed")
        done = self._loop.create_future()
        self._queue.append((work, done))
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self._loop.call_soon(self._flush)
        return done

    def _flush(self) -> None:
        """Commit every queued job in one transaction, then resolve their callers. Each job
        has a savepoint of its own, so one that fails is undone alone; a run of queued rows
        (`write_rows`: the moves of many tables) is inserted at once, and job by job only if
        that fails."""
        self._flush_scheduled = False
        jobs, self._queue = self._queue, []
        if not jobs:
            return
        c = self._conn
        outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        units = _units(jobs)
        alone = len(jobs) == 1  # its transaction is its savepoint
        try:
            c.execute("BEGIN IMMEDIATE")
            for unit in units:
                if len(unit) > 1:
                    c.execute("SAVEPOINT rows")
                    try:
                        _insert(c, Rows.joined(work.rows for work, _ in unit))
                    except Exception:  # noqa: BLE001 - find the one that fails, below
                        c.execute("ROLLBACK TO rows")
                    else:
                        outcomes += [(done, None, None) for _, done in unit]
                        unit = []
                    c.execute("RELEASE rows")
                for work, done in unit:
                    if not alone:
                        c.execute("SAVEPOINT job")
                    try:
                        value = work(c)
                    except Exception as exc:  # noqa: BLE001 - the caller gets the error
                        if alone:
                            raise
                        c.execute("ROLLBACK TO job")
                        outcomes.append((done, None, exc))
                    else:
                        outcomes.append((done, value, None))
                    if not alone:
                        c.execute("RELEASE job")
            c.execute("COMMIT")
            self.commits += 1
            self.jobs += len(jobs)
        except Exception as exc:  # noqa: BLE001 - the commit itself failed: nothing was stored
            if c.in_transaction:
                c.execute("ROLLBACK")
            self._player_ids.clear()
            outcomes = [(done, None, exc) for _, done in jobs]
        if self._checkpointer is not None:
            self._checkpointer.nudge()
            if self._log_over or self.commits % CHECK_LOG_EVERY == 0:
                self._bound_log()
        for done, value, exc in outcomes:
            if not done.done():
                if exc is None:
                    done.set_result(value)
                else:
                    done.set_exception(exc)

    def _bound_log(self) -> None:
        """Under a steady writer the checkpointer never finds the log idle, so SQLite never
        starts it afresh and it grows without end (seen: 15 GB after ten minutes of `parlor
        sim`). Past WAL_LIMIT the writer truncates it: the checkpointer has copied most of it
        already, so this holds up the loop only for the rest and an fsync."""
        try:
            self._log_over = os.path.getsize(self._path + "-wal") > WAL_LIMIT
            if self._log_over:  # busy (the checkpointer, another process): after next commit
                self._log_over = bool(self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)"
                                                         ).fetchone()[0])
        except (OSError, sqlite3.Error) as e:
            log.debug("log not truncated: %s", e)

    async def write(self, work: Job) -> Any:
        """Run `work(connection)` in the next group commit; returns once it is committed."""
        return await self._submit(work)

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        if self._queue:  # read what was written: commit what is queued first
            self._flush()
        return self._conn.execute(sql, params).fetchall()

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self._read(sql, params)

    async def read_with(self, read: Callable[[sqlite3.Connection], Any]) -> Any:
        """`read(connection)` after what is queued is committed (a module's own queries, e.g.
        server/store/instances.py's)."""
        if self._queue:
            self._flush()
        return read(self._conn)

    async def read_apart(self, read: Callable[[sqlite3.Connection], Any]) -> Any:
        """`read(connection)` on a read-only connection of its own in a worker thread, after
        what is queued is committed: a long query (a profile, a report) never stalls the loop
        and its games. An in-memory database has no second connection: read on the loop."""
        if self._path in TEMPORARY:
            return await self.read_with(read)
        if self._queue:
            self._flush()
        return await asyncio.to_thread(_read_only, self._path, read)

    async def close(self) -> None:
        if self._closed:
            return
        self._flush()
        self._closed = True
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self._conn.close()

    # -- writes --------------------------------------------------------------------------------
    async def player_id(self, name: str, kind: str, identity: str) -> int:
        def work(c: sqlite3.Connection) -> int:
            c.execute("INSERT OR IGNORE INTO players (name, kind, identity, created) "
                      "VALUES (?, ?, ?, ?)", (name, kind, identity, time.time()))
            return c.execute("SELECT id FROM players WHERE identity = ?",
                             (identity,)).fetchone()[0]
        return await self.write(work)

    async def claim_name(self, name: str, token: str | None, new_token: str, *,
                         invite_only: bool = False, invite: str | None = None,
                         claiming: Callable[[], None] = lambda: None) -> tuple[str, str]:
        """Who a person saying hello is, as (name as stored, token). `name` is already
        `names.normalise`d. A token vouches only for its own name, compared by `names.same`
        ("ALICE" is alice's; two people on one machine may offer each other's token); a name
        nobody's name looks like (`names.skeleton`) is claimed with `new_token`. Raises
        `names.NameTaken` when the name, or one too close to it, is someone else's. On an
        `invite_only` server a new claim spends `invite` (`accounts.InviteError` if it cannot).
        `claiming` is called just before a new claim is stored and may raise to refuse it (the
        host's cap on new names). Only a hash of each token is stored; the hello's time is kept
        (`forget_unused_names`)."""
        look = names.skeleton(name)

        def work(c: sqlite3.Connection) -> tuple[str, str]:
            name_now, token_now = claim(c)
            c.execute("UPDATE players SET last_hello = ? WHERE identity = ?",
                      (time.time(), f"human:{name_now}"))
            return name_now, token_now

        def claim(c: sqlite3.Connection) -> tuple[str, str]:
            if token:
                row = c.execute("SELECT name FROM players WHERE kind = 'human' AND "
                                "token_hash = ? AND skeleton IS NOT NULL",
                                (_hash(token),)).fetchone()
                if row is not None and names.same(row[0], name):
                    return row[0], token
            holder = c.execute("SELECT name, token_hash FROM players WHERE skeleton = ?",
                               (look,)).fetchone()
            if holder is not None:
                if not names.same(holder[0], name):
                    raise names.NameTaken(f"the name {name!r} is too close to an existing name "
                                          f"({holder[0]!r}); choose another name")
                if holder[1] is not None:
                    raise names.NameTaken(f"the name {name!r} belongs to another player here; "
                                          f"choose another name (or say hello with your token)")
                # played before names were claimed: the first to come back claims it
                if invite_only:
                    accounts.use_invite(c, invite, f"human:{holder[0]}")
                claiming()
                c.execute("UPDATE players SET token_hash = ? WHERE skeleton = ?",
                          (_hash(new_token), look))
                return holder[0], new_token
            row = c.execute("SELECT token_hash FROM players WHERE identity = ?",
                            (f"human:{name}",)).fetchone()
            if row is None or row[0] is None:
                if invite_only:
                    accounts.use_invite(c, invite, f"human:{name}")
                claiming()
            if row is None:
                c.execute("INSERT INTO players (name, kind, identity, created, token_hash, "
                          "skeleton) VALUES (?, 'human', ?, ?, ?, ?)",
                          (name, f"human:{name}", time.time(), _hash(new_token), look))
            elif row[0] is None:  # a seat stored without a claim (no look yet): claimed now
                c.execute("UPDATE players SET token_hash = ?, skeleton = ? WHERE identity = ?",
                          (_hash(new_token), look, f"human:{name}"))
            else:
                raise names.NameTaken(f"the name {name!r} belongs to another player here; "
                                      f"choose another name")
            return name, new_token
        return await self.write(work)

    async def said_hello(self, identity: str, token: str) -> bool:
        """Note a hello from a player this process already knows by its token; False when the
        name is no longer that token's (it was forgotten, perhaps by another process sharing
        the file, and may belong to someone else now)."""
        def work(c: sqlite3.Connection) -> bool:
            return c.execute("UPDATE players SET last_hello = ? WHERE identity = ? AND "
                             "token_hash = ?", (time.time(), identity, _hash(token))).rowcount > 0
        return await self.write(work)

    async def forget_unused_names(self, before: float, keep: Iterable[str] = (),
                                  at_most: int = 1000) -> list[str]:
        """Release up to `at_most` claimed names that never sat at a game (so have no ratings
        either), did not spend an invite, and said hello last before `before` (a time.time()),
        except the identities in `keep` (people connected now); returns the identities
        forgotten. Anyone may claim such a name again. (Bounded: the store runs on the event
        loop, and a flood's names could be many.)"""
        def work(c: sqlite3.Connection) -> list[str]:
            gone = c.execute(
                "DELETE FROM players WHERE id IN (SELECT id FROM players WHERE kind = 'human' "
                "AND token_hash IS NOT NULL AND last_hello < ? "
                "AND NOT EXISTS (SELECT 1 FROM seats WHERE seats.player_id = players.id) "
                "AND identity NOT IN (SELECT identity FROM ratings) "
                "AND identity NOT IN (SELECT used_by FROM invites WHERE used_by IS NOT NULL) "
                "AND identity NOT IN (SELECT value FROM json_each(?)) LIMIT ?) "
                "RETURNING identity", (before, json.dumps(list(keep)), at_most)).fetchall()
            for (identity,) in gone:
                self._player_ids.pop(identity, None)
            return [identity for (identity,) in gone]
        return await self.write(work)

    def admin_token_matches(self, token: str) -> bool:
        """Whether `token` is the host's admin token now (`parlor serve admin-token`)."""
        return accounts.admin_token_matches(self._conn, token)

    def next_table_number(self, instance: str) -> int:
        """The next number for a table of server `instance`, committed before it is given out,
        so table ids never repeat, across restarts too. Committed at once, with the writes
        queued meanwhile (the moves of other tables, which then need no commit of their own)."""
        def work(c: sqlite3.Connection) -> int:
            return c.execute(
                "INSERT INTO table_numbers (instance, last) VALUES (?, 1) ON CONFLICT "
                "(instance) DO UPDATE SET last = last + 1 RETURNING last",
                (instance,)).fetchone()[0]
        number = self._submit(work)
        self._flush()
        return number.result()

    def last_table_number(self, instance: str) -> int:
        """The last table number server `instance` gave out (0: none yet)."""
        rows = self._read("SELECT last FROM table_numbers WHERE instance = ?", (instance,))
        return rows[0][0] if rows else 0

    def game_at_table(self, table_id: str) -> dict[str, Any] | None:
        """The latest game played at `table_id`: its id, status, reason, result (decoded) and
        seat identities in order; None if no game was ever stored there."""
        rows = self._read("SELECT id, status, reason, result FROM games WHERE table_id = ? "
                          "ORDER BY id DESC LIMIT 1", (table_id,))
        if not rows:
            return None
        game = dict(rows[0])
        game["result"] = json.loads(game["result"]) if game["result"] else None
        game["identities"] = [r[0] for r in self._read(
            "SELECT identity FROM seats WHERE game_id = ? ORDER BY seat", (game["id"],))]
        return game

    async def create_game(self, *, table_id: str, env: str, rules_version: str,
                          preset: str | None, config: Mapping[str, Any], seed: int,
                          seats: Sequence[Mapping[str, Any]],
                          campaign: tuple[str, str] | None = None) -> int:
        """seats: dicts with identity, name, kind, settings; `campaign`: (campaign id, game
        key), for a campaign's game."""
        def work(c: sqlite3.Connection) -> int:
            now = time.time()
            game_id = c.execute(
                "INSERT INTO games (table_id, env, rules_version, preset, config, seed, started, "
                "instance, campaign, game_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, env, rules_version, preset, _dump(config), str(seed), now,
                 self.instance or None, *(campaign or (None, None)))).lastrowid
            c.executemany("INSERT INTO seats (game_id, seat, player_id, identity, kind, settings) "
                          "VALUES (?, ?, ?, ?, ?, ?)",
                          [(game_id, i, self._player_id(c, s, now), s["identity"], s["kind"],
                            _dump(s.get("settings") or {})) for i, s in enumerate(seats)])
            return game_id
        return await self.write(work)

    def _player_id(self, c: sqlite3.Connection, seat: Mapping[str, Any], now: float) -> int:
        """The id of a seat's player, made on first sight (remembered: ids never change)."""
        identity = seat["identity"]
        pid = self._player_ids.get(identity)
        if pid is None:
            made = c.execute("INSERT OR IGNORE INTO players (name, kind, identity, created) "
                             "VALUES (?, ?, ?, ?)", (seat["name"], seat["kind"], identity,
                                                     now)).rowcount
            pid = c.execute("SELECT id FROM players WHERE identity = ?",
                            (identity,)).fetchone()[0]
            if not made:  # committed before: remembered (a row made now might roll back)
                self._player_ids[identity] = pid
        return pid

    def action_rows(self, game_id: int, idx: int, action: ActionRecord, events: Iterable[Event],
                    *, turn: int | None = None, usage: Mapping[str, Any] | None = None,
                    raw_output: str | None = None, transcript: Any = None) -> Rows:
        """The rows one action adds (built in move order: transcripts are stored as what is new
        since the seat's previous decision)."""
        rows = Rows(events=event_rows(game_id, events))
        stored_transcript, rows.texts = self._compact(game_id, action.seat, transcript)
        raw = action.raw
        rows.actions.append(
            (game_id, idx, action.seat, action.step, turn,
             raw if raw.__class__ is str else _dump(raw), int(raw.__class__ is not str),
             action.outcome, action.error, action.category, int(action.fatal),
             action.meta.get("latency_ms"), _dump(usage) if usage is not None else None,
             raw_output, stored_transcript, time.time()))
        return rows

    def _compact(self, game_id: int, seat: int | None, transcript: Any
                 ) -> tuple[str | None, list[tuple[str, str]]]:
        """A transcript as stored (long texts by reference, a seat's prompt as what is new since
        its previous one; seat None: readable on its own) and the texts to store with it."""
        if not transcript:
            return None, []
        compactor = self._compactors.get(game_id)
        if compactor is None:
            from server.store.transcripts import TranscriptCompactor
            compactor = self._compactors[game_id] = TranscriptCompactor()
        compact, texts = compactor.compact(seat, transcript)
        return _dump(compact), list(texts.items())

    async def write_rows(self, rows: Rows) -> None:
        """Store rows (an action and its events, or events alone) in the next group commit."""
        try:
            await self.write(_InsertRows(rows))
        except Exception:
            # Later prompts of these games must not be stored as deltas of lost ones.
            for game_id in {row[0] for row in rows.actions}:
                self._compactors.pop(game_id, None)
            raise

    async def record_action(self, game_id: int, idx: int, action: ActionRecord,
                            events: Iterable[Event], *, turn: int | None = None,
                            usage: Mapping[str, Any] | None = None,
                            raw_output: str | None = None,
                            transcript: Any = None) -> None:
        """Store one action and the events it produced; returns once committed."""
        await self.write_rows(self.action_rows(game_id, idx, action, events, turn=turn,
                                               usage=usage, raw_output=raw_output,
                                               transcript=transcript))

    async def record_events(self, game_id: int, events: Iterable[Event]) -> None:
        await self.write_rows(Rows(events=event_rows(game_id, events)))

    async def record_bot_failure(self, game_id: int, seat: int, step: int, error: str,
                                 policy: str, transcript: Any = None) -> None:
        """A failed provider call (not a move): kept so failures can be audited and counted."""
        stored, texts = self._compact(game_id, None, transcript)
        row = (game_id, seat, step, error, policy, stored, time.time())

        def work(c: sqlite3.Connection) -> None:
            c.executemany("INSERT OR IGNORE INTO texts (hash, text) VALUES (?, ?)", texts)
            c.execute("INSERT INTO bot_failures VALUES (?, ?, ?, ?, ?, ?, ?)", row)
        await self.write(work)

    async def record_debrief(self, game_id: int, seat: int, transcript: Any,
                             usage: Mapping[str, Any]) -> None:
        """A bot's answers to the interviewer's questions after its game (issue 24)."""
        stored, texts = self._compact(game_id, None, transcript)
        row = (game_id, seat, stored, _dump(dict(usage)), time.time())

        def work(c: sqlite3.Connection) -> None:
            c.executemany("INSERT OR IGNORE INTO texts (hash, text) VALUES (?, ?)", texts)
            c.execute("INSERT OR REPLACE INTO debriefs VALUES (?, ?, ?, ?, ?)", row)
        await self.write(work)

    async def finish_game(self, game_id: int, *, record: GameRecord, statuses: Mapping[int, str],
                          metrics: Mapping[str, Any], identities: Sequence[str] = (),
                          rate: Rater | None = None, scheme: str = "trueskill",
                          unrated: str | None = None, unwritten: Rows | None = None
                          ) -> RatingChanges:
        """Close a game: status, result, setup, seat statuses, metrics, why it is `unrated`
        (None when it is rated) and rating updates, and `unwritten` rows (a game written at its
        end) first, all in one transaction.

        `rate(current)` gets the stored ratings of `identities` in the env's league `scheme`
        and returns {identity: (before, after)}. It runs inside this game's write transaction,
        so two games ending at once never rate from the same prior (the second would silently
        overwrite the first's update). Returns the changes applied."""
        result = record.result
        status = "void" if result is None or result.void else "finished"
        self._compactors.pop(game_id, None)
        self.games_ended += 1
        game_row = (time.time(), status, result.reason if result else record.aborted,
                    _dump(result.to_json()) if result else None,
                    _dump(record.setup) if record.setup else None, record.aborted,
                    _dump(metrics) if metrics else None, unrated, game_id)
        seat_rows = [(seat_status, None if result is None or result.void
                      else result.rewards.get(seat), game_id, seat)
                     for seat, seat_status in statuses.items()]

        def work(c: sqlite3.Connection) -> RatingChanges:
            if unwritten is not None:
                _insert(c, unwritten)
            c.execute("UPDATE games SET ended = ?, status = ?, reason = ?, result = ?, "
                      "setup = ?, aborted = ?, metrics = ?, unrated = ? WHERE id = ?", game_row)
            c.executemany("UPDATE seats SET status = ?, reward = ? WHERE game_id = ? AND "
                          "seat = ?", seat_rows)
            if rate is None:
                return {}
            return rate_game(c, game_id, record.env, scheme, identities, rate, game_row[0])
        return await self.write(work)

    # -- reads -----------------------------------------------------------------------------
    async def interrupted_games(self) -> list[tuple[int, GameRecord]]:
        """Games this instance left 'running' when it died, rebuilt from their stored actions
        (no events: they are replayed). Other instances' games are theirs to recover."""
        return [(g["id"], self._record(g, events=False))
                for g in self._read("SELECT * FROM games WHERE status = 'running' AND "
                                    "coalesce(instance, '') = ?", (self.instance,))]

    async def load_record(self, game_id: int) -> GameRecord | None:
        """A stored game's record, rebuilt from its rows (config, seats, actions, events)."""
        rows = self._read("SELECT * FROM games WHERE id = ?", (game_id,))
        return self._record(rows[0]) if rows else None

    def _record(self, g: sqlite3.Row, events: bool = True) -> GameRecord:
        game_id = g["id"]
        players = self._read("SELECT count(*) FROM seats WHERE game_id = ?", (game_id,))[0][0]
        archive = self.archive(game_id)
        return GameRecord(g["env"], g["rules_version"], json.loads(g["config"]), int(g["seed"]),
                          players, archive.actions(0, ALL),
                          archive.events(0, ALL) if events else [],
                          Result.from_json(json.loads(g["result"])) if g["result"] else None,
                          g["aborted"], json.loads(g["setup"]) if g["setup"] else {})

    def archive(self, game_id: int) -> GameArchive:
        """A game's stored events and actions, read back by range (`engine.core.Archive`)."""
        return GameArchive(self._read, game_id)

    async def transcripts(self, game_id: int) -> dict[int, Any]:
        """The full LLM transcript of each action of a game that has one, by action index."""
        return dict(action_transcripts(self._read, game_id))

    async def bot_failures(self, game_id: int) -> list[dict[str, Any]]:
        """A game's failed provider calls, oldest first, each with its transcript whole."""
        from server.store.transcripts import expand
        rows = self._read("SELECT * FROM bot_failures WHERE game_id = ? ORDER BY rowid",
                          (game_id,))
        stored = [(i, json.loads(r["transcript"])) for i, r in enumerate(rows)
                  if r["transcript"]]
        whole = dict(expand(stored, stored_texts(self._read, stored)))
        return [dict(r) | {"transcript": whole.get(i)} for i, r in enumerate(rows)]

    async def debriefs(self, game_id: int) -> dict[int, Any]:
        """The transcripts of a game's debriefs (see `record_debrief`), whole, by seat."""
        from server.store.transcripts import expand
        rows = self._read("SELECT seat, transcript FROM debriefs WHERE game_id = ? ORDER BY seat",
                          (game_id,))
        stored = [(r["seat"], json.loads(r["transcript"])) for r in rows]
        return dict(expand(stored, stored_texts(self._read, stored)))

    def last_game_id(self) -> int:
        return self._read("SELECT coalesce(max(id), 0) FROM games")[0][0]

    def run_metrics(self, instances: Sequence[str], after: int
                    ) -> Iterator[Mapping[str, Any]]:
        """The stored per-game metrics of the games `instances` started after game `after`, in
        order, one at a time (a cursor, not a list): what `parlor sim` aggregates."""
        if self._queue:
            self._flush()
        for (text,) in self._conn.execute(
                "SELECT metrics FROM games WHERE id > ? AND instance IN (SELECT value FROM "
                "json_each(?)) ORDER BY id", (after, _dump(list(instances)))):
            yield json.loads(text)

    async def leaderboard(self, env: str, scheme: str = "trueskill", limit: int = 100
                          ) -> list[dict[str, Any]]:
        """The env's rated identities in its league `scheme` ("trueskill" or "elo"), best
        conservative skill (mu - 3 sigma) first, each with
        its rated games split into wins, draws and losses by engine/outcome.py's rule: in each
        rated game an identity won if one of its seats is among the winners (and none lost),
        lost if one of its seats got a negative reward without winning (and none won), else
        drew (a middle place with reward 0, an all-tied game, a self-play game that split)."""
        rows = self._read("SELECT identity, mu, sigma, games FROM ratings WHERE env = ? AND "
                          "scheme = ? ORDER BY mu - 3 * sigma DESC LIMIT ?", (env, scheme, limit))
        tallies = {r["identity"]: (r["wins"], r["losses"], r["rated"]) for r in self._read(
            """SELECT identity, sum(won > 0 AND lost = 0) AS wins,
                      sum(lost > 0 AND won = 0) AS losses, count(*) AS rated
               FROM (SELECT identity, game_id, sum(winner) AS won,
                            sum(NOT winner AND reward < 0) AS lost
                     FROM (SELECT h.identity, h.game_id, s.reward,
                                  EXISTS (SELECT 1 FROM json_each(g.result, '$.winners') j
                                          WHERE j.value = s.seat) AS winner
                           FROM rating_history h
                           JOIN games g ON g.id = h.game_id
                           JOIN seats s ON s.game_id = h.game_id AND s.identity = h.identity
                           WHERE h.env = ? AND h.scheme = ?
                                 AND h.identity IN (SELECT value FROM json_each(?)))
                     GROUP BY identity, game_id)
               GROUP BY identity""",
            (env, scheme, _dump([r["identity"] for r in rows])))}
        board = []
        for r in rows:
            wins, losses, rated = tallies.get(r["identity"], (0, 0, 0))
            board.append({"identity": r["identity"], "mu": r["mu"], "sigma": r["sigma"],
                          "conservative": r["mu"] - 3 * r["sigma"], "games": r["games"],
                          "wins": wins, "draws": rated - wins - losses, "losses": losses})
        return board

    async def unrated_games(self, env: str, limit: int = 20) -> tuple[int, list[dict[str, Any]]]:
        """How many of the env's ended games were not rated, and the latest `limit` of them
        (newest first): id, table, when it ended, status and why it is not rated."""
        where = "FROM games WHERE env = ? AND ended IS NOT NULL AND unrated IS NOT NULL"
        count = self._read(f"SELECT count(*) {where}", (env,))[0][0]
        rows = self._read(f"SELECT id, table_id, ended, status, unrated {where} "
                          f"ORDER BY id DESC LIMIT ?", (env, limit))
        return count, [dict(r) for r in rows]

    async def games(self, env: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """The latest games (newest first), optionally of one env."""
        where, params = ("WHERE env = ?", [env]) if env else ("", [])
        rows = self._read(
            f"SELECT id, table_id, env, rules_version, preset, seed, started, ended, status, "
            f"reason FROM games {where} ORDER BY id DESC LIMIT ?", [*params, limit])
        return [dict(r) | {"seed": int(r["seed"])} for r in rows]

    async def game(self, game_id: int) -> dict[str, Any] | None:
        """One game: its row (config, result, setup and metrics decoded) and its seats in
        order."""
        rows = self._read("SELECT * FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        game = dict(rows[0]) | {"seed": int(rows[0]["seed"])}
        for key in ("config", "result", "setup", "metrics"):
            game[key] = json.loads(game[key]) if game.get(key) else None
        seats = self._read("SELECT seat, identity, kind, settings, status, reward FROM "
                           "seats WHERE game_id = ? ORDER BY seat", (game_id,))
        game["seats"] = [dict(r) | {"settings": json.loads(r["settings"])} for r in seats]
        return game


def rate_game(c: sqlite3.Connection, game_id: int, env: str, scheme: str,
              identities: Sequence[str], rate: Rater, now: float) -> RatingChanges:
    """Rate one game inside a write transaction: `rate` gets the stored ratings of `identities`
    in the league `scheme`; its changes are stored (ratings, rating_history) and returned.
    Live games (`Store.finish_game`) and `parlor ratings rebuild` both rate through here."""
    changes = dict(rate(_ratings(c, env, scheme, identities)))
    for identity, (before, after) in changes.items():
        c.execute(
            "INSERT INTO ratings (env, scheme, identity, mu, sigma, games, updated) "
            "VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (env, scheme, identity) DO UPDATE "
            "SET mu = excluded.mu, sigma = excluded.sigma, games = games + 1, "
            "updated = excluded.updated",
            (env, scheme, identity, after[0], after[1], now))
        c.execute(
            "INSERT INTO rating_history (game_id, env, scheme, identity, mu_before, "
            "sigma_before, mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, env, scheme, identity, before[0] if before else None,
             before[1] if before else None, after[0], after[1]))
    return changes


def _ratings(c: sqlite3.Connection, env: str, scheme: str, identities: Iterable[str]
             ) -> dict[str, Rating]:
    ids = sorted(set(identities))
    if not ids:
        return {}
    rows = c.execute("SELECT identity, mu, sigma FROM ratings WHERE env = ? AND scheme = ? AND "
                     "identity IN (SELECT value FROM json_each(?))",
                     (env, scheme, _dump(ids))).fetchall()
    return {r["identity"]: (r["mu"], r["sigma"]) for r in rows}


Read = Callable[[str, Sequence[Any]], list[sqlite3.Row]]  # a query's rows (Store._read, ...)


def action_transcripts(read: Read, game_id: int) -> Iterator[tuple[int, Any]]:
    """(action index, full LLM transcript) of each action of a game that has one, in order,
    restored one at a time (a whole game's prompts are never all in memory); `read` runs a
    query, e.g. on a read-only connection."""
    from server.store.transcripts import expand
    rows = read("SELECT idx, transcript FROM actions WHERE game_id = ? AND "
                "transcript IS NOT NULL ORDER BY idx", (game_id,))
    stored = [(r["idx"], json.loads(r["transcript"])) for r in rows]
    return expand(stored, stored_texts(read, stored))


def stored_texts(read: Read, stored: Iterable[tuple[Any, Any]]) -> dict[str, str]:
    """The stored texts that transcripts point at, by hash."""
    from server.store.transcripts import text_refs
    refs: set[str] = set()
    for _, transcript in stored:
        refs |= text_refs(transcript)
    return {r["hash"]: r["text"] for r in read(
        "SELECT hash, text FROM texts WHERE hash IN (SELECT value FROM json_each(?))",
        (_dump(sorted(refs)),))}


def _visibility(stored: Any) -> Any:
    return "all" if stored == "all" else tuple(stored)


ALL = 2 ** 62  # a stop past any seq or step


class GameArchive:
    """One game's stored events and actions (`engine.core.Archive`): what a live game let go of
    (`Game.forget_old`) is read back from here, after anything queued is committed. `read`
    runs a query (`Store._read`, or a replay's read-only connection)."""

    def __init__(self, read: Read, game_id: int) -> None:
        self.read, self.game_id = read, game_id

    def events(self, start: int, stop: int) -> list[Event]:
        return [Event(e["seq"], e["step"], e["type"], json.loads(e["data"]),
                      _visibility(json.loads(e["visible_to"])),
                      json.loads(e["clock"]) if e["clock"] else {})
                for e in self.read(
                    "SELECT seq, step, type, data, visible_to, clock FROM events "
                    "WHERE game_id = ? AND seq >= ? AND seq < ? ORDER BY seq",
                    (self.game_id, start, stop))]

    def actions(self, start: int, stop: int) -> list[ActionRecord]:
        return [ActionRecord(a["seat"], a["step"],
                             json.loads(a["raw"]) if a["structured"] else a["raw"],
                             a["outcome"], a["error"],
                             {} if a["latency_ms"] is None else {"latency_ms": a["latency_ms"]},
                             a["category"], bool(a["fatal"]))
                for a in self.read(
                    "SELECT seat, step, raw, structured, outcome, error, latency_ms, category, "
                    "fatal FROM actions WHERE game_id = ? AND idx >= ? AND idx < ? ORDER BY idx",
                    (self.game_id, start, stop))]

    def first_event_at(self, step: int) -> int | None:
        return self.read("SELECT min(seq) FROM events WHERE game_id = ? AND step >= ?",
                                (self.game_id, step))[0][0]


def _read_only(path: str, read: Callable[[sqlite3.Connection], Any]) -> Any:
    """`read` on a read-only connection to `path`, closed after (Store.read_apart)."""
    conn = sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        return read(conn)
    finally:
        conn.close()


class _Checkpointer:
    """Checkpoints the WAL from a connection and thread of its own (PASSIVE: it never blocks the
    writer), at most every CHECKPOINT_EVERY seconds while there are commits. It copies the log
    into the database; resetting the log is the writer's job (`Store._bound_log`)."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="store-checkpointer",
                                        daemon=True)
        self._thread.start()

    def nudge(self) -> None:
        if not self._wake.is_set():
            self._wake.set()

    def _run(self) -> None:
        conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA busy_timeout=5000")
        try:
            while not self._stopped.is_set():
                self._wake.wait()
                self._wake.clear()
                if self._stopped.is_set():
                    break
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as e:  # e.g. locked by another process: next time
                    log.debug("checkpoint skipped: %s", e)
                self._stopped.wait(CHECKPOINT_EVERY)
        finally:
            conn.close()

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()
        self._thread.join(timeout=10)
