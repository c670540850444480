"""LLM bots: OpenAI, Anthropic and OpenAI-compatible endpoints (vLLM, Ollama, llama.cpp,
OpenRouter). `make_llm_bot(spec, env_id, seed)` builds one; docs/llm-bots.md explains specs,
settings, costs and failures. This module stays light: the SDKs load with the first bot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bots.llm.settings import LLMSettings, SettingsError
from bots.llm.spec import (
    PROVIDERS,
    KeyBindings,
    LLMSpec,
    SpecError,
    is_llm_spec,
    parse_spec,
)

if TYPE_CHECKING:
    from bots.llm.bot import LLMBot
    from bots.llm.clients import ClientPool

SPEC_FORMS = {
    "openai:<model>": "an OpenAI model (key from OPENAI_API_KEY)",
    "anthropic:<model>": "an Anthropic model (key from ANTHROPIC_API_KEY)",
    "openai-compatible:<model>@<base_url>": "a model on an OpenAI-compatible server "
                                            "(vLLM, Ollama, llama.cpp, OpenRouter)",
}


def make_llm_bot(spec: str, env_id: str, seed: int = 0,
                 environ: Mapping[str, str] | None = None,
                 keys: KeyBindings | None = None, clients: ClientPool | None = None) -> LLMBot:
    """Raises ValueError (SpecError, SettingsError, MissingKeyError) naming what is wrong.
    `keys` binds openai-compatible base URLs to the variables holding their keys; any other
    openai-compatible server gets no key (bots/llm/spec.py). `clients`: the SDK clients the
    bot shares with the other seats of their owner (bots/llm/clients.py)."""
    from bots.llm.bot import LLMBot

    return LLMBot(parse_spec(spec, environ), env_id, seed, environ=environ, keys=keys,
                  clients=clients)


__all__ = ["KeyBindings", "LLMSettings", "LLMSpec", "PROVIDERS", "SPEC_FORMS", "SettingsError",
           "SpecError", "is_llm_spec", "make_llm_bot", "parse_spec"]
