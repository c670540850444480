"""The LLM bot: prompt from the env's builder, call the model (with retries and limits), read
the action with the engine's own parser, re-ask once on an unusable answer, account for usage.

A model's bad answer is never an exception: after the single re-ask the reply goes to the engine,
whose invalid-move policy applies. Only a failed call (provider down, key refused, retries
exhausted) raises BotError; the error carries the transcript so far as `.transcript`.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import sys
import time
from collections.abc import Mapping
from typing import Any

from bots.base import Bot, BotError, Decision
from bots.llm.client import ModelClient
from bots.llm.clients import ClientPool
from bots.llm.context import build_prompt
from bots.llm.providers import Provider, make_provider
from bots.llm.retry import Sleep
from bots.llm.spec import PLACEHOLDER_KEY, KeyBindings, LLMSpec
from bots.prompts import PromptBuilder, builder_for

INTERVIEW_NOTE = ("[Interviewer] A question from the game's interviewer, asked to you alone: no "
                  "other player will hear your answer, and it does not change the game. Answer "
                  "it in a few plain sentences; do not choose an action now.")


class MissingKeyError(ValueError):
    """The environment lacks the API key a spec needs."""


def prompt_hash(builder: type[PromptBuilder]) -> str:
    """Hash of the source of every prompt module the builder's texts come from."""
    digest = hashlib.sha256()
    for cls in builder.__mro__:
        if issubclass(cls, PromptBuilder):
            digest.update(inspect.getsource(sys.modules[cls.__module__]).encode())
    return digest.hexdigest()[:16]


class LLMBot(Bot):
    def __init__(self, spec: LLMSpec, env_id: str, seed: int = 0, *,
                 environ: Mapping[str, str] | None = None, sleep: Sleep = asyncio.sleep,
                 provider: Provider | None = None, keys: KeyBindings | None = None,
                 clients: ClientPool | None = None) -> None:
        """`keys`: openai-compatible base URLs bound to the variables holding their keys (see
        bots/llm/spec.py); a server not bound there gets no key. `clients`: the SDK clients
        shared with the other seats of the same owner (else the bot makes its own)."""
        key = spec.api_key(environ, keys)
        if key is None:
            raise MissingKeyError(f"{spec.identity} needs an API key: set {spec.key_var} in the "
                                  f"environment of the process that runs the bot")
        self.spec = spec
        self.key_from = spec.bound_key_var(environ, keys) if key != PLACEHOLDER_KEY else None
        self.identity = spec.identity
        self.env_id = env_id
        self.builder = builder_for(env_id)
        self.builder.configure(spec.settings, seed)
        self.model = ModelClient(spec, provider or make_provider(spec, key, clients), seed,
                                 environ=environ, sleep=sleep)
        self.price = self.model.price

    def settings(self) -> dict[str, Any]:
        return {
            "identity": self.identity, "provider": self.spec.provider, "model": self.spec.model,
            "base_url": self.spec.base_url, "base_url_from": self.spec.base_url_from,
            "key_from": self.key_from,  # the variable whose key was sent; None: no key
            "sampling": self.spec.settings.to_json(),
            "seed_sent": self.spec.settings.seed is not None and self.spec.provider != "anthropic",
            "prompt": {"builder": type(self.builder).__name__,
                       "hash": prompt_hash(type(self.builder)), **self.builder.stamp()},
            "price_per_mtok": self.price.to_json() if self.price else None,
        }

    async def aclose(self) -> None:
        """Release the HTTP connections (call when the table is done with the bot)."""
        await self.model.aclose()

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        started = time.perf_counter()
        settings, builder = self.spec.settings, self.builder
        params = builder.sampling(settings, builder.phase(view, legal))
        stats = memory.setdefault("llm", {"decisions": 0, "reasks": 0, "history_cuts": 0})
        prompt = build_prompt(builder, view, legal, settings.context_tokens, memory,
                              stats.get("kept"))
        stats["kept"] = prompt.history - prompt.cut  # where the next decision's search starts
        tally = Decision(action="")  # summed usage of this decision's calls; filled in below
        tally.transcript += [
            {"role": "system", "content": prompt.system},
            {"role": "user", "content": prompt.user, "history_cut": prompt.cut,
             "lines_cut": prompt.lines_cut, "params": params},
        ]
        if settings.interview:
            await self._interview(builder.interview(view, legal, memory), prompt.system,
                                  prompt.user, params, tally)
        messages = [{"role": "user", "content": prompt.user}]
        reply = await self.model.call(prompt.system, messages, params, tally)
        action = builder.extract(reply, view, legal)
        verdict = builder.check(action, view, legal)
        reasks = 0
        pool = getattr(self.model.provider, "pool", None)
        meter = pool.meter if pool is not None else None
        if verdict is not None and meter is not None:
            meter.unparseable()
        if verdict is not None and settings.reask:
            reasks = 1
            note = builder.reask(verdict, legal)
            messages += [{"role": "assistant", "content": reply},
                         {"role": "user", "content": note}]
            tally.transcript.append({"role": "user", "content": note, "reask": verdict.kind,
                                     "error": verdict.message})
            reply = await self.model.call(prompt.system, messages, params, tally)
            action = builder.extract(reply, view, legal)
            verdict = builder.check(action, view, legal)
            if verdict is not None and meter is not None:
                meter.unparseable()
        tally.transcript.append({"action": action, "accepted_by_parser": verdict is None,
                                 "error": verdict.message if verdict else None})
        builder.remember(view, legal, reply, action, memory)
        stats["decisions"] += 1
        stats["reasks"] += reasks
        stats["history_cuts"] += prompt.cut > 0
        tally.action, tally.raw_output = action, reply
        tally.latency_ms = (time.perf_counter() - started) * 1000
        return tally

    async def debrief(self, view: Mapping[str, Any], memory: dict[str, Any]) -> Decision | None:
        """The interviewer's questions after the game (the seat's last view as the situation),
        when the settings ask for an interview; the answers in the returned transcript."""
        questions = self.builder.debrief(view) if self.spec.settings.interview else []
        if not questions:
            return None
        builder, legal = self.builder, {"kind": "choice", "prompt": "The game is over."}
        prompt = build_prompt(builder, view, legal, self.spec.settings.context_tokens, memory)
        params = builder.sampling(self.spec.settings, "debrief")
        tally = Decision(action="")
        tally.transcript.append({"role": "system", "content": prompt.system})
        await self._interview(questions, prompt.system, prompt.user, params, tally)
        return tally

    async def _interview(self, questions: list[tuple[str, str]], system: str, situation: str,
                         params: dict[str, Any], tally: Decision) -> None:
        """The interviewer's questions, each in a call of its own on the decision's prompt (the
        answers never reach the decision); question and answer are kept in the transcript,
        marked with their category."""
        for category, question in questions:
            asked = f"{situation}\n\n{INTERVIEW_NOTE}\n{question}"
            tally.transcript.append({"role": "user", "content": asked, "interview": category,
                                     "question": question})
            try:
                await self.model.call(system, [{"role": "user", "content": asked}], params,
                                      tally)
            except BotError:  # the question is lost (its failure is in the transcript); the
                continue  # decision is asked all the same
            tally.transcript[-1]["interview"] = category
