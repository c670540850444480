"""The `random` baseline: uniform over legal moves, answering text prompts with random words."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bots.base import Bot, Decision
from engine.core import ActionSpace
from engine.sampling import random_action


class RandomBot(Bot):
    identity = "random"
    never_awaits = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        return Decision(action=random_action(ActionSpace.from_json(legal), self.rng))
