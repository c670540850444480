"""`scripted:flaky` for Colonel Blotto: a bot whose provider fails in every third game (seeds
0, 3, 6, ...) and plays randomly otherwise. Registered on import, so the processes of
`parlor sim --workers` know it too (they import the module a bot factory comes from)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.base import Bot, BotError, Decision
from bots.registry import SCRIPTED, make_bot, register_scripted

ENV, NAME = "colonel-blotto", "flaky"


class FlakyBot(Bot):
    def __init__(self, seed: int) -> None:
        self.fails = (seed // 1000) % 3 == 0  # tables seed seat i's bot with seed * 1000 + i
        self.inner = make_bot("random", ENV, seed)

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        if self.fails:
            raise BotError("provider answered 503 five times")
        return await self.inner.decide(view, legal, memory)


def register() -> str:
    register_scripted(ENV, NAME, "fails in every third game")(FlakyBot)
    return f"scripted:{NAME}"


def unregister() -> None:
    SCRIPTED[ENV].pop(NAME, None)


register()
