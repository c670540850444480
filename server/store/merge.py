"""Merging Parlor databases: the games of one database copied into another without duplicates
(`parlor merge`, and a campaign's Ray backend folding a worker's scratch database into the
driver's store).

`copy_games(src, dst)` copies every finished or void game of `src` with all its rows (seats,
actions, events, bot failures, debriefs and the texts their transcripts point at), new game ids
in `dst`, players matched by identity; a game left 'running' (its process was interrupted) is
not a result and stays behind. It also brings over the SocialMaze instances and consent answers
`dst` lacks, and raises `dst`'s table counters past `src`'s so a new table never takes a copied
table's id. Never copied: `settings` (`dst` keeps its own pseudonym key and admin token),
`invites`, and ratings: they are recomputed from the merged games (`rebuild_ratings`), so the
merged database's ratings are a rebuild's.

A game already in `dst` is skipped: a campaign's game (by its key, `games.game_key`, whatever
campaign played it) when `dst` holds a finished one with that key (a void one only adds a
finished copy), or a void one when `dst` holds any result of it; any other game when `dst` has one with the same instance,
table, start time and seed (the copy made by an earlier merge). So merging a source twice, or
merging back what was merged, adds nothing.

Rows are streamed, a game at a time; the copy of one source is one transaction of `dst` (or a
savepoint of the caller's, e.g. a `Store.write` job), so a failure leaves `dst` as it was.

A database shipped as bytes (a worker's scratch store: `await store.read_with(lambda c:
c.serialize())`) merges into a live store as one of its write jobs:
`src = deserialized(image)`, `counts = await store.write(partial(copy_games, src))`,
`src.close()`; once the last is in, `await store.write(lambda c: rebuild_ratings(c, envs))`
over the union of the `counts.envs`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.registry import env_ids, get
from server.store.migrations import MIGRATIONS
from server.store.rating_rebuild import Rebuilt, rebuild
from server.store.store import Store
from server.store.transcripts import text_refs

GAME_TABLES = ("seats", "actions", "events", "debriefs")  # keyed by (game_id, ...): per game
BATCH = 500  # bot failure rows inserted at once
KNOWN_TEXTS = 100_000  # text hashes remembered as present in dst (then forgotten, re-checked)
WAL_FORMAT = b"\x02\x02"  # bytes 18-19 of a database file's header in WAL mode


class SourceRefused(ValueError):
    """The source is no Parlor database this Parlor can read."""


@dataclass
class MergeCounts:
    """What merging one source did: games copied, skipped as already in the destination, and
    left behind unfinished; the envs of the games copied (their ratings need a rebuild)."""

    copied: int = 0
    duplicates: int = 0
    unfinished: int = 0
    envs: set[str] = field(default_factory=set)


def schema_version(src: sqlite3.Connection) -> int:
    """The schema version of a Parlor database; SourceRefused if it is none, or is newer than
    this Parlor."""
    try:
        row = src.execute("SELECT version FROM schema_version").fetchone()
    except sqlite3.DatabaseError as e:
        raise SourceRefused(f"not a Parlor database ({e})") from None
    if not row or row[0] < 1:
        raise SourceRefused("not a Parlor database (no schema version)")
    if row[0] > len(MIGRATIONS):
        raise SourceRefused(f"its schema (v{row[0]}) is newer than this Parlor's "
                            f"(v{len(MIGRATIONS)}); merge with a newer Parlor")
    return int(row[0])


def open_source(path: Path) -> sqlite3.Connection:
    """A read-only connection to the Parlor database at `path` (a running server may share
    it); SourceRefused, with the reason, if there is none."""
    if not path.exists():
        raise SourceRefused("no such file")
    if path.is_dir():
        raise SourceRefused("it is a folder, not a database file")
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        schema_version(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def deserialized(image: bytes) -> sqlite3.Connection:
    """An in-memory database from `Connection.serialize()`'s bytes, to merge from. The image of
    a file in WAL mode says so in its header, which an in-memory database cannot open; the
    header is set to a rollback journal's (the pages are the same)."""
    if image[18:20] == WAL_FORMAT:
        image = image[:18] + b"\x01\x01" + image[20:]
    conn = sqlite3.connect(":memory:")
    conn.deserialize(image)
    return conn


def copy_games(src: sqlite3.Connection, dst: sqlite3.Connection) -> MergeCounts:
    """Copy `src`'s games (and what goes with them, see the module) into `dst`, in one
    transaction of `dst`: its own, committed here, or, when `dst` is already in one (a
    `Store.write` job), a savepoint that this call releases and the caller commits. Ratings are
    left alone (`rebuild_ratings` after the last source). A source at an older schema is read
    from a migrated copy; SourceRefused if it is no Parlor database or a newer one."""
    if schema_version(src) < len(MIGRATIONS):
        upgraded = sqlite3.connect("", isolation_level=None)  # a private temporary file
        try:
            src.backup(upgraded)
            Store.migrate(upgraded)
            return copy_games(upgraded, dst)
        finally:
            upgraded.close()
    reading = not src.in_transaction
    if reading:
        src.execute("BEGIN")  # one snapshot, should a server be writing to it
    own = not dst.in_transaction
    dst.execute("BEGIN IMMEDIATE" if own else "SAVEPOINT merge")
    try:
        counts = _Merge(src, dst).run()
    except BaseException:
        dst.execute("ROLLBACK" if own else "ROLLBACK TO merge")
        if not own:
            dst.execute("RELEASE merge")
        raise
    else:
        dst.execute("COMMIT" if own else "RELEASE merge")
    finally:
        if reading:
            src.execute("ROLLBACK")
    return counts


