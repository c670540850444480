"""Typed actions of the three-player IPD: a chat line, or one choice per opponent."""

from __future__ import annotations

from dataclasses import dataclass

COOPERATE, DEFECT = "cooperate", "defect"
CHOICES = (COOPERATE, DEFECT)


@dataclass(slots=True)
class ChatMessage:
    text: str


@dataclass(slots=True)
class Decisions:
    """Choice against each opponent, as (opponent, choice) pairs sorted by opponent."""

    choices: tuple[tuple[int, str], ...]

    def against(self, opponent: int) -> str:
        return dict(self.choices)[opponent]
