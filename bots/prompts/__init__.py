"""Prompt builders per environment: `builder_for(env_id)` returns the builder the env names
(`Env.prompt_builder`, "module:Class"), or the generic one (engine contract only)."""

from __future__ import annotations

import importlib

from bots.prompts.base import PromptBuilder, Verdict
from engine.registry import get as get_env


def builder_class(env_id: str) -> type[PromptBuilder]:
    ref = get_env(env_id).prompt_builder
    if not ref:
        return PromptBuilder
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def builder_for(env_id: str) -> PromptBuilder:
    return builder_class(env_id)(get_env(env_id))


__all__ = ["PromptBuilder", "Verdict", "builder_class", "builder_for"]
