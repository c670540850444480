"""Where Parlor keeps its database when no --db is given, and whether a file can be used as one:
`parlor` and `parlor serve` share the file, whatever the working directory."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DB_HELP = ("SQLite file (default: $PARLOR_HOME/parlor.db, else $XDG_DATA_HOME/parlor/parlor.db, "
           "else ~/.local/share/parlor/parlor.db)")


def default_db(environ: Mapping[str, str] | None = None) -> Path:
    """Where `parlor` and `parlor serve` keep their database when no --db is given: the same
    file whatever the working directory."""
    env = os.environ if environ is None else environ
    if env.get("PARLOR_HOME"):
        return Path(env["PARLOR_HOME"]).expanduser() / "parlor.db"
    xdg = env.get("XDG_DATA_HOME")
    if xdg and Path(xdg).is_absolute():  # the XDG spec: a relative path is to be ignored
        return Path(xdg) / "parlor" / "parlor.db"
    return Path.home() / ".local" / "share" / "parlor" / "parlor.db"


def unusable(db: Path) -> str | None:
    """Why the database at `db` cannot be used, or None: its folder is made if need be and the
    file opened (and brought to the current schema) as the server will open it."""
    import asyncio
    import sqlite3

    from server.store.store import Store

    folder = db.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is a file, not a folder"
    if db.is_dir():
        return "it is a folder; give the path of a file in it (e.g. parlor.db)"

    async def open_and_close() -> None:
        store = await Store.open(db)
        await store.close()
    try:
        asyncio.run(open_and_close())
    except OSError as e:
        where = f" ({e.filename})" if e.filename and str(e.filename) != str(db) else ""
        return f"{(e.strerror or str(e)).lower()}{where}"
    except (sqlite3.Error, RuntimeError) as e:
        return str(e)
    return None
