"""Text and structured actions -> typed IPD actions. Nothing here can fail, as in the reference
(TextArena 0.7.4): decision tokens `[<id> cooperate|defect]` are read wherever they appear, tokens
naming yourself or a non-opponent are ignored, the last token per opponent wins, and an opponent
with no token gets `cooperate`. Chat is free text, cleaned and cut to the configured length.
Every pattern here runs in linear time and inputs are capped first, so hostile text stays cheap.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.three_player_ipd.actions import COOPERATE, DEFECT, ChatMessage, Decisions

MAX_SCAN_CHARS = 100_000  # a longer decision answer is read from its last this-many characters
# Leading zeros are skipped so "[01 defect]" names seat 1 like the reference; at most six more
# digits keep int() cheap (no seat number is that long).
_TOKEN = re.compile(r"\[\s*0*(\d{1,6})\s+(cooperate|defect)\s*\]", re.IGNORECASE)
# Control characters that are not whitespace (C0, DEL, C1) and the bidirectional overrides that
# could make a line display differently from what was sent: dropped from chat.
_CONTROL = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_SPACE = re.compile(r"\s+")
_CHOICE = {COOPERATE: COOPERATE, DEFECT: DEFECT}


def parse_decisions(action: str | Mapping[str, Any], opponents: tuple[int, int]) -> Decisions:
    """One choice per opponent (in the order of `opponents`, which must be sorted)."""
    if action.__class__ is str:
        return _read_tokens(action, opponents, COOPERATE, COOPERATE)  # type: ignore[arg-type]
    first = second = COOPERATE
    text = action.get("text")  # type: ignore[union-attr]
    if text.__class__ is str:  # a text answer sent as {"text": ...}: read it first
        (_, first), (_, second) = _read_tokens(text, opponents, first, second).choices
    a, b = opponents
    for key, value in action.items():  # type: ignore[union-attr]
        # ASCII digits only, and few of them: int() rejects "²" and refuses huge numbers.
        if key.__class__ is str and key.isascii() and key.isdigit() and len(key) <= 6 \
                and value.__class__ is str:
            choice = _CHOICE.get(value.strip().lower())
            if choice is not None:
                seat = int(key)
                if seat == a:
                    first = choice
                elif seat == b:
                    second = choice
    return _decisions(opponents, first, second)


def _read_tokens(text: str, opponents: tuple[int, int], first: str, second: str) -> Decisions:
    """Tokens read left to right, the last one per opponent wins."""
    if "[" not in text:
        return _decisions(opponents, first, second)
    if len(text) > MAX_SCAN_CHARS:
        text = text[-MAX_SCAN_CHARS:]
    a, b = opponents
    text_a, text_b = _SEAT_TEXT.get(opponents) or _seat_text(opponents)
    for seat, word in _TOKEN.findall(text):
        # ASCII ids come without leading zeros, so they compare as text; other digits (which
        # the reference reads too, e.g. Arabic-Indic) go through int().
        if seat == text_a or (not seat.isascii() and int(seat) == a):
            first = DEFECT if word[0] in "dD" else COOPERATE
        elif seat == text_b or (not seat.isascii() and int(seat) == b):
            second = DEFECT if word[0] in "dD" else COOPERATE
    return _decisions(opponents, first, second)


# Decisions are values: one object per (opponents, choices), shared.
_ALL_DECISIONS: dict[tuple[tuple[int, int], str, str], Decisions] = {}
_SEAT_TEXT: dict[tuple[int, int], tuple[str, str]] = {}


def _decisions(opponents: tuple[int, int], first: str, second: str) -> Decisions:
    key = (opponents, first, second)
    found = _ALL_DECISIONS.get(key)
    if found is None:
        a, b = opponents
        found = _ALL_DECISIONS[key] = Decisions(((a, first), (b, second)))
    return found


def _seat_text(opponents: tuple[int, int]) -> tuple[str, str]:
    found = _SEAT_TEXT[opponents] = (str(opponents[0]), str(opponents[1]))
    return found


def parse_chat(action: str | Mapping[str, Any], max_chars: int) -> ChatMessage:
    """A chat line: control characters dropped, whitespace runs collapsed to one space, trimmed,
    cut to `max_chars`. A mapping contributes its "text" string; anything else is an empty line."""
    text = action if action.__class__ is str else action.get("text", "")  # type: ignore[union-attr]
    if text.__class__ is not str:
        return ChatMessage("")
    # Fast path: most lines are already clean (isprintable is False for every control and for
    # any whitespace but the plain space).
    if len(text) <= max_chars and text.isprintable() and "  " not in text \
            and text.strip(" ") == text:
        return ChatMessage(text)
    # Cap before cleaning: a line of whitespace or controls may shrink, so keep some slack.
    text = _CONTROL.sub("", text[: max_chars * 4 + 64])
    return ChatMessage(_SPACE.sub(" ", text).strip()[:max_chars])


def decision_text(decisions: Decisions) -> str:
    """The canonical text form, e.g. `[1 defect] [2 cooperate]`."""
    return " ".join(f"[{seat} {choice}]" for seat, choice in decisions.choices)
