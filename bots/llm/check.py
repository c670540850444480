"""`parlor bots check SPEC`: verify an LLM spec end to end and say what is missing.

Steps: the spec and its settings parse; the API key is in the environment; the endpoint answers
(its model list, where it has one); the model answers a tiny prompt; and a sample first move of a
real game (Colonel Blotto by default) reads as a legal move with the engine's own parser.
Exit status: 0 all good, 1 a step failed, 2 the spec itself is malformed.

`unreachable(specs)` runs the same steps but the sample move, quietly, for the commands that
play LLM seats headless (`parlor sim`, the leagues): an endpoint that cannot answer is said
before the first game, not found by voiding every game.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from bots.base import BotError
from bots.llm.settings import SettingsError
from bots.llm.spec import LLMSpec, SpecError, command_line_keys, parse_spec

if TYPE_CHECKING:
    from bots.llm.bot import LLMBot
    from bots.llm.providers import Provider

Out = Callable[[str], None]
PING_SYSTEM = "You are checking that a connection works."
PING_USER = "Reply with the single word: ready"


def run_bots_check(spec: str, env_id: str = "colonel-blotto", *, out: Out = print,
                   environ: Mapping[str, str] | None = None) -> int:
    try:
        parsed = parse_spec(spec, environ)
    except (SpecError, SettingsError) as e:
        out(f"✗ spec: {e}")
        return 2
    return asyncio.run(_check(parsed, spec, env_id, out, environ))


async def unreachable(specs: Iterable[str], environ: Mapping[str, str] | None = None
                      ) -> dict[str, str]:
    """{spec: what failed} for the LLM specs among `specs` whose key, endpoint or tiny prompt
    fails (`parlor bots check`'s steps but the sample move, all specs at once); {} when all
    answer. Specs that are not LLM specs are left alone."""
    from bots.llm.spec import is_llm_spec

    async def one(raw: str) -> str | None:
        lines: list[str] = []
        try:
            code = await _check(parse_spec(raw, environ), raw, "", lines.append, environ,
                                move=False)
        except (SpecError, SettingsError) as e:
            return str(e)
        failed = [line.removeprefix("✗ ") for line in lines if line.startswith("✗")]
        return ("; ".join(failed) or "the check failed") if code else None

    llm = sorted({s for s in specs if is_llm_spec(s)})
    found = await asyncio.gather(*(one(s) for s in llm))
    return {spec: why for spec, why in zip(llm, found, strict=True) if why is not None}


async def _check(spec: LLMSpec, raw: str, env_id: str, out: Out,
                 environ: Mapping[str, str] | None, *, move: bool = True) -> int:
    from bots.llm.providers import make_provider

    source = "from the spec" if spec.base_url_from == "spec" else (
        "the provider's default" if spec.base_url_from == "default"
        else f"from {spec.base_url_from}")
    out(f"✓ spec: {spec.identity} (rated as this; settings are stamped separately)")
    out(f"  endpoint {spec.base_url} ({source})")

    # The URL on the user's own command line is theirs to send their key to.
    keys = command_line_keys(spec)
    key = spec.api_key(environ, keys)
    if key is None:
        out(f"✗ API key: {spec.key_var} is not set. Export it in the environment of the process "
            f"that runs the bots (e.g. `export {spec.key_var}=...`), then try again.")
        return 1
    given = (os.environ if environ is None else environ).get(spec.key_var)
    out(f"✓ API key: {spec.key_var} is set" if given else
        f"✓ API key: {spec.key_var} is not set; sending a placeholder (fine for servers started "
        f"without a key, such as Ollama or llama.cpp)")

    provider = make_provider(spec, key)
    try:
        return await _probe(spec, raw, env_id, out, environ, provider, keys, move)
    finally:
        await provider.aclose()


async def _probe(spec: LLMSpec, raw: str, env_id: str, out: Out,
                 environ: Mapping[str, str] | None, provider: Provider,
                 keys: Mapping[str, str], move: bool = True) -> int:
    from bots.llm.bot import LLMBot
    from bots.llm.providers import ProviderError
    from bots.llm.retry import CallRecord, call_with_retries

    try:
        models = await provider.list_models()
    except ProviderError as e:
        if e.status in (404, 405, 501):
            out("• model list: the endpoint has none; going on to a real call")
        else:
            out(f"✗ endpoint: {spec.base_url} did not answer properly: {e}")
            return 1
    else:
        out(f"✓ endpoint: reachable, {len(models)} model(s) listed")
        if models and spec.model not in models:
            sample = ", ".join(models[:5])
            out(f"• note: {spec.model!r} is not in the list (e.g. {sample}); aliases and some "
                f"routers still accept it — the next step tells")

    settings = spec.settings
    record = CallRecord()
    try:
        done = await call_with_retries(
            lambda: provider.complete(PING_SYSTEM, [{"role": "user", "content": PING_USER}],
                                      settings.for_phase("check")),
            settings, random.Random(0), record, what=spec.identity)
    except BotError as e:
        out(f"✗ tiny prompt: {e}")
        return 1
    out(f"✓ tiny prompt: answered {done.text.strip()[:60]!r} in {done.latency_ms:.0f} ms "
        f"({done.prompt_tokens} prompt + {done.completion_tokens} completion tokens"
        f"{', after ' + str(record.retries) + ' retries' if record.retries else ''})")
    if not done.text.strip():
        out(f"• note: the answer was empty (finish reason {done.finish_reason!r}); reasoning "
            f"models may need a larger max_tokens")
    if not move:
        return 0

    bot = LLMBot(spec, env_id, environ=environ, provider=provider, keys=keys)
    return await _sample_move(bot, raw, env_id, out)


async def _sample_move(bot: LLMBot, raw: str, env_id: str, out: Out) -> int:
    from engine.registry import get

    env = get(env_id)
    game = env.new_game(env.config(), 0, env.default_players())
    seat = min(game.pending())
    view, legal = game.view(seat), game.legal(seat).to_json()
    try:
        decision = await bot.decide(view, legal, {})
    except BotError as e:
        out(f"✗ sample move: the call failed: {e}")
        return 1
    verdict = bot.builder.check(str(decision.action), view, legal)
    reasked = any(m.get("reask") for m in decision.transcript)
    cost = f", cost ${decision.cost:.6f}" if bot.price else ", cost unknown (no price entry)"
    if verdict is not None:
        out(f"✗ sample move ({env_id}): the model's answer is not a valid move even after one "
            f"re-ask: {verdict.message}. Its reply was: {decision.raw_output!r:.200}")
        return 1
    out(f"✓ sample move ({env_id}): read as {decision.action}"
        f"{' after one re-ask' if reasked else ''}{cost}")
    out(f"All checks passed: seat it with --seat '{raw}'.")
    return 0
