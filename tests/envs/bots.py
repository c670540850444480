"""Scripted players of the proving ground, registered where the env says (`scripted_bots`), so
team games can seat two different identities, one per side."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted

ENV = "proving-ground"


class FixedMove(Bot):
    """Plays the same move every tick."""

    def __init__(self, move: str) -> None:
        self.move = move

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        return Decision(action={"choice": self.move})


@register_scripted(ENV, "pusher", "pushes every tick")
def pusher(seed: int) -> Bot:
    return FixedMove("push")


@register_scripted(ENV, "holder", "holds every tick")
def holder(seed: int) -> Bot:
    return FixedMove("hold")
