"""Bot specs -> bots. A spec is the identity string ratings group by (see DESIGN.md §Bots)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from bots.base import Bot
from bots.random_bot import RandomBot

if TYPE_CHECKING:
    from bots.llm.clients import ClientPool


class BotSpecError(ValueError):
    """An unknown or malformed bot spec; the message lists the valid ones."""


# env id -> scripted bot name -> (factory(seed) -> Bot, one-line description)
SCRIPTED: dict[str, dict[str, tuple[Callable[[int], Bot], str]]] = {}


def register_scripted(env_id: str, name: str, description: str
                      ) -> Callable[[Callable[[int], Bot]], Callable[[int], Bot]]:
    def wrap(factory: Callable[[int], Bot]) -> Callable[[int], Bot]:
        SCRIPTED.setdefault(env_id, {})[name] = (factory, description)
        return factory
    return wrap


def _load_scripted(env_id: str) -> None:
    """Import the module that registers the env's scripted baselines (the env names it)."""
    from engine.core import UnknownEnvError
    from engine.registry import get

    try:
        module = get(env_id).scripted_bots
    except UnknownEnvError:
        return
    if module:
        importlib.import_module(module)


def available(env_id: str) -> dict[str, str]:
    """Seatable bot specs for an env, with one-line descriptions."""
    _load_scripted(env_id)
    specs = {"random": "uniform over legal moves"}
    for name, (_, description) in SCRIPTED.get(env_id, {}).items():
        specs[f"scripted:{name}"] = description
    return specs


def check_spec(spec: str, env_id: str) -> None:
    """BotSpecError (listing the valid bots) unless `spec` names a bot for `env_id`: random, a
    scripted bot of the env, or a well-formed LLM spec. Builds nothing, calls nobody."""
    _load_scripted(env_id)
    from bots.llm.spec import is_llm_spec

    if is_llm_spec(spec):
        from bots.llm.settings import SettingsError
        from bots.llm.spec import SpecError, parse_spec

        try:
            parse_spec(spec)
        except (SpecError, SettingsError) as e:
            raise BotSpecError(str(e)) from e
        return
    kind, _, name = spec.partition(":")
    if spec != "random" and not (kind == "scripted" and name in SCRIPTED.get(env_id, {})):
        raise BotSpecError(f"unknown bot {spec!r} for {env_id}; valid bots: "
                           f"{', '.join(available(env_id))}")


def make_bot(spec: str, env_id: str, seed: int = 0, *,
             keys: Mapping[str, str] | None = None, clients: ClientPool | None = None) -> Bot:
    """Build the bot a spec names for a seat in `env_id`; BotSpecError lists valid specs.
    `keys`: openai-compatible base URLs bound to the environment variables holding their keys
    (the host's choice); a server not bound there gets no key (bots/llm/spec.py). `clients`:
    the SDK clients an LLM bot shares with its owner's other seats (bots/llm/clients.py)."""
    _load_scripted(env_id)
    if spec == "random":
        return RandomBot(seed)
    from bots.llm.spec import is_llm_spec  # light; the LLM SDKs load only for LLM seats

    if is_llm_spec(spec):
        from bots.llm import make_llm_bot

        try:
            return make_llm_bot(spec, env_id, seed, keys=keys, clients=clients)
        except ValueError as e:  # malformed spec or settings, missing API key
            raise BotSpecError(str(e)) from e
    check_spec(spec, env_id)
    bot = SCRIPTED[env_id][spec.partition(":")[2]][0](seed)
    bot.identity = spec
    return bot
