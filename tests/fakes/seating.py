"""Helpers for tests that seat LLM bots against the fake servers and play through the engine."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bots.base import Bot, Decision
from bots.llm import make_llm_bot
from engine.core import Game
from tests.fakes.http import Reply, Request

_OPEN: list[Any] = []


def llm_bot(spec: str, env_id: str, seed: int, environ: Mapping[str, str]) -> Any:
    """make_llm_bot, with the bot closed at the end of the test (see `close_llm_bots`)."""
    bot = make_llm_bot(spec, env_id, seed, environ)
    _OPEN.append(bot)
    return bot


@pytest.fixture(autouse=True)
async def close_llm_bots():
    """Close the bots' HTTP clients inside the test's event loop (import into test modules)."""
    yield
    while _OPEN:
        await _OPEN.pop().aclose()


# Test settings: fast retries, no long waits.
FAST = "backoff=0.01&backoff_max=0.05&timeout=5"


def provider_env(openai_url: str | None = None, anthropic_url: str | None = None
                 ) -> dict[str, str]:
    """An environment (as passed to make_llm_bot) pointing both providers at fakes."""
    env = {"OPENAI_API_KEY": "sk-test", "ANTHROPIC_API_KEY": "sk-ant-test"}
    if openai_url:
        env["OPENAI_BASE_URL"] = openai_url
    if anthropic_url:
        env["ANTHROPIC_BASE_URL"] = anthropic_url
    return env


_EXAMPLE = re.compile(r"(?:for example|in this format:|such as)\s*(\[[^\]\n]*\](?:\s*\[[^\]\n]*\])*)")


_JSON_EXAMPLE = re.compile(r"(?:for example|in this format:|such as)\s*(\{[^\n]*\})")


def example_responder(request: Request) -> Reply:
    """A model that always answers with the example move its prompt shows (or, for free-text
    turns, a short message) — a stand-in that plays any env legally."""
    text = request.last_user_text()
    found = _EXAMPLE.findall(text)
    if found:
        return Reply(f"Let me think about this briefly.\nMy move: {found[-1]}")
    found = _JSON_EXAMPLE.findall(text)  # a JSON answer (the Impostor game's ballot)
    if found:
        return Reply(f"Here is my ballot:\n```json\n{found[-1]}\n```")
    return Reply("I suggest we all cooperate this round.")


async def play(game: Game, bots: Sequence[Bot], memories: list[dict[str, Any]] | None = None,
               max_steps: int = 2000) -> list[tuple[int, Decision]]:
    """Drive a game to its end with the bots, as the server does; returns every decision."""
    memories = memories if memories is not None else [{} for _ in bots]
    decisions: list[tuple[int, Decision]] = []
    for _ in range(max_steps):
        if game.over:
            return decisions
        for seat in sorted(game.pending()):
            decision = await bots[seat].decide(game.view(seat), game.legal(seat).to_json(),
                                               memories[seat])
            decisions.append((seat, decision))
            game.act(seat, decision.action)
    raise AssertionError(f"game not over after {max_steps} steps")


def user_texts(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    from tests.fakes.http import content_text

    return [content_text(m.get("content")) for m in messages if m.get("role") == "user"]
