"""SocialMaze instances kept in the database (`parlor maze import FILE`), so that a table can
play one by its id (`create_table.instance`) and a person can pick one on the create-table
screen (`list_instances`). A stored instance is our record of it (each kit's JSONL line), its
content hash and where it came from; a table that plays it copies the whole record into its
config, so the game's record replays without the database row or the file.

An instance is known by its source and its id: two files may use the same ids (the paper's
Amazon and LLM-written rating files both have `product_1`), so each is stored under its source
(the file's name, or `--source`); an id stored from several sources needs its source named.

Plain functions on a sqlite3 connection: the CLI calls them on its own connection (beside a
running server, as `parlor serve invite` does), the server through its store.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any

# Envs whose config plays a stored instance (its `instance` setting, one JSONL line; Find the
# Spy's `recorded` setting in its passive mode).
TASKS = ("hidden-role", "social-graph", "rating-estimation", "review-decision", "user-profile",
         "find-the-spy")
_SETTINGS: dict[str, tuple[str, dict[str, Any]]] = {"find-the-spy": ("recorded",
                                                                     {"mode": "passive"})}
# The preset a stored instance is played with when none is named (its seats: one solver).
_PRESETS = {"find-the-spy": "passive"}
MAX_LIST = 500


def setting(env: str) -> str:
    """The config setting a stored instance of `env` goes in."""
    return _SETTINGS.get(env, ("instance", {}))[0]


def preset(env: str) -> str | None:
    """The preset that plays a stored instance of `env` (None: any, the env's default)."""
    return _PRESETS.get(env)


def table_settings(env: str, record: str) -> dict[str, Any]:
    """The config overrides that make a table of `env` play the stored `record`."""
    name, extra = _SETTINGS.get(env, ("instance", {}))
    return {name: record, **extra}


class Ambiguous(LookupError):
    """An id stored from several sources, asked for without its source."""

    def __init__(self, instance_id: str, sources: list[str]) -> None:
        super().__init__(f"instance {instance_id!r} is stored from {len(sources)} sources "
                         f"({', '.join(sources)}): name one as instance_source")
        self.sources = sources


@dataclass(frozen=True)
class Row:
    id: str
    content_hash: str
    record: dict[str, Any]
    summary: str  # one line for a picker: what the instance is


def read_rows(task: str, data: bytes, name: str) -> tuple[list[Row], list[str]]:
    """The instances of a file in either of the task's formats, as rows, and its problems."""
    if task == "find-the-spy":
        from engine.find_the_spy import dataset as fts

        loaded = fts.read(data, name)
        return [Row(r["id"], fts.content_hash(r), r, fts.summary(r))
                for r in loaded.instances], [str(p) for p in loaded.problems]
    if task == "hidden-role":
        from engine.hidden_role import dataset

        instances, problems = dataset.parse(data, name)
        return [Row(i.id, dataset.content_hash(i), dataset.to_record(i),
                    f"{i.variant}, {i.n} players, {i.rounds} rounds") for i in instances], \
            [str(p) for p in problems]
    if task == "social-graph":
        from engine.social_graph import dataset as sga

        loaded = sga.read(data, name)
        return [Row(i.id, i.content_hash(), i.to_dict(),
                    f"{i.difficulty}, {len(i.people)} people, {len(i.queries)} questions")
                for i in loaded.instances], [str(p) for p in loaded.problems]
    from engine.dataset_task.files import read
    from engine.registry import get

    loaded = read(get(task).task, data, name)
    return [Row(i.id, i.content_hash(), dict(i.record), _summary(i))
            for i in loaded.instances], [str(p) for p in loaded.problems]


def _summary(instance: Any) -> str:
    """What the instance is about, short: the paper's title, the product, the item."""
    about = instance.intro or next((i.text for i in instance.stages[0].items if i.text.strip()),
                                   "")
    about = about if len(about) <= 70 else about[:69].rstrip() + "…"
    kind = f"{instance.kind} query: " if instance.kind else ""
    return f"{'synthetic ' if instance.synthetic else ''}{kind}{about}"


@dataclass
class Imported:
    added: int = 0
    same: int = 0  # already stored with the same content
    replaced: int = 0
    conflicts: list[str] = field(default_factory=list)  # ids stored with other content, kept


def store_rows(conn: sqlite3.Connection, env: str, rows: list[Row], source: str,
               replace: bool = False) -> Imported:
    """Store rows under `env` and `source` in one transaction. An id already stored from the
    source with the same content is left as it is; with other content it is a conflict, kept
    unless `replace`. Another source's instance of the same id is another instance."""
    done = Imported()
    now = time.time()
    conn.execute("BEGIN IMMEDIATE")
    try:
        for row in rows:
            old = conn.execute("SELECT content_hash FROM maze_instances WHERE env = ? AND "
                               "source = ? AND id = ?", (env, source, row.id)).fetchone()
            if old is not None and old[0] == row.content_hash:
                done.same += 1
                continue
            if old is not None and not replace:
                done.conflicts.append(row.id)
                continue
            conn.execute(
                "INSERT OR REPLACE INTO maze_instances (env, id, content_hash, record, summary, "
                "source, imported) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (env, row.id, row.content_hash,
                 json.dumps(row.record, ensure_ascii=False, separators=(",", ":")),
                 row.summary, source, now))
            if old is None:
                done.added += 1
            else:
                done.replaced += 1
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return done


