"""Text and structured actions -> typed IPD actions. Nothing here can fail: as in the reference
(TextArena 0.7.4), decision tokens `[<id> cooperate|defect]` are read wherever they appear, tokens
naming yourself or a non-opponent are ignored, the last token per opponent wins, and an opponent
with no token gets `cooperate`. Chat is free text, cleaned (control characters dropped, runs of
whitespace collapsed) and cut to the configured length. Inputs are capped before any regex runs so
hostile megabytes stay cheap.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.three_player_ipd.actions import CHOICES, COOPERATE, DEFECT, ChatMessage, Decisions

MAX_SCAN_CHARS = 20_000  # a decision answer longer than this is read up to here
_TOKEN = re.compile(r"\[\s*(\d{1,6})\s+(cooperate|defect)\s*\]", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SPACE = re.compile(r"\s+")


def parse_decisions(action: str | Mapping[str, Any], opponents: Sequence[int]) -> Decisions:
    chosen = dict.fromkeys(opponents, COOPERATE)
    if isinstance(action, str):
        for seat, word in _TOKEN.findall(action[:MAX_SCAN_CHARS]):
            if int(seat) in chosen:
                chosen[int(seat)] = DEFECT if word.lower() == DEFECT else COOPERATE
    else:
        for key, value in action.items():
            if isinstance(key, str) and key.isdigit() and int(key) in chosen \
                    and isinstance(value, str) and value.lower() in CHOICES:
                chosen[int(key)] = value.lower()
    return Decisions(tuple(sorted(chosen.items())))


def parse_chat(action: str | Mapping[str, Any], max_chars: int) -> ChatMessage:
    text = action if isinstance(action, str) else action.get("text", "")
    if not isinstance(text, str):
        text = ""
    text = _CONTROL.sub("", text[: max_chars * 4])
    return ChatMessage(_SPACE.sub(" ", text).strip()[:max_chars])


def decision_text(decisions: Decisions) -> str:
    """The canonical text form, e.g. `[1 defect] [2 cooperate]`."""
    return " ".join(f"[{seat} {choice}]" for seat, choice in decisions.choices)
