"""`parlor forget NAME`: remove a person's identifying data (server/store/forget.py says what and
how; docs/operations.md, "Forgetting a person", says it for hosts)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from server.store.location import DB_HELP


def add_parser(sub: Any) -> None:
    forget = sub.add_parser("forget", help="remove a person's name, token and words from the "
                                           "database; their games stay, for the others")
    forget.add_argument("name", help="the person's name")
    forget.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)
    forget.add_argument("--yes", action="store_true", help="do not ask to confirm")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncio
    import sqlite3

    from server.commands.database import database
    from server.store import forget
    from server.store.store import Store

    db = database(args)
    conn = Store._connect(db)  # an older file is brought to the schema first
    try:
        name, identity = forget.find_person(conn, args.name)
        games = conn.execute("SELECT count(DISTINCT game_id) FROM seats WHERE identity = ?",
                             (identity,)).fetchone()[0]
        marker = forget.marker_for(conn, identity)
    except forget.UnknownPerson as e:
        print(f"parlor forget: {e}", file=sys.stderr)
        return 2
    finally:
        conn.close()
    print(f"{name!r} sat at {games} game(s). Forgetting them replaces their name by {marker!r} "
          f"everywhere (ratings keep their numbers), drops their login token and form answers, "
          f"and replaces what they wrote at the table by {forget.MARKER!r}. Stop the server "
          f"first (or be sure they are not connected). This cannot be undone.")
    if not args.yes:
        try:
            answer = input("Forget them? [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing changed.")
            return 1
    try:
        report = asyncio.run(forget.forget(db, name))
    except sqlite3.OperationalError as e:  # a server holding the file mid-write
        print(f"parlor forget: the database is busy ({e}); stop the server and run it again",
              file=sys.stderr)
        return 1
    print(f"Forgot {report.name!r}: now {report.marker!r} in {report.games} game(s); "
          f"{report.removed} text(s) replaced by {forget.MARKER!r}.")
    if report.kept:
        print(f"{report.kept} text(s) kept: moves the rules judged by their text (a clue, an "
              f"answer), which the games need to replay.")
    if report.unreplayable:
        print(f"Game(s) {', '.join(map(str, report.unreplayable))} no longer replay under "
              f"today's rules: redacted in place.")
    if report.residue:
        print(f"The name still appears in: {', '.join(report.residue)} (another player's "
              f"move, say); look at them before you share the file.")
    return 0
