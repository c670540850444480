"""Entry points the `parlor` CLI calls: play locally on an embedded server, or join a remote one."""

from __future__ import annotations

import contextlib
import getpass
import os
import threading
import time
from pathlib import Path
from typing import Any

from tui.app import ParlorApp

MAX_NAME = 40
PARENT_CHECK = 1.0  # seconds between looks at whether a browser tab's `parlor web` is alive


def default_name() -> str:
    try:
        return getpass.getuser()[:MAX_NAME] or "player"
    except (KeyError, OSError):  # no login name (containers, odd environments)
        return "player"


def run_remote(url: str, name: str | None = None, server_key: str | None = None, *,
               invite: str | None = None, cafile: str | None = None,
               database: str | None = None, ask_name: bool = False,
               replay: tuple[int, int | None] | None = None) -> int:
    """Open the TUI connected to a Parlor server at `url` (ws://HOST:PORT or wss://...);
    `invite`: a code for a new name on an invite-only server; `cafile`: certificates to trust
    for wss:// (default: the system's); `database`: the file of an embedded server, shown in
    the lobby (the path printed on start is covered by the TUI at once); `ask_name`: ask for
    the name on screen instead (a browser tab: ParlorApp keeps its token for the session);
    `replay`: (game id, seat or None) to open straight away, over the lobby."""
    app = ParlorApp(url, None if ask_name else name or default_name(), server_key,
                    invite=invite, cafile=cafile, database=database, replay=replay)
    if ask_name:
        _end_with_parent(app)
    app.run()
    return app.return_code or 0


def _end_with_parent(app: ParlorApp) -> None:
    """Quit `app` once the process that started it is gone: a browser tab's app outlives a
    `parlor web` that was killed (its input just stops), and would hold its seat and its
    memory for good."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        with contextlib.suppress(RuntimeError):  # not running (any more)
            app.call_from_thread(app.exit, 0)

    threading.Thread(target=watch, name="parlor-parent-watch", daemon=True).start()


def run_local(db_path: str, name: str | None = None, *,
              replay: tuple[int, int | None] | None = None, server_key: str | None = None,
              **server_options: Any) -> int:
    """Start an embedded server on `db_path` (creating its folder), play on it, stop it on exit.
    `server_options`: the server's (what answers `report`, handed in by the command);
    `replay`: a game to open at once (`run_remote`); `server_key`: where our token for it is
    kept (default: by the database's path; a scratch database's changes every run)."""
    from server.net.embedded import start_embedded  # the server side loads only for local play

    db = Path(db_path).expanduser().resolve()
    db.parent.mkdir(parents=True, exist_ok=True)
    server = start_embedded(str(db), **server_options)
    try:  # the embedded server's port changes every run; its database does not
        return run_remote(server.url, name, server_key or f"local:{db}", database=str(db),
                          replay=replay)
    finally:
        server.stop()
