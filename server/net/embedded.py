"""An in-process server for `parlor` local play: its own thread and event loop on a free
loopback port, so the TUI talks to it through the real protocol like any remote server."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from server.net.app import Server
from server.net.limits import UNLIMITED
from server.tables.policy import BotPolicy


class EmbeddedServer:
    def __init__(self, db_path: str, **options: Any) -> None:
        # Local play: the user's own machine and keys, so every bot and no LLM seat limits
        # (server/tables/policy.py, BotPolicy.local; docs/llm-bots.md).
        options.setdefault("bot_policy", BotPolicy.local())
        options.setdefault("limits", UNLIMITED)  # one person's own server
        self._server = Server(db_path, **options)
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stopped = asyncio.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="parlor-server", daemon=True)

    @property
    def url(self) -> str:
        return self._server.url

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._main())

    async def _main(self) -> None:
        try:
            await self._server.start("127.0.0.1", 0)
        except BaseException as e:  # noqa: BLE001 - reported to the starting thread
            self._error = e
            self._ready.set()
            return
        self._ready.set()
        await self._stopped.wait()
        await self._server.stop()

    def start(self) -> EmbeddedServer:
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise self._error
        return self

    def stop(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stopped.set)
            self._thread.join(30)


def start_embedded(db_path: str, **options: Any) -> EmbeddedServer:
    """Start a server on 127.0.0.1 (free port) in a background thread; `.url`, `.stop()`."""
    return EmbeddedServer(db_path, **options).start()