def rebuild_ratings(dst: sqlite3.Connection, envs: Iterable[str]) -> list[Rebuilt]:
    """The ratings of `envs` recomputed from the games, as `parlor ratings rebuild` does (inside
    the caller's write transaction); envs this Parlor does not know are left alone."""
    known = set(env_ids())
    return rebuild(dst, {env: get(env).rating for env in sorted(envs) if env in known})


def _select(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
    """A query's rows as plain tuples, whatever the connection's row factory."""
    cursor = conn.cursor()
    cursor.row_factory = None
    return cursor.execute(sql, params)


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in _select(conn, f"PRAGMA table_info({table})")]


def _insert_sql(table: str, columns: Sequence[str], verb: str = "INSERT") -> str:
    return (f"{verb} INTO {table} ({', '.join(columns)}) "
            f"VALUES ({', '.join('?' * len(columns))})")


class _Merge:
    """One source's copy, inside the transaction `copy_games` holds."""

    def __init__(self, src: sqlite3.Connection, dst: sqlite3.Connection) -> None:
        self.src, self.dst = src, dst
        self.counts = MergeCounts()
        self.games: dict[int, int] = {}  # src game id -> dst game id, of the games copied
        self.players: dict[int, int] = {}  # src player id -> dst player id
        self.known_texts: set[str] = set()
        # Column lists are dst's (the source is at the same schema version).
        self.columns = {t: _columns(dst, t) for t in
                        ("games", "players", "bot_failures", "maze_instances", "consents",
                         *GAME_TABLES)}

    def run(self) -> MergeCounts:
        self._index_games()
        for old_id, game in self._games():
            if game["status"] == "running":
                self.counts.unfinished += 1
            elif self._duplicate(game):
                self.counts.duplicates += 1
            else:
                self._copy_game(old_id, game)
        self._copy_bot_failures()
        self._copy_maze_instances()
        self._copy_consents()
        self._raise_table_numbers()
        self.dst.execute("DROP TABLE temp.merge_keys")
        return self.counts

    # -- games ---------------------------------------------------------------------------------
    def _index_games(self) -> None:
        """dst's games by (instance, table, start, seed), indexed for this merge only (a
        temporary table: dst's schema is not changed)."""
        self.dst.execute("DROP TABLE IF EXISTS temp.merge_keys")
        self.dst.execute("CREATE TEMP TABLE merge_keys (instance TEXT, table_id TEXT, "
                         "started REAL, seed TEXT)")
        self.dst.execute("INSERT INTO temp.merge_keys SELECT instance, table_id, started, seed "
                         "FROM main.games")
        self.dst.execute("CREATE INDEX temp.merge_keys_at ON merge_keys (table_id, started)")

    def _games(self) -> Iterator[tuple[int, dict[str, Any]]]:
        columns = [c for c in self.columns["games"] if c != "id"]
        for row in _select(self.src, f"SELECT id, {', '.join(columns)} FROM games ORDER BY id"):
            yield row[0], dict(zip(columns, row[1:], strict=True))

    def _duplicate(self, game: dict[str, Any]) -> bool:
        if game["game_key"] is not None:
            results = {r[0] for r in _select(
                self.dst, "SELECT DISTINCT status FROM games WHERE game_key = ? AND "
                "status IN ('finished', 'void')", (game["game_key"],))}
            return "finished" in results or (game["status"] == "void" and bool(results))
        return _select(self.dst, "SELECT 1 FROM temp.merge_keys WHERE table_id = ? AND "
                       "started = ? AND seed = ? AND instance IS ?",
                       (game["table_id"], game["started"], game["seed"],
                        game["instance"])).fetchone() is not None

    def _copy_game(self, old_id: int, game: dict[str, Any]) -> None:
        new_id = self.dst.execute(_insert_sql("games", list(game)),
                                  list(game.values())).lastrowid
        assert new_id is not None
        self.dst.execute("INSERT INTO temp.merge_keys VALUES (?, ?, ?, ?)",
                         (game["instance"], game["table_id"], game["started"], game["seed"]))
        self.games[old_id] = new_id
        for table in GAME_TABLES:
            columns = self.columns[table]
            rows = [self._moved(table, columns, row, new_id) for row in _select(
                self.src, f"SELECT {', '.join(columns)} FROM {table} WHERE game_id = ?",
                (old_id,))]
            if rows:
                self.dst.executemany(_insert_sql(table, columns), rows)
        self.counts.copied += 1
        self.counts.envs.add(game["env"])

    def _moved(self, table: str, columns: Sequence[str], row: Sequence[Any], game_id: int
               ) -> list[Any]:
        """A row of one of a game's tables as dst stores it: dst's game and player ids, the
        texts its transcript points at present in dst."""
        values = dict(zip(columns, row, strict=True))
        values["game_id"] = game_id
        if "player_id" in values:
            values["player_id"] = self._player(values["player_id"])
        if values.get("transcript"):
            self._copy_texts(values["transcript"])
        return list(values.values())

    def _copy_bot_failures(self) -> None:
        """In one pass (the table has no index by game), rows in their order."""
        columns = self.columns["bot_failures"]
        sql = _insert_sql("bot_failures", columns)
        batch: list[list[Any]] = []
        for row in _select(self.src, f"SELECT {', '.join(columns)} FROM bot_failures "
                           f"ORDER BY rowid"):
            new_id = self.games.get(row[0])
            if new_id is not None:
                batch.append(self._moved("bot_failures", columns, row, new_id))
            if len(batch) >= BATCH:
                self.dst.executemany(sql, batch)
                batch = []
        if batch:
            self.dst.executemany(sql, batch)

    # -- what the games point at ---------------------------------------------------------------
    def _player(self, old_id: int) -> int:
        """dst's id of src's player `old_id`: the player of the same identity, else a copy. A
        person whose name looks like a dst person's (`names.skeleton`) is copied without the
        look and token: the name stays dst's person's to claim."""
        new_id = self.players.get(old_id)
        if new_id is not None:
            return new_id
        columns = [c for c in self.columns["players"] if c != "id"]
        row = _select(self.src, f"SELECT {', '.join(columns)} FROM players WHERE id = ?",
                      (old_id,)).fetchone()
        player = dict(zip(columns, row, strict=True))
        found = _select(self.dst, "SELECT id FROM players WHERE identity = ?",
                        (player["identity"],)).fetchone()
        if found is not None:
            new_id = found[0]
        else:
            if player["skeleton"] is not None and _select(
                    self.dst, "SELECT 1 FROM players WHERE skeleton = ?",
                    (player["skeleton"],)).fetchone():
                player |= {"skeleton": None, "token_hash": None}
            new_id = self.dst.execute(_insert_sql("players", list(player)),
                                      list(player.values())).lastrowid
            assert new_id is not None
        self.players[old_id] = new_id
        return new_id

    def _copy_texts(self, stored_transcript: str) -> None:
        """The texts a stored transcript points at, put in dst's content-addressed `texts` if
        missing (only these: a text no copied game needs stays behind)."""
        for ref in text_refs(json.loads(stored_transcript)):
            if ref in self.known_texts:
                continue
            if _select(self.dst, "SELECT 1 FROM texts WHERE hash = ?", (ref,)).fetchone() is None:
                text = _select(self.src, "SELECT text FROM texts WHERE hash = ?",
                               (ref,)).fetchone()
                if text is not None:
                    self.dst.execute("INSERT INTO texts (hash, text) VALUES (?, ?)",
                                     (ref, text[0]))
            if len(self.known_texts) >= KNOWN_TEXTS:
                self.known_texts.clear()
            self.known_texts.add(ref)

    def _copy_maze_instances(self) -> None:
        """Instances dst lacks (by env, source and id); one it has under the same key stays
        dst's (games never read them: a table copies its instance into its config)."""
        columns = self.columns["maze_instances"]
        self.dst.executemany(_insert_sql("maze_instances", columns, "INSERT OR IGNORE"),
                             _select(self.src, f"SELECT {', '.join(columns)} FROM "
                                     f"maze_instances"))

    def _copy_consents(self) -> None:
        """Answers dst lacks. The latest answer (by id) is the one that counts, so a person's
        answers to a study that got some are numbered again in the order they were given."""
        columns = [c for c in self.columns["consents"] if c != "id"]
        same = " AND ".join(f"{c} IS ?" for c in columns)
        touched = set()
        for row in _select(self.src, f"SELECT {', '.join(columns)} FROM consents ORDER BY id"):
            if _select(self.dst, f"SELECT 1 FROM consents WHERE {same}", row).fetchone() is None:
                self.dst.execute(_insert_sql("consents", columns), row)
                touched.add((row[columns.index("identity")], row[columns.index("study")]))
        for identity, study in sorted(touched):
            answers = _select(self.dst, f"SELECT {', '.join(columns)} FROM consents WHERE "
                              f"identity = ? AND study = ? ORDER BY answered_at, id",
                              (identity, study)).fetchall()
            self.dst.execute("DELETE FROM consents WHERE identity = ? AND study = ?",
                             (identity, study))
            self.dst.executemany(_insert_sql("consents", columns), answers)

    def _raise_table_numbers(self) -> None:
        self.dst.executemany(
            "INSERT INTO table_numbers (instance, last) VALUES (?, ?) ON CONFLICT (instance) "
            "DO UPDATE SET last = max(last, excluded.last)",
            _select(self.src, "SELECT instance, last FROM table_numbers"))
