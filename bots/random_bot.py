"""The `random` baseline: uniform over legal moves, answering text prompts with random words."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bots.base import Bot, Decision
from engine.core import ActionSpace, Field, Option
from engine.sampling import random_action


def space_from_json(legal: Mapping[str, Any]) -> ActionSpace:
    """Rebuild an ActionSpace from its JSON form (what bots receive)."""
    def option(o: Mapping[str, Any]) -> Option:
        return Option(o["id"], o["label"])

    fields = tuple(Field(f["name"], f["label"], f["kind"], f.get("min"), f.get("max"),
                         tuple(option(o) for o in f.get("options", ())), f.get("max_chars"),
                         f.get("default")) for f in legal.get("fields", ()))
    return ActionSpace(legal["kind"], legal.get("prompt", ""), legal.get("syntax", ""),
                       tuple(option(o) for o in legal.get("options", ())), fields,
                       legal.get("max_chars"), dict(legal.get("constraints", {})))


class RandomBot(Bot):
    identity = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        return Decision(action=random_action(space_from_json(legal), self.rng))
