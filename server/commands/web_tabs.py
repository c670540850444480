"""textual-serve's server, with what a host handing out a link needs on top:

- Ctrl+C stops it with tabs open: aiohttp waits up to a minute for running handlers before it
  stops, and each tab's websocket handler runs until its tab closes. On shutdown each tab is
  told to quit (its app process exits) and its page is closed.
- At most `max_tabs` tabs at once (each is a process): textual-serve starts one for anyone
  who opens the page. One more is refused (HTTP 503) and its page says it could not start.
- A tab's terminal size comes from the browser (the websocket's query, then `resize`
  messages); a page of a million columns would make its app draw, and hold, a screen that
  size. Sizes are kept to what a large screen shows.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web
from textual_serve.server import Server, log

MAX_COLUMNS, MAX_ROWS = 500, 200  # a 4K screen at a small font shows about 400 x 110 cells


def clamped(width: Any, height: Any) -> tuple[int, int]:
    """A terminal size a browser asked for, as whole cells within 1..MAX."""
    def cells(value: Any, most: int) -> int:
        try:
            return min(max(int(value), 1), most)
        except (TypeError, ValueError):
            return most // 4
    return cells(width, MAX_COLUMNS), cells(height, MAX_ROWS)


class _ClampedSizes:
    """A tab's app service whose terminal is never set larger than MAX."""

    def __init__(self, service: Any) -> None:
        self._service = service

    def __getattr__(self, name: str) -> Any:
        return getattr(self._service, name)

    async def set_terminal_size(self, width: Any, height: Any) -> None:
        await self._service.set_terminal_size(*clamped(width, height))


class TabServer(Server):
    def __init__(self, *args: Any, max_tabs: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_tabs = max_tabs
        self._tabs: set[asyncio.Task[Any]] = set()  # each open tab's websocket handler

    async def handle_websocket(self, request: Any) -> Any:
        if len(self._tabs) >= self.max_tabs:
            log.warning("refused a tab: %d are open (--max-tabs)", len(self._tabs))
            raise web.HTTPServiceUnavailable(text="every tab this server may run is open")
        tab = asyncio.current_task()
        assert tab is not None
        self._tabs.add(tab)
        width, height = clamped(request.query.get("width", 80), request.query.get("height", 24))
        request = request.clone(rel_url=request.rel_url.update_query(width=width, height=height))
        try:
            return await super().handle_websocket(request)
        finally:
            self._tabs.discard(tab)

    async def _process_messages(self, websocket: Any, app_service: Any) -> None:
        await super()._process_messages(websocket, _ClampedSizes(app_service))

    async def on_shutdown(self, app: Any) -> None:
        tabs = list(self._tabs)
        for tab in tabs:
            tab.cancel()  # textual-serve then quits the tab's app and closes its websocket
        await asyncio.gather(*tabs, return_exceptions=True)
