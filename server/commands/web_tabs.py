"""textual-serve's server, made to stop on Ctrl+C with tabs open: aiohttp waits up to a minute
for running handlers before it stops, and each tab's websocket handler runs until its tab
closes. On shutdown each tab is told to quit (its app process exits) and its page is closed."""

from __future__ import annotations

import asyncio
from typing import Any

from textual_serve.server import Server


class TabServer(Server):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._tabs: set[asyncio.Task[Any]] = set()  # each open tab's websocket handler

    async def handle_websocket(self, request: Any) -> Any:
        tab = asyncio.current_task()
        assert tab is not None
        self._tabs.add(tab)
        try:
            return await super().handle_websocket(request)
        finally:
            self._tabs.discard(tab)

    async def on_shutdown(self, app: Any) -> None:
        tabs = list(self._tabs)
        for tab in tabs:
            tab.cancel()  # textual-serve then quits the tab's app and closes its websocket
        await asyncio.gather(*tabs, return_exceptions=True)
