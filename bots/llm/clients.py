"""SDK clients shared by every LLM seat of one owner: a server (every table and game it plays:
`parlor serve`, `parlor sim` and each of its `--workers`, every league), which closes them when
it stops.

Building an `openai.AsyncOpenAI` or `anthropic.AsyncAnthropic` costs tens of milliseconds of CPU
on the event loop (an SSL context, an HTTP pool), more than the calls of a short game: so one
client per (provider, base URL, key, client options) is made on first use and reused by every
seat that calls the same endpoint with the same key. Clients hold connections bound to one event
loop, so the pool keeps them per loop. This module imports no SDK: servers hold a pool whether or
not they ever seat a model.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Hashable
from typing import Any


class ClientPool:
    def __init__(self) -> None:
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop,
                                                 dict[Hashable, Any]] = weakref.WeakKeyDictionary()
        self.made = 0  # clients built so far (what sharing saves shows here)

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The running loop's client for `key`, made by `make()` the first time."""
        clients = self._clients.setdefault(asyncio.get_running_loop(), {})
        client = clients.get(key)
        if client is None:
            client = clients[key] = make()
            self.made += 1
        return client

    async def aclose(self) -> None:
        """Close the running loop's clients (the next call, if any, makes new ones)."""
        clients = self._clients.pop(asyncio.get_running_loop(), {})
        for client in clients.values():
            try:
                await client.close()
            except Exception:  # noqa: BLE001 - closing is best effort, the rest still close
                pass