def list_rows(conn: sqlite3.Connection, env: str, after: str | None = None,
              limit: int = MAX_LIST, after_source: str = "", source: str | None = None
              ) -> tuple[list[dict[str, Any]], tuple[str, str] | None]:
    """The env's stored instances (of one `source`, or all) in (id, source) order, a page after
    (`after`, `after_source`); and the next page's (after, after_source) when there is one."""
    # No content hash: it covers the answer (the decision, the spy's word), and a player who
    # sees the evidence could try each answer until one hashes the same.
    found = conn.execute(
        "SELECT id, summary, source, imported FROM maze_instances "
        "WHERE env = ? AND (id > ? OR (id = ? AND source > ?)) AND (? IS NULL OR source = ?) "
        "ORDER BY id, source LIMIT ?",
        (env, after or "", after or "", after_source, source, source, limit + 1)).fetchall()
    page = [{"id": r[0], "summary": r[1], "source": r[2], "imported": r[3]}
            for r in found[:limit]]
    more = len(found) > limit
    return page, ((page[-1]["id"], page[-1]["source"]) if more else None)


def stored_record(conn: sqlite3.Connection, env: str, instance_id: str,
                  source: str | None = None) -> str | None:
    """The stored instance as one JSONL line (a config's `instance`), or None; `Ambiguous` when
    no source is named and the id is stored from several."""
    rows = conn.execute("SELECT record, source FROM maze_instances WHERE env = ? AND id = ? "
                        "AND (? IS NULL OR source = ?) ORDER BY source",
                        (env, instance_id, source, source)).fetchall()
    if len(rows) > 1:
        raise Ambiguous(instance_id, [r[1] for r in rows])
    return rows[0][0] if rows else None


def drawn_record(conn: sqlite3.Connection, env: str, source: str | None, player: str
                 ) -> str | None:
    """A stored instance of `env` (of one source, or any) drawn with secret randomness, as a
    config's record; None when none is stored. Drawn among those `player` (an identity) has not
    sat at yet when there are any: a person who met an instance was told its answer at the end."""
    name = setting(env)
    # NOT IN over no NULLs: a game of this env without the setting (a generated puzzle) plays
    # no stored instance.
    unplayed = conn.execute(
        "SELECT source, id FROM maze_instances WHERE env = ? AND (? IS NULL OR source = ?) "
        "AND record NOT IN (SELECT json_extract(g.config, ?) FROM players pl JOIN seats s ON "
        "s.player_id = pl.id JOIN games g ON g.id = s.game_id WHERE pl.identity = ? AND "
        "g.env = ? AND json_extract(g.config, ?) IS NOT NULL)",
        (env, source, source, f"$.{name}", player, env, f"$.{name}")).fetchall()
    pool = unplayed or conn.execute(
        "SELECT source, id FROM maze_instances WHERE env = ? AND (? IS NULL OR source = ?)",
        (env, source, source)).fetchall()
    if not pool:
        return None
    drawn_source, drawn_id = secrets.choice(pool)
    return stored_record(conn, env, drawn_id, drawn_source)


def stored_records(conn: sqlite3.Connection, env: str, source: str | None = None
                   ) -> list[tuple[str, str, str]]:
    """Every stored instance of `env` (of one source, or all) as (source, id, record), in
    (source, id) order."""
    return conn.execute("SELECT source, id, record FROM maze_instances WHERE env = ? AND "
                        "(? IS NULL OR source = ?) ORDER BY source, id",
                        (env, source, source)).fetchall()
