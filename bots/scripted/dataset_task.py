"""Scripted players of SocialMaze's dataset tasks, reading only the seat's view: the
majority-class baseline (the same answer whatever the evidence) and a heuristic reader (a
function of the evidence shown so far). Each task's module registers its own (e.g.
bots/scripted/rating_estimation.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bots.base import Bot, Decision

Reader = Callable[[Mapping[str, Any]], Mapping[str, str]]  # the view's public part -> answer


def items(public: Mapping[str, Any], stage: int | None = None) -> list[tuple[str, str]]:
    """(label, text) of the evidence shown so far, or of one stage (1-based)."""
    shown = public["evidence"] if stage is None else public["evidence"][stage - 1:stage]
    return [(label, text) for s in shown for label, text in s["items"]]


class AnswerBot(Bot):
    """Answers the form with what `read` makes of the evidence."""

    never_awaits = True

    def __init__(self, read: Reader) -> None:
        self.read = read

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        return Decision(action=dict(self.read(view["public"])))


def majority(answer: Mapping[str, str]) -> Callable[[int], Bot]:
    """A factory of the bot that always gives `answer`."""
    return lambda seed: AnswerBot(lambda public: answer)
