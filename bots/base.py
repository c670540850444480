"""The bot protocol: anything that is not a person and takes a seat implements `Bot`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Decision:
    """A bot's answer: the action (text or structured) and what it cost to get it."""

    action: str | dict[str, Any]
    raw_output: str | None = None
    latency_ms: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    cost: float = 0.0
    retries: int = 0
    transcript: list[dict[str, Any]] = field(default_factory=list)

    def usage(self) -> dict[str, Any]:
        return {"latency_ms": round(self.latency_ms, 3), "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "cached_tokens": self.cached_tokens,
                "cost": self.cost, "retries": self.retries}


class BotError(Exception):
    """A bot could not produce a decision for reasons outside play (provider down, bad spec)."""


class Bot(ABC):
    """A seat-filler. `memory` is a dict the caller keeps per seat and passes on every call."""

    identity: str  # what ratings and reports group by: "random", "scripted:<name>", ...
    # A bot that decides without ever awaiting (scripted baselines) cannot be cut off by a time
    # limit, so the table sets none for it (a limit costs a timer per decision).
    never_awaits = False

    @abstractmethod
    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        """Choose an action for the view; `legal` is the ActionSpace as JSON."""

    def settings(self) -> dict[str, Any]:
        """Provider, model and sampling settings stamped on the seat in the store."""
        return {}
