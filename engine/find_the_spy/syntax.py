"""Find the Spy's text syntax: turning what a seat typed (or a form's fields) into a typed
action the rules judge. A description is free text; a vote is read as the paper reads a model's
answer, `Final Answer: Player X`, the last match winning (engine/answers.py), or as a bare
`Player X`, `[X]` or `X` (what the form and the random baseline send)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.answers import last_match
from engine.chat import clean_chat

ANSWER_SYNTAX = "Final Answer: Player 2"
NO_DESCRIPTION = "(no description)"
_FINAL = re.compile(r"final\s+answer\s*:?\s*player\s*(\d+)", re.IGNORECASE)
_BARE = re.compile(r"\[?\s*(?:player\s*)?(\d{1,6})\s*\]?", re.IGNORECASE)


@dataclass(frozen=True)
class Description:
    text: str  # as kept: cleaned as chat is (engine/chat.py) and cut to the limit


@dataclass(frozen=True)
class Vote:
    player: int | None  # the player named (1-based), None when the answer names nobody


def _raw(action: Any, key: str) -> str:
    if isinstance(action, Mapping):
        value = action.get(key, action.get("text", ""))
        return "" if value is None else str(value)
    return "" if action is None else str(action)


def parse_description(action: Any, max_chars: int) -> Description:
    return Description(clean_chat(_raw(action, "text"), max_chars))


def parse_vote(action: Any) -> Vote:
    """The player a vote names; None when it names nobody (scored wrong, never refused)."""
    text = _raw(action, "choice")
    found = last_match(_FINAL, text)
    if found is None:
        found = _BARE.fullmatch(text.strip())
    return Vote(int(found.group(1)) if found else None)
