"""Text and structured actions -> typed IPD actions. Nothing here can fail, as in the reference
(TextArena 0.7.4): decision tokens `[<id> cooperate|defect]` are read wherever they appear, tokens
naming yourself or a non-opponent are ignored, the last token per opponent wins, and an opponent
with no token gets `cooperate`. Chat is free text, cleaned and cut to the configured length.
Every pattern here runs in linear time and long inputs are read in bounded pieces, so hostile
text stays cheap.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from engine.chat import clean_chat
from engine.three_player_ipd.actions import COOPERATE, DEFECT, ChatMessage, Decisions

MAX_SCAN_CHARS = 100_000  # a longer decision answer is read from its last this-many characters
# A seat id is any run of Unicode decimal digits (`\d` is str.isdecimal: "1", "٠١", "１"), as in
# the reference; leading zeros of any script are skipped, so "[01 defect]" and "[٠٠1 defect]" name
# seat 1. Ids are compared as ASCII text, never turned into numbers, so no length limit is needed.
_TOKEN = re.compile(r"\[\s*(\d+)\s+(cooperate|defect)\s*\]", re.IGNORECASE)
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
    text_a, text_b = _SEAT_TEXT.get(opponents) or _seat_text(opponents)
    for seat, word in _TOKEN.findall(text):
        if not seat.isascii():
            seat = seat.translate(_ASCII_DIGITS)
        if seat[0] == "0":
            seat = seat.lstrip("0") or "0"
        if seat == text_a:
            first = DEFECT if word[0] in "dD" else COOPERATE
        elif seat == text_b:
            second = DEFECT if word[0] in "dD" else COOPERATE
    return _decisions(opponents, first, second)


class _AsciiDigits(dict[int, int]):
    """A `str.translate` table from any Unicode decimal digit to its ASCII digit, filled as
    digits are met (at most the few hundred decimal digits Unicode has)."""

    def __missing__(self, code: int) -> int:
        found = self[code] = ord("0") + unicodedata.decimal(chr(code))
        return found


_ASCII_DIGITS = _AsciiDigits()


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
    """A chat line, cleaned then cut as engine/chat.py says. A mapping contributes its "text"
    string; anything else is an empty line (an empty line is a valid chat turn: the player says
    nothing)."""
    text = action if action.__class__ is str else action.get("text", "")  # type: ignore[union-attr]
    if text.__class__ is not str:
        return ChatMessage("")
    return ChatMessage(clean_chat(text, max_chars))  # type: ignore[arg-type]


def decision_text(decisions: Decisions) -> str:
    """The canonical text form, e.g. `[1 defect] [2 cooperate]`."""
    return " ".join(f"[{seat} {choice}]" for seat, choice in decisions.choices)
