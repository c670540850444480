"""Host accounts: invite codes for an invite-only server, and the host's admin token.

Both live in the server's database (schema v7), as hashes only: a copy of the database gives
away neither a usable invite nor the admin token. `parlor serve invite` and `parlor serve
admin-token` write them while a server runs on the same file (SQLite serialises the writers);
the server reads them at each use, so a new code or token works at once.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import time
from typing import Any

INVITE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud, typed by hand
INVITE_GROUPS = 3
INVITE_GROUP_CHARS = 4  # 12 characters from 31: about 59 bits


class InviteError(Exception):
    """A new name on an invite-only server without a usable invite; `code` is the protocol's
    error code (`invite_required` or `bad_invite`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def normal_invite(code: str) -> str:
    """An invite as typed (any case, spaces or dashes anywhere) in its one stored form."""
    return "".join(c for c in code.lower() if c in INVITE_ALPHABET)


def new_invite_code() -> str:
    """"k7qm-x2pa-9fzt": groups of letters and digits that cannot be misread."""
    return "-".join("".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_GROUP_CHARS))
                    for _ in range(INVITE_GROUPS))


def create_invites(c: sqlite3.Connection, count: int, note: str = "") -> list[str]:
    """`count` new invite codes (each good for one new name), committed; returns them."""
    codes = [new_invite_code() for _ in range(count)]
    now = time.time()
    with c:
        c.executemany("INSERT INTO invites (code_hash, created, note) VALUES (?, ?, ?)",
                      [(_hash(normal_invite(code)), now, note) for code in codes])
    return codes


def list_invites(c: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every invite, oldest first: when made, its note, who used it and when (no codes: only
    their hashes are kept)."""
    rows = c.execute("SELECT created, note, used_by, used_at FROM invites ORDER BY created, "
                     "rowid").fetchall()
    return [{"created": r[0], "note": r[1], "used_by": r[2], "used_at": r[3]} for r in rows]


def use_invite(c: sqlite3.Connection, code: str | None, identity: str) -> None:
    """Spend an invite on a new name (inside the caller's transaction), or raise InviteError."""
    if not code:
        # no client's flag named: the terminal's adds "--invite CODE", a browser tab asks
        raise InviteError("invite_required", "this server is invite-only: a new name needs an "
                                             "invite code from the host")
    row = c.execute("SELECT used_by FROM invites WHERE code_hash = ?",
                    (_hash(normal_invite(code)),)).fetchone()
    if row is None:
        raise InviteError("bad_invite", "this invite code is not one of this server's; check it "
                                        "with the host")
    if row[0] is not None:
        raise InviteError("bad_invite", "this invite code has already been used; ask the host "
                                        "for another")
    c.execute("UPDATE invites SET used_by = ?, used_at = ? WHERE code_hash = ?",
              (identity, time.time(), _hash(normal_invite(code))))


def new_admin_token(c: sqlite3.Connection) -> str:
    """A new host admin token, replacing any earlier one (which stops working at once)."""
    token = secrets.token_urlsafe(32)
    with c:
        c.execute("INSERT INTO settings (key, value) VALUES ('admin_token_hash', ?) "
                  "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (_hash(token),))
    return token


def admin_token_matches(c: sqlite3.Connection, token: str) -> bool:
    """Whether `token` is the host's current admin token (False when none was made)."""
    row = c.execute("SELECT value FROM settings WHERE key = 'admin_token_hash'").fetchone()
    return row is not None and hmac.compare_digest(row[0], _hash(token))
