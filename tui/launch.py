"""Entry points the `parlor` CLI calls: play locally on an embedded server, or join a remote one."""

from __future__ import annotations

import getpass
from pathlib import Path
from typing import Any

from tui.app import ParlorApp

MAX_NAME = 40


def default_name() -> str:
    try:
        return getpass.getuser()[:MAX_NAME] or "player"
    except (KeyError, OSError):  # no login name (containers, odd environments)
        return "player"


def run_remote(url: str, name: str | None = None, server_key: str | None = None, *,
               invite: str | None = None, cafile: str | None = None,
               database: str | None = None, ask_name: bool = False) -> int:
    """Open the TUI connected to a Parlor server at `url` (ws://HOST:PORT or wss://...);
    `invite`: a code for a new name on an invite-only server; `cafile`: certificates to trust
    for wss:// (default: the system's); `database`: the file of an embedded server, shown in
    the lobby (the path printed on start is covered by the TUI at once); `ask_name`: ask for
    the name on screen instead (a browser tab: ParlorApp keeps its token for the session)."""
    app = ParlorApp(url, None if ask_name else name or default_name(), server_key,
                    invite=invite, cafile=cafile, database=database)
    app.run()
    return app.return_code or 0


def run_local(db_path: str, name: str | None = None, **server_options: Any) -> int:
    """Start an embedded server on `db_path` (creating its folder), play on it, stop it on exit.
    `server_options`: the server's (what answers `report`, handed in by the command)."""
    from server.net.embedded import start_embedded  # the server side loads only for local play

    db = Path(db_path).expanduser().resolve()
    db.parent.mkdir(parents=True, exist_ok=True)
    server = start_embedded(str(db), **server_options)
    try:  # the embedded server's port changes every run; its database does not
        return run_remote(server.url, name, f"local:{db}", database=str(db))
    finally:
        server.stop()
