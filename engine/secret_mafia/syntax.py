"""Text and structured answers -> typed Secret Mafia actions, or an `AnswerError` (a format
error) that the rules then judge. The rules never see raw text.

A target is written `[3]` or `[Player 3]` (any case, spaces allowed inside the brackets); as in
the reference parser, the answer's first line (ended by `\n` only) that holds such a token
counts, and its last token there. An answer that is nothing but a number or `Player 3` is read too (the newer
reference's bare form). A Mafia vote keeps the rest of its answer as a note to the teammates.
Speeches are free text, cleaned and cut (engine/chat.py), never refused. Patterns run in linear time, and long
answers are read from a bounded prefix.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.chat import clean_chat

MAX_SCAN_CHARS = 20_000  # a longer answer is read from its first this-many characters
MAX_DIGITS = 6  # a longer number is no seat at all: a format error, cheap to refuse
_TOKEN = re.compile(rf"\[\s*(?:player\s*)?(\d{{1,{MAX_DIGITS}}})\s*\]", re.IGNORECASE)
_BARE = re.compile(rf"\s*(?:player\s*)?(\d{{1,{MAX_DIGITS}}})\s*[.!]?\s*", re.IGNORECASE)
NO_TARGET = "no target found: write the player's number in square brackets, e.g. [3]"


class AnswerError(ValueError):
    """The answer cannot be read as a target (a MindGames format error)."""


@dataclass(frozen=True, slots=True)
class Target:
    """A vote, protection or investigation: `seat`, or None for the harmless pass (the default
    move); `note` is what a Mafia vote tells the teammates besides."""

    seat: int | None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Speech:
    text: str


PASS = Target(None)


def parse_speech(action: str | Mapping[str, Any], max_chars: int) -> Speech:
    """A speech: text, or {"text": ...}; anything else says nothing (an empty speech is a valid
    turn: the player keeps quiet)."""
    text = action if isinstance(action, str) else action.get("text", "")
    return Speech(clean_chat(text, max_chars) if isinstance(text, str) else "")


def parse_target(action: str | Mapping[str, Any], max_note: int) -> Target:
    """A target from text or a structured answer: {"choice": "3"}, {"target": "3" or 3,
    "note": "..."}, {"text": "[3]"} or {"pass": true} (the default move)."""
    if isinstance(action, str):
        return read_target(action, max_note)
    if action.get("pass") is True and len(action) == 1:
        return PASS
    value = action.get("target", action.get("choice"))
    note = action.get("note")
    note = clean_chat(note, max_note) if isinstance(note, str) else ""
    if isinstance(value, bool):
        raise AnswerError(NO_TARGET)
    if isinstance(value, int):
        return Target(value, note)
    if isinstance(value, str):
        found = _BARE.fullmatch(value)
        if found:
            return Target(int(found.group(1)), note)
        raise AnswerError(NO_TARGET)
    text = action.get("text")
    if isinstance(text, str):
        return read_target(text, max_note)
    raise AnswerError(NO_TARGET)


def read_target(text: str, max_note: int) -> Target:
    """The reference's reading: the last token of the first line holding one; else a bare
    number (or "Player N") as the whole answer."""
    text = text[:MAX_SCAN_CHARS]
    if "[" in text:
        start = 0
        for line in text.split("\n"):  # only \n ends a line for the reference's `.`
            tokens = list(_TOKEN.finditer(line))
            if tokens:
                last = tokens[-1]
                at, end = start + last.start(), start + last.end()
                return Target(int(last.group(1)),
                              clean_chat(text[:at] + " " + text[end:], max_note))
            start += len(line) + 1
    found = _BARE.fullmatch(text)
    if found:
        return Target(int(found.group(1)))
    raise AnswerError(NO_TARGET)


def target_text(seat: int) -> str:
    """The canonical text form, e.g. `[3]`."""
    return f"[{seat}]"
