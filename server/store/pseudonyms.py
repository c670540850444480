"""Pseudonymous ids for people in exports and reports: `p-` and 12 hex digits.

A person's pseudonym is an HMAC of their identity under a key that only this database holds
(`settings.pseudonym_key`, 256 bits drawn by SQLite's CSPRNG when the schema was made), and of the
study's name, so the same person keeps one id across every export of one study but two studies (or
two databases) cannot be joined on it, and nobody without the database can test a guessed name
against an id. Bots are not people: their identity ("scripted:agent", "openai:gpt-4o") is what a
report compares, and is kept as it is.
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
from collections.abc import Callable

Label = Callable[[str, str], str]  # (identity, kind) -> how a row names the player

KEY_SETTING = "pseudonym_key"
PREFIX = "p-"


class PseudonymKeyMissing(RuntimeError):
    """A database whose schema predates pseudonyms was opened read-only: it has no key yet."""


def pseudonym_key(conn: sqlite3.Connection) -> bytes:
    row = conn.execute("SELECT value FROM settings WHERE key = ?", (KEY_SETTING,)).fetchone()
    if row is None:
        raise PseudonymKeyMissing("this database has no pseudonym key yet: open it once with "
                                  "parlor (any command that writes) to upgrade it")
    return bytes.fromhex(row[0])


def pseudonym(key: bytes, identity: str, study: str = "") -> str:
    digest = hmac.new(key, f"{study}\x00{identity}".encode(), hashlib.sha256).hexdigest()
    return PREFIX + digest[:12]


class Pseudonyms:
    """Names people by pseudonym and keeps bots' identities; one per export or report."""

    def __init__(self, conn: sqlite3.Connection, study: str = "") -> None:
        self._key = pseudonym_key(conn)
        self._study = study
        self._cache: dict[str, str] = {}

    def label(self, identity: str, kind: str) -> str:
        if kind != "human":
            return identity
        found = self._cache.get(identity)
        if found is None:
            found = self._cache[identity] = pseudonym(self._key, identity, self._study)
        return found


def labeller(conn: sqlite3.Connection, study: str = "", names: bool = False) -> Label:
    """How an export names players: people by pseudonym (the study's), or by their identity
    when names were asked for; bots by their identity either way."""
    return (lambda identity, kind: identity) if names else Pseudonyms(conn, study).label
