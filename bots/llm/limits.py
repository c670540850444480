"""Per-identity limits shared by every seat of the same model in this process: calls in flight
(a semaphore) and requests per minute (a sliding window of start times)."""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

WINDOW = 60.0


class RateLimiter:
    """At most `rpm` request starts in any 60-second window (0 = unlimited)."""

    def __init__(self, rpm: int, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.rpm = rpm
        self.clock = clock
        self.sleep = sleep
        self._starts: deque[float] = deque()
        self._lock = asyncio.Lock()

    async def wait(self) -> float:
        """Wait for a free slot; returns the seconds waited."""
        if self.rpm <= 0:
            return 0.0
        waited = 0.0
        async with self._lock:
            while True:
                now = self.clock()
                while self._starts and now - self._starts[0] >= WINDOW:
                    self._starts.popleft()
                if len(self._starts) < self.rpm:
                    self._starts.append(now)
                    return waited
                delay = WINDOW - (now - self._starts[0])
                await self.sleep(delay)
                waited += delay


class Limits:
    def __init__(self, concurrency: int, rpm: int) -> None:
        self.semaphore = asyncio.Semaphore(concurrency)
        self.rate = RateLimiter(rpm)

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[float]:
        """Hold one call slot; yields the seconds spent waiting for the rate limit."""
        async with self.semaphore:
            yield await self.rate.wait()


# event loop -> (identity, concurrency, rpm) -> Limits. asyncio primitives belong to one loop.
_SHARED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop,
                                   dict[tuple[str, int, int], Limits]] = weakref.WeakKeyDictionary()


def limits_for(identity: str, concurrency: int, rpm: int) -> Limits:
    per_loop = _SHARED.setdefault(asyncio.get_running_loop(), {})
    key = (identity, concurrency, rpm)
    if key not in per_loop:
        per_loop[key] = Limits(concurrency, rpm)
    return per_loop[key]
