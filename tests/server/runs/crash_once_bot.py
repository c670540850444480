"""`scripted:crash-once` for Colonel Blotto: a bot whose first decision, in whichever process
plays it first, kills that process outright (`os._exit`, as a node lost or a killed worker
would), once per marker file named by $PARLOR_TEST_CRASH_ONCE; it plays randomly otherwise. A
Ray worker playing a campaign's batch imports this module (it registered the bot) and dies."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bots.base import Bot, Decision
from bots.registry import SCRIPTED, make_bot, register_scripted

ENV, NAME = "colonel-blotto", "crash-once"
MARKER = "PARLOR_TEST_CRASH_ONCE"


class CrashOnceBot(Bot):
    def __init__(self, seed: int) -> None:
        self.inner = make_bot("random", ENV, seed)

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        marker = os.environ.get(MARKER)
        if marker:
            try:
                Path(marker).touch(exist_ok=False)
            except FileExistsError:
                pass
            else:
                os._exit(1)
        return await self.inner.decide(view, legal, memory)


def register() -> str:
    register_scripted(ENV, NAME, "kills its process once (tests)")(CrashOnceBot)
    return f"scripted:{NAME}"


def unregister() -> None:
    SCRIPTED[ENV].pop(NAME, None)


register()
