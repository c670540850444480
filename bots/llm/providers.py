"""One chat call through the official SDKs, with errors sorted into retryable or not.

The SDKs' own retries are switched off (max_retries=0): `bots.llm.retry` owns retries so that
every attempt, wait and Retry-After lands in the transcript and the limits apply per attempt.
"""

from __future__ import annotations

import asyncio
import email.utils
import time
import weakref
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import aiohttp
import anthropic
import openai
import orjson

from bots.llm.clients import ClientPool
from bots.llm.spec import LLMSpec


@dataclass
class Completion:
    text: str
    prompt_tokens: int  # all prompt tokens, cached ones included
    completion_tokens: int
    cached_tokens: int
    finish_reason: str | None
    latency_ms: float


class ProviderError(Exception):
    """A failed call. `retryable`: worth another attempt (timeouts, 429, 5xx, resets, garbled
    bodies); `retry_after`: seconds the server asked us to wait, if it said."""

    def __init__(self, message: str, *, retryable: bool, status: int | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after


RETRYABLE_STATUS = frozenset({408, 409, 425, 429})
_BEARER: Any = {"security": {"bearer_auth": True}}  # the auth chat.completions.create asks for


def retry_after_seconds(headers: Any) -> float | None:
    """Seconds from `retry-after-ms`, or `retry-after` as seconds or an HTTP date."""
    if headers is None:
        return None
    try:
        if headers.get("retry-after-ms"):
            return max(float(headers["retry-after-ms"]) / 1000, 0.0)
        value = headers.get("retry-after")
        if not value:
            return None
        try:
            return max(float(value), 0.0)
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(when.timestamp() - time.time(), 0.0)
    except (TypeError, ValueError, OverflowError):
        return None


def classify(exc: BaseException) -> ProviderError:
    """Turn an SDK or transport exception into a ProviderError."""
    if isinstance(exc, ProviderError):
        return exc
    refused = _refused(exc)
    if refused is not None:
        return ProviderError(f"connection failed: {refused}", retryable=True)
    if isinstance(exc, (TimeoutError, openai.APITimeoutError, anthropic.APITimeoutError)):
        return ProviderError("the call timed out", retryable=True)
    if isinstance(exc, (openai.APIConnectionError, anthropic.APIConnectionError)):
        return ProviderError(f"connection failed: {exc}", retryable=True)
    if isinstance(exc, (openai.APIStatusError, anthropic.APIStatusError)):
        status = exc.status_code
        retryable = status in RETRYABLE_STATUS or status >= 500
        hint = {401: " (is the API key right?)", 403: " (does the key have access?)",
                404: " (is the model name or base URL right?)"}.get(status, "")
        return ProviderError(f"HTTP {status}: {_short(exc.message)}{hint}", retryable=retryable,
                             status=status, retry_after=retry_after_seconds(exc.response.headers))
    if isinstance(exc, ValueError):  # an unreadable (e.g. truncated) JSON body
        return ProviderError(f"unreadable response: {_short(str(exc))}", retryable=True)
    return ProviderError(f"{type(exc).__name__}: {_short(str(exc))}", retryable=False)


def _aiohttp_client(sdk: Any, timeout: float) -> Any:
    """The SDK's HTTP client on aiohttp's transport (its `DefaultAioHttpClient`), with the SDK's
    own defaults; None (the SDK's httpx transport) for an SDK that has none. At 128 calls in
    flight httpx's connection pool scans every idle connection whenever a request starts or a
    response closes: with aiohttp an LLM decision costs about 1.9 ms of CPU in all, less than
    one bare httpx call's 2.2 ms (benchmarks/llm_pace.py)."""
    make = getattr(sdk, "DefaultAioHttpClient", None)
    return make(timeout=timeout) if make is not None else None


def _refused(exc: BaseException) -> BaseException | None:
    """The aiohttp error under an SDK error when the connection failed or dropped rather than
    timed out: the SDKs' aiohttp transport reports a refused or dropped connection as a connect
    timeout (it maps every `ClientConnectionError` to httpx's `ConnectTimeout`)."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, aiohttp.ClientConnectionError) and not isinstance(
                cause, (aiohttp.ServerTimeoutError, TimeoutError)):
            return cause
        cause = cause.__cause__
    return None


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


class Provider(ABC):
    """Talks to one endpoint. With a `ClientPool` (a server's), the SDK client is the pool's,
    shared with every other seat on the same endpoint and key, and the pool's owner closes it;
    without one, the provider makes its own, per event loop (their pools are loop-bound)."""

    def __init__(self, spec: LLMSpec, api_key: str, clients: ClientPool | None = None) -> None:
        self.spec = spec
        self.api_key = api_key
        self.pool = clients
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = \
            weakref.WeakKeyDictionary()

    def client(self) -> Any:
        if self.pool is not None:
            # Every option _make_client passes is in the key: seats differing in one never
            # share a client.
            key = (type(self).__name__, self.spec.base_url, self.api_key,
                   self.spec.settings.timeout)
            return self.pool.get(key, self._make_client)
        loop = asyncio.get_running_loop()
        if loop not in self._clients:
            self._clients[loop] = self._make_client()
        return self._clients[loop]

    async def aclose(self) -> None:
        """Close this loop's HTTP client (an unclosed one is only freed when collected); a
        pool's client is left to the pool's owner."""
        client = self._clients.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.close()

    async def complete(self, system: str, messages: list[dict[str, str]],
                       params: dict[str, Any]) -> Completion:
        """One attempt; raises ProviderError."""
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.spec.settings.timeout):
                response = await self._create(system, messages, params)
            completion = self._read(response)
        except Exception as exc:  # every failure becomes a ProviderError the caller judges
            raise classify(exc) from exc
        completion.latency_ms = (time.perf_counter() - started) * 1000
        return completion

    async def list_models(self) -> list[str]:
        """Model ids the endpoint offers (for `parlor bots check`)."""
        try:
            async with asyncio.timeout(self.spec.settings.timeout):
                page = await self.client().models.list()
        except Exception as exc:
            raise classify(exc) from exc
        return [m.id for m in getattr(page, "data", [])]

    @abstractmethod
    def _make_client(self) -> Any: ...

    @abstractmethod
    async def _create(self, system: str, messages: list[dict[str, str]],
                      params: dict[str, Any]) -> Any: ...

    @abstractmethod
    def _read(self, response: Any) -> Completion: ...


class OpenAIProvider(Provider):
    """OpenAI chat completions; also every OpenAI-compatible server (vLLM, Ollama, llama.cpp,
    OpenRouter), which take `max_tokens` rather than `max_completion_tokens`."""

    def _make_client(self) -> openai.AsyncOpenAI:
        return openai.AsyncOpenAI(api_key=self.api_key, base_url=self.spec.base_url,
                                  max_retries=0, timeout=self.spec.settings.timeout,
                                  http_client=_aiohttp_client(openai, self.spec.settings.timeout))

    async def _create(self, system: str, messages: list[dict[str, str]],
                      params: dict[str, Any]) -> Any:
        body: dict[str, Any] = {
            "model": self.spec.model,
            "messages": [{"role": "system", "content": system}, *messages]}
        tokens_key = "max_completion_tokens" if self.spec.provider == "openai" else "max_tokens"
        body[tokens_key] = params["max_tokens"]
        if params.get("reasoning_effort") is not None:  # the keys in create()'s order
            body["reasoning_effort"] = params["reasoning_effort"]
        if self.spec.settings.seed is not None:
            body["seed"] = self.spec.settings.seed
        for key in ("temperature", "top_p"):
            if params.get(key) is not None:
                body[key] = params[key]
        # The body as `chat.completions.create` would send it, posted through the same client
        # (same request, errors and retries): create() first runs a type-driven transform over
        # the body, which changes nothing in one of plain strings and numbers, and builds
        # pydantic models of the answer; the two were a third of the SDK's CPU per call
        # (benchmarks/llm_pace.py, its README section). The answer is read as JSON instead.
        raw = await self.client().post("/chat/completions", body=body, cast_to=bytes,
                                       options=_BEARER)
        return orjson.loads(raw)

    def _read(self, response: Any) -> Completion:
        try:
            choice = response["choices"][0]
            text = choice["message"].get("content") or ""
            usage = response.get("usage") or {}
            details = usage.get("prompt_tokens_details") or {}
            return Completion(text, usage.get("prompt_tokens") or 0,
                              usage.get("completion_tokens") or 0,
                              details.get("cached_tokens") or 0, choice.get("finish_reason"), 0.0)
        except (AttributeError, IndexError, KeyError, TypeError):
            raise ProviderError(f"response without a message: {_short(repr(response))}",
                                retryable=True) from None


class AnthropicProvider(Provider):
    def _make_client(self) -> anthropic.AsyncAnthropic:
        return anthropic.AsyncAnthropic(api_key=self.api_key, base_url=self.spec.base_url,
                                        max_retries=0, timeout=self.spec.settings.timeout,
                                        http_client=_aiohttp_client(anthropic,
                                                                    self.spec.settings.timeout))

    async def _create(self, system: str, messages: list[dict[str, str]],
                      params: dict[str, Any]) -> Any:
        # The body as `messages.create` would send it (its keys in the same order; the client
        # adds the same headers, anthropic-version and auth included), posted through the same
        # client, the answer read as JSON rather than into pydantic models: as OpenAIProvider.
        body: dict[str, Any] = {"max_tokens": params["max_tokens"], "messages": messages,
                                "model": self.spec.model}
        if params.get("reasoning_effort") is not None:
            body["output_config"] = {"effort": params["reasoning_effort"]}
        body["system"] = system
        # This SDK version no longer lists sampling knobs; the API still takes them in the body.
        for key in ("temperature", "top_p"):
            if params.get(key) is not None:
                body[key] = params[key]
        raw = await self.client().post("/v1/messages", body=body, cast_to=bytes)
        return orjson.loads(raw)

    def _read(self, response: Any) -> Completion:
        try:
            text = "".join(b["text"] for b in response["content"] if b.get("type") == "text")
            usage = response.get("usage") or {}
            cached = usage.get("cache_read_input_tokens") or 0
            written = usage.get("cache_creation_input_tokens") or 0
            prompt = (usage.get("input_tokens") or 0) + cached + written
            return Completion(text, prompt, usage.get("output_tokens") or 0, cached,
                              response.get("stop_reason"), 0.0)
        except (AttributeError, KeyError, TypeError):
            raise ProviderError(f"response without a message: {_short(repr(response))}",
                                retryable=True) from None


def make_provider(spec: LLMSpec, api_key: str, clients: ClientPool | None = None) -> Provider:
    if spec.provider == "anthropic":
        return AnthropicProvider(spec, api_key, clients)
    return OpenAIProvider(spec, api_key, clients)
