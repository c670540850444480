"""Prompt builders per environment: `builder_for(env_id)` returns the env's own builder, or the
generic one (engine contract only) for envs that have none yet."""

from __future__ import annotations

import importlib

from bots.prompts.base import PromptBuilder, Verdict
from engine.registry import get as get_env

# env id -> (module under bots.prompts, builder class name)
BUILDERS = {
    "colonel-blotto": ("colonel_blotto", "BlottoPrompts"),
    "three-player-ipd": ("three_player_ipd", "IPDPrompts"),
}


def builder_class(env_id: str) -> type[PromptBuilder]:
    if env_id not in BUILDERS:
        return PromptBuilder
    module, name = BUILDERS[env_id]
    return getattr(importlib.import_module(f"bots.prompts.{module}"), name)


def builder_for(env_id: str) -> PromptBuilder:
    return builder_class(env_id)(get_env(env_id))


__all__ = ["BUILDERS", "PromptBuilder", "Verdict", "builder_class", "builder_for"]
