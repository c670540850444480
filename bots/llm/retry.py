"""Bounded retries with exponential backoff and jitter, honouring Retry-After.

A retryable failure (timeout, connection reset, 429, 5xx, garbled body) waits
`backoff * 2**k` seconds scaled by a random factor in [0.5, 1], capped at `backoff_max`, or the
server's Retry-After when that is longer. A Retry-After beyond `max_wait`, a non-retryable
failure, or running out of attempts raises BotError: a failed call, not an invalid move.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bots.base import BotError
from bots.llm.providers import Completion, ProviderError
from bots.llm.settings import LLMSettings

Sleep = Callable[[float], Awaitable[Any]]


@dataclass
class CallRecord:
    """One logical call: its result and every failed attempt before it."""

    completion: Completion | None = None
    failures: list[dict[str, Any]] = field(default_factory=list)
    waited: float = 0.0  # seconds slept between attempts

    @property
    def retries(self) -> int:
        return len(self.failures) if self.completion else max(len(self.failures) - 1, 0)


def backoff_delay(attempt: int, settings: LLMSettings, rng: random.Random,
                  retry_after: float | None) -> float:
    """Seconds to wait before attempt `attempt + 1` (attempt counts from 0)."""
    delay = min(settings.backoff * 2 ** attempt, settings.backoff_max)
    delay *= 0.5 + rng.random() / 2
    return max(delay, retry_after or 0.0)


async def call_with_retries(attempt: Callable[[], Awaitable[Completion]], settings: LLMSettings,
                            rng: random.Random, record: CallRecord, *, what: str,
                            sleep: Sleep = asyncio.sleep) -> Completion:
    """Run `attempt` until it succeeds; failures are appended to `record.failures`."""
    for n in range(settings.retries + 1):
        try:
            record.completion = await attempt()
            return record.completion
        except ProviderError as e:
            failure: dict[str, Any] = {"attempt": n + 1, "error": str(e), "status": e.status,
                                       "retry_after": e.retry_after}
            record.failures.append(failure)
            if not e.retryable:
                raise BotError(f"{what}: {e}") from e
            if e.retry_after is not None and e.retry_after > settings.max_wait:
                raise BotError(f"{what}: the server asked to wait {e.retry_after:.0f} s, more "
                               f"than max_wait={settings.max_wait:g} s ({e})") from e
            if n == settings.retries:
                break
            delay = backoff_delay(n, settings, rng, e.retry_after)
            failure["wait"] = round(delay, 3)
            record.waited += delay
            await sleep(delay)
    last = record.failures[-1]["error"] if record.failures else "no attempt made"
    raise BotError(f"{what}: failed after {len(record.failures)} attempt(s); last error: {last}")
