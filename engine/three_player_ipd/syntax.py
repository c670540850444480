"""Text and structured actions -> typed IPD actions. Nothing here can fail, as in the reference
(TextArena 0.7.4): decision tokens `[<id> cooperate|defect]` are read wherever they appear, tokens
naming yourself or a non-opponent are ignored, the last token per opponent wins, and an opponent
with no token gets `cooperate`. Chat is free text, cleaned and cut to the configured length.
Every pattern here runs in linear time and inputs are capped first, so hostile text stays cheap.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
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


def parse_decisions(action: str | Mapping[str, Any], opponents: Sequence[int]) -> Decisions:
    """One choice per opponent (in the order of `opponents`, which must be sorted)."""
    chosen = dict.fromkeys(opponents, COOPERATE)
    if action.__class__ is not str:  # a form: opponent ids (as strings) -> choice
        text = action.get("text")  # type: ignore[union-attr]
        if text.__class__ is str:  # a text answer sent as {"text": ...}: read it first
            _read_tokens(text, chosen)
        for key, value in action.items():  # type: ignore[union-attr]
            # ASCII digits only, and few of them: int() rejects "²" and refuses huge numbers.
            if key.__class__ is str and key.isascii() and key.isdigit() and len(key) <= 6 \
                    and int(key) in chosen and value.__class__ is str:
                choice = _CHOICE.get(value.strip().lower())
                if choice is not None:
                    chosen[int(key)] = choice
    elif "[" in action:  # type: ignore[operator]
        _read_tokens(action, chosen)  # type: ignore[arg-type]
    return Decisions(tuple(chosen.items()))


def _read_tokens(text: str, chosen: dict[int, str]) -> None:
    if len(text) > MAX_SCAN_CHARS:
        text = text[-MAX_SCAN_CHARS:]
    for seat, word in _TOKEN.findall(text):
        seat_id = int(seat)
        if seat_id in chosen:
            chosen[seat_id] = DEFECT if word[0] in "dD" else COOPERATE


def parse_chat(action: str | Mapping[str, Any], max_chars: int) -> ChatMessage:
    """A chat line: control characters dropped, whitespace runs collapsed to one space, trimmed,
    cut to `max_chars`. A mapping contributes its "text" string; anything else is an empty line."""
    text = action if action.__class__ is str else action.get("text", "")  # type: ignore[union-attr]
    if text.__class__ is not str:
        return ChatMessage("")
    # Fast path: most lines are already clean (isprintable is False for every control and for
    # any whitespace but the plain space).
    if len(text) <= max_chars and text.isprintable() and "  " not in text \
            and text[:1] != " " and text[-1:] != " ":
        return ChatMessage(text)
    # Cap before cleaning: a line of whitespace or controls may shrink, so keep some slack.
    text = _CONTROL.sub("", text[: max_chars * 4 + 64])
    return ChatMessage(_SPACE.sub(" ", text).strip()[:max_chars])


def decision_text(decisions: Decisions) -> str:
    """The canonical text form, e.g. `[1 defect] [2 cooperate]`."""
    return " ".join(f"[{seat} {choice}]" for seat, choice in decisions.choices)
