"""`parlor serve invite | admin-token | backup`: the host's tasks on a server's database, run
beside a running server (SQLite serialises the writers; a backup is a consistent snapshot)."""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path

from server.store import accounts
from server.store.store import Store

MAX_INVITES = 1000


def run_hosting(args: argparse.Namespace, db: str) -> int:
    if args.serve_command == "backup":
        return backup(db, Path(args.path))
    conn = Store._connect(db)  # brings an older file to the schema with invites
    try:
        if args.serve_command == "admin-token":
            print(accounts.new_admin_token(conn))
            print("This replaces any earlier admin token. Give it to `parlor admin` as "
                  "$PARLOR_ADMIN_TOKEN; keep it secret.", file=sys.stderr)
            return 0
        if args.list:
            return _list_invites(conn)
        if not 1 <= args.count <= MAX_INVITES:
            print(f"parlor serve invite: --count must be 1..{MAX_INVITES}", file=sys.stderr)
            return 2
        for code in accounts.create_invites(conn, args.count, args.note):
            print(code)
        print("Each code lets one new name join a server run with --invite-only (parlor play "
              "--server URL --name NAME --invite CODE); new codes work at once, also on a "
              "running server.", file=sys.stderr)
        return 0
    finally:
        conn.close()


def _list_invites(conn: sqlite3.Connection) -> int:
    invites = accounts.list_invites(conn)
    if not invites:
        print("No invites yet: `parlor serve invite --count N` makes some.")
    for invite in invites:
        made = time.strftime("%Y-%m-%d %H:%M", time.localtime(invite["created"]))
        used = (f"used by {invite['used_by'].removeprefix('human:')} on "
                f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(invite['used_at']))}"
                if invite["used_by"] else "unused")
        note = f"  ({invite['note']})" if invite["note"] else ""
        print(f"{made}  {used}{note}")
    return 0


def backup(db: str, target: Path) -> int:
    """Copy `db` to `target` with SQLite's online backup (a consistent snapshot, even while a
    server writes), then check the copy's integrity."""
    if target.exists():
        print(f"parlor serve backup: {target} exists; give a new file", file=sys.stderr)
        return 2
    if not target.parent.is_dir():
        print(f"parlor serve backup: {target.parent} is not a folder", file=sys.stderr)
        return 2
    source = sqlite3.connect(db)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
            (check,) = copy.execute("PRAGMA integrity_check").fetchone()
            games = copy.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            copy.close()
    finally:
        source.close()
    if check != "ok":
        print(f"parlor serve backup: the copy failed its integrity check: {check}",
              file=sys.stderr)
        return 1
    print(f"Backed up {db} to {target} ({games} games; integrity check ok).")
    return 0
