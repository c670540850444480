"""`parlor export --format FORMAT`: stored games as a research dataset, JSON Lines.

The database is opened read-only (SQLite URI mode=ro), so an export may run beside a server
that is writing to it, and it never creates or upgrades a database. Rows are written one at a
time as they are made (to a FILE.part, renamed to FILE at the end, so a stopped export leaves no
half file under FILE: server/reports/outfile.py). One line on stderr says what was written and what was skipped.

Formats (each a module that yields rows from a read-only connection):
- mindgames: one row per player trajectory, spec mindgames §10 (server/reports/export_mindgames.py).
- socialmaze: one row per answer given in the six SocialMaze tasks (server/reports/export_socialmaze.py).
- games, actions: every env's games, one row per game and one per decision, people under
  pseudonyms (server/reports/export_dataset.py); to stdout as JSON Lines (one format), or with
  `--out DIR` (one format or both) as a dataset directory that the Hugging Face `datasets`
  library loads, Parquet and JSON Lines beside a dataset card (server/reports/dataset_files.py),
  written to DIR.part and renamed to DIR at the end.

Bad input exits 2 with one line naming the problem and the valid choices.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from engine.core import UnknownEnvError
from engine.registry import env_ids, get
from server.reports import export_dataset, export_mindgames, export_socialmaze
from server.reports.outfile import Refused, out_dir, out_path, write_dir, write_out
from server.store.location import default_db
from server.store.pseudonyms import PseudonymKeyMissing, Pseudonyms
from server.wire.jsontext import dumps

# format -> (the module making its rows, one-line description)
FORMATS: dict[str, tuple[Any, str]] = {
    "mindgames": (export_mindgames, "one JSON line per player trajectory (MindGames §10): "
                                    "game, seat, identity, opponents, rewards, each turn's "
                                    "observation and action"),
    "socialmaze": (export_socialmaze, "one JSON line per SocialMaze answer, people's and "
                                      "models' alike: game, instance id and hash, player, "
                                      "which answer, the answer, the expected one, right or "
                                      "not, the decision's time"),
    "games": (export_dataset, "one row per game of every environment: env, preset, rules "
                              "version, config hash, seed, status, players by kind and "
                              "pseudonym with their roles, rewards and winners, every metric"),
    "actions": (export_dataset, "one row per decision of every environment: game, seat, "
                                "player, step, the seat's observation, the action, its outcome "
                                "and error, a person's think time or a model's usage"),
}
DATASET = export_dataset.CONFIGS  # the formats written together as one dataset directory
MIN_SCHEMA = 4  # the first schema with every column an export reads (actions.category, fatal)


def run_export(args: argparse.Namespace) -> int:
    formats = tuple(dict.fromkeys(args.format))
    if set(formats) <= set(DATASET):
        return _run_dataset(args, formats)
    dataset_only = ["--license"] if args.license != "other" else []
    if len(formats) > 1 or dataset_only:
        print(f"parlor export: --format {' '.join(formats)}: " + (
            f"only {' and '.join(DATASET)} are written together (as one dataset directory); "
            f"export the others one at a time" if len(formats) > 1 else
            f"{', '.join(dataset_only)} only applies to --format {' and '.join(DATASET)}"),
            file=sys.stderr)
        return 2
    fmt = formats[0]
    module = FORMATS[fmt][0]
    try:
        envs = _envs(fmt, module.ENVS, args.env)
        db = database(args.db)
        out = out_path(args.out, args.force, "mindgames.jsonl", db, "the database itself")
        conn, people = _open(db, args.study)
        label = (lambda identity, kind: identity) if args.names else people.label
    except Refused as e:
        print(f"parlor export: {e}", file=sys.stderr)
        return 2
    tally = module.Tally()
    try:
        written = write_out(out, lambda stream: _write(module.rows(conn, envs, tally, label),
                                                       stream))
        _left_out(conn, envs, module.ENVS, tally)
    finally:
        conn.close()
    return _said(written, db, out, tally)


def _open(db: Path, study: str) -> tuple[sqlite3.Connection, Pseudonyms]:
    """The database, read-only, and its people's pseudonyms (the study's)."""
    conn = connect(db)
    try:
        return conn, Pseudonyms(conn, study)
    except PseudonymKeyMissing as e:
        conn.close()
        raise Refused(f"{db}: {e}") from None


def _run_dataset(args: argparse.Namespace, formats: tuple[str, ...]) -> int:
    """The games and/or actions datasets: JSON Lines to stdout (one format) or a directory."""
    try:
        envs = _envs(" ".join(formats), export_dataset.ENVS, args.env)
        db = database(args.db)
        if args.out == "-" and len(formats) > 1:
            raise Refused(f"--format {' '.join(formats)} is a dataset directory: name it with "
                          f"--out DIR (stdout takes one format as JSON Lines)")
        folder = None if args.out == "-" else out_dir(args.out, args.force, db,
                                                      "the database itself")
        conn, people = _open(db, args.study)
    except Refused as e:
        print(f"parlor export: {e}", file=sys.stderr)
        return 2
    tally = export_dataset.DatasetTally()
    try:
        rows = export_dataset.dataset_rows(conn, envs, tally, formats, people, names=args.names)
        if folder is None:
            written = write_out(None, lambda stream: _write((r for _, r in rows), stream))
        else:
            written = _write_folder(folder, rows, formats, tally, args)
        _left_out(conn, envs, export_dataset.ENVS, tally)
    finally:
        conn.close()
    if not tally.games and folder is not None:  # a dataset of no row cannot even be loaded
        print(f"parlor export: {db}: no game to export, nothing written: "
              f"{tally.summary(str(folder)).split('; ', 1)[1]}", file=sys.stderr)
        return 1
    return _said(written, db, folder, tally)


def _write_folder(folder: Path, rows: Any, formats: tuple[str, ...],
                  tally: export_dataset.DatasetTally, args: argparse.Namespace) -> bool:
    """The dataset directory, with its card; nothing at all when no game was found."""
    from server.reports import dataset_files

    made = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")

    def write(part: Path) -> None:
        dataset_files.write_dataset(part, rows, formats, lambda: dataset_files.card(
            formats, dict(tally.by_env), tally.games, tally.void, names=args.names,
            study=args.study, license_id=args.license, made=made))
        if not tally.games:
            raise _Empty

    try:
        write_dir(folder, write)
    except _Empty:
        return False
    return True


class _Empty(Exception):
    """No game to export: the dataset directory is not made."""


def _left_out(conn: sqlite3.Connection, envs: tuple[str, ...], own: tuple[str, ...],
              tally: Any) -> None:
    tally.count_left_out(conn, envs, own, {name: m.ENVS for name, (m, _) in FORMATS.items()})


def _said(written: bool, db: Path, out: Path | None, tally: Any) -> int:
    """Say on stderr what was written and skipped; the exit status."""
    if not written:
        return 141  # stdout closed early (e.g. `| head`): nothing more to say
    where = "stdout" if out is None else str(out)
    print(f"parlor export: {db}: {tally.summary(where)}", file=sys.stderr)
    return 0


def _envs(fmt: str, supported: tuple[str, ...], chosen: list[str] | None) -> tuple[str, ...]:
    if not chosen:
        return supported
    for env_id in chosen:
        try:
            get(env_id)
        except UnknownEnvError:
            raise Refused(f"unknown environment {env_id!r}; valid environments for --format "
                          f"{fmt}: {', '.join(supported)}") from None
        if env_id not in supported:
            raise Refused(f"{env_id} is not a {fmt} environment; valid environments for "
                          f"--format {fmt}: {', '.join(supported)} (all: "
                          f"{', '.join(env_ids())})")
    return tuple(dict.fromkeys(chosen))


def database(given: str | None) -> Path:
    db = (Path(given).expanduser() if given else default_db()).absolute()
    if not db.exists():
        raise Refused(f"no database at {db}; give the file with --db (reading never "
                      f"creates one)")
    if db.is_dir():
        raise Refused(f"{db} is a folder; give the database file with --db (e.g. parlor.db)")
    return db


def connect(db: Path) -> sqlite3.Connection:
    """A read-only connection to a Parlor database of a schema the export can read."""
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        version = conn.execute("SELECT version FROM schema_version").fetchone()
    except sqlite3.Error as e:
        conn.close()
        if isinstance(e, sqlite3.DatabaseError) and ("not a database" in str(e)
                                                     or "no such table" in str(e)):
            raise Refused(f"{db} is not a Parlor database ({e})") from None
        raise Refused(f"cannot read the database {db}: {e}") from None
    from server.store.migrations import MIGRATIONS

    if version is None or version[0] < MIN_SCHEMA:
        conn.close()
        raise Refused(f"{db} has an old schema (v{version[0] if version else 0}, this Parlor "
                      f"writes v{len(MIGRATIONS)}); open it once with `parlor serve --db "
                      f"{db}` to upgrade it, then export")
    return conn


def _write(rows: Any, stream: IO[str]) -> None:
    """Write each row as a line."""
    for r in rows:
        stream.write(dumps(r))
        stream.write("\n")
