"""What every LLM seat of one owner shares: a server (every table and game it plays: `parlor
serve`, `parlor sim` and each of its `--workers`, every league and campaign), which closes the
clients when it stops. The SDK clients; the limits per endpoint a campaign sets (calls in flight
and requests per minute over every seat and model calling it, `--limit`); the meter of spend
and errors (bots/llm/meter.py).

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

from bots.llm.limits import Limits
from bots.llm.meter import Meter


class ClientPool:
    def __init__(self) -> None:
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop,
                                                 dict[Hashable, Any]] = weakref.WeakKeyDictionary()
        self.made = 0  # clients built so far (what sharing saves shows here)
        self.meter = Meter()
        # provider -> (calls in flight, requests per minute; 0: unlimited), each endpoint of the
        # provider held to them apart (an openai-compatible server per base URL)
        self.endpoint_limits: dict[str, tuple[int, int]] = {}
        self._limits: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop,
                                                dict[tuple[str, str], Limits]] = \
            weakref.WeakKeyDictionary()

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The running loop's client for `key`, made by `make()` the first time."""
        clients = self._clients.setdefault(asyncio.get_running_loop(), {})
        client = clients.get(key)
        if client is None:
            client = clients[key] = make()
            self.made += 1
        return client

    def limits(self, provider: str, base_url: str) -> Limits | None:
        """The running loop's limits for the endpoint, if its provider has some."""
        if provider not in self.endpoint_limits:
            return None
        per_loop = self._limits.setdefault(asyncio.get_running_loop(), {})
        limits = per_loop.get((provider, base_url))
        if limits is None:
            calls, rpm = self.endpoint_limits[provider]
            limits = per_loop[provider, base_url] = Limits(calls or 1_000_000, rpm)
        return limits

    async def aclose(self) -> None:
        """Close the running loop's clients (the next call, if any, makes new ones)."""
        clients = self._clients.pop(asyncio.get_running_loop(), {})
        for client in clients.values():
            try:
                await client.close()
            except Exception:  # noqa: BLE001 - closing is best effort, the rest still close
                pass
