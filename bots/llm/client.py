"""One model behind a spec, as every caller of it needs it: the provider, the identity's rate
limits, retries with backoff, and the price. `call` makes one completion (retried as the spec's
settings say) and adds its text, usage and cost to a `Decision` tally and its transcript. The
LLM bot and the LLM judge both call models through it."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Mapping
from typing import Any

from bots.base import BotError, Decision
from bots.llm.limits import limits_for
from bots.llm.prices import Price, find_price, load_prices
from bots.llm.providers import Completion, Provider, ProviderError
from bots.llm.retry import CallRecord, Sleep, call_with_retries
from bots.llm.spec import LLMSpec


class ModelClient:
    def __init__(self, spec: LLMSpec, provider: Provider, seed: int = 0, *,
                 environ: Mapping[str, str] | None = None, sleep: Sleep = asyncio.sleep) -> None:
        self.spec = spec
        self.identity = spec.identity
        self.provider = provider
        self.price: Price | None = find_price(load_prices(environ), spec.provider, spec.model,
                                              spec.identity)
        self.rng = random.Random(seed)  # backoff jitter only
        self.sleep = sleep

    async def aclose(self) -> None:
        await self.provider.aclose()

    async def call(self, system: str, messages: list[dict[str, str]], params: dict[str, Any],
                   tally: Decision) -> str:
        """The model's reply to `messages`; usage, cost and the reply go into `tally`. Raises
        BotError (with the transcript so far) once the retries are spent."""
        settings = self.spec.settings
        limits = limits_for(self.identity, settings.concurrency, settings.rpm)
        pool = getattr(self.provider, "pool", None)  # the owner's endpoint limits and meter
        endpoint = pool.limits(self.spec.provider, self.spec.base_url) if pool else None
        record = CallRecord()

        async def attempt() -> Completion:
            async with contextlib.AsyncExitStack() as held:
                if endpoint is not None:
                    record.waited += await held.enter_async_context(endpoint.slot())
                record.waited += await held.enter_async_context(limits.slot())
                try:
                    return await self.provider.complete(system, list(messages), params)
                except ProviderError as e:
                    if pool is not None:
                        pool.meter.failed({"status": e.status, "error": str(e)})
                    raise

        try:
            completion = await call_with_retries(attempt, settings, self.rng, record,
                                                 what=self.identity, sleep=self.sleep)
        except BotError as e:
            tally.transcript.append({"role": "assistant", "content": None,
                                     "failed_attempts": record.failures})
            e.transcript = tally.transcript  # type: ignore[attr-defined]
            raise
        cost = self.price.cost(completion.prompt_tokens, completion.completion_tokens,
                               completion.cached_tokens) if self.price else 0.0
        if pool is not None:
            pool.meter.completed(cost, completion.finish_reason)
        tally.prompt_tokens += completion.prompt_tokens
        tally.completion_tokens += completion.completion_tokens
        tally.cached_tokens += completion.cached_tokens
        tally.cost += cost
        tally.retries += record.retries
        tally.transcript.append({
            "role": "assistant", "content": completion.text,
            "finish_reason": completion.finish_reason,
            "usage": {"latency_ms": round(completion.latency_ms, 3),
                      "prompt_tokens": completion.prompt_tokens,
                      "completion_tokens": completion.completion_tokens,
                      "cached_tokens": completion.cached_tokens, "cost": cost},
            "failed_attempts": record.failures, "waited_s": round(record.waited, 3)})
        return completion.text
