"""Typed Codenames actions: what the syntax module reads and the rules judge."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Clue:
    """A spymaster's clue: one word (lower case) and a number."""

    word: str
    number: int


@dataclass(frozen=True, slots=True)
class Guess:
    """An operative's guess: a word (lower case) it says is on the board."""

    word: str


@dataclass(frozen=True, slots=True)
class Pass:
    """End the team's turn: an operative stops guessing, or a spymaster gives no clue."""


PASS = Pass()
