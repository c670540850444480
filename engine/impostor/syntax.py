"""The Impostor game's text syntax: a description (free text, checked for length and
sentences) and a ballot (JSON, read as spec §6 recommends), each turned into a typed value the
rules judge.

A ballot is read from a structured action (the form's fields) or from text: code fences are
stripped, the first balanced {...} is parsed as JSON; the target may be 3, "3", "Player 3",
"player_3" or "P3"; booleans may be true/false, "yes"/"no", "true"/"false", 1/0; confidence is a
number (or numeric text) clamped to [0, 1]; the word guess is lower-cased and stripped."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.chat import clean_chat
from engine.wording import says

NO_DESCRIPTION = "(no description)"
REDACTED = "[redacted]"
MAX_GUESS, MAX_REASONING = 60, 1000  # characters kept of a word guess and a reasoning
READ_LIMIT = 20_000  # characters of a description read before judging its length
_FENCE = re.compile(r"```[a-zA-Z]*")
# A sentence ends at . ! ? or … (closing quotes or brackets may follow) before a space and a
# capital letter, a digit or an opening quote: "e.g. a pet" is one sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_TARGET = re.compile(r"^\s*(?:player|p)?[\s_#-]*(\d+)\s*$", re.IGNORECASE)
TRUE_WORDS, FALSE_WORDS = ("true", "yes", "y", "1"), ("false", "no", "n", "0", "", "null",
                                                       "none")
FIELDS = ("suspected_impostor_id", "confidence", "reasoning", "self_declaration", "word_guess")


def description_text(action: Any) -> str:
    """What a seat said, cleaned as chat is (engine/chat.py), not yet cut."""
    if isinstance(action, Mapping):
        value = action.get("text", "")
        action = "" if value is None else value
    return clean_chat(str(action), READ_LIMIT)


def sentences(text: str) -> list[str]:
    """The text's sentences (none when it has no letter)."""
    if not any(c.isalpha() for c in text):
        return []
    return [s for s in _SENTENCE_END.split(text.strip()) if s.strip()]


def first_sentences(text: str, count: int) -> str:
    return " ".join(sentences(text)[:count])


def cut(text: str, max_chars: int) -> str:
    """`text` cut to `max_chars`, at the last space when there is one in the second half."""
    if len(text) <= max_chars:
        return text
    head = text[:max_chars]
    space = head.rfind(" ")
    return (head[:space] if space > max_chars // 2 else head).rstrip()


def redact(text: str, word: str) -> str | None:
    """`text` with every space-separated piece that says `word` replaced by [redacted]; None
    when the word is still there after that (disguised across pieces)."""
    kept = [REDACTED if says(piece, word, whole_words=True) else piece
            for piece in text.split(" ")]
    out = " ".join(kept)
    return None if says(out, word, whole_words=True) else out


@dataclass(frozen=True)
class Ballot:
    """One read ballot: `target` is a player number (1-based, not yet checked against the
    table); `word_guess` is None unless given."""

    target: int
    confidence: float | None
    reasoning: str
    self_declaration: bool
    word_guess: str | None


class BallotError(ValueError):
    """Why a ballot cannot be read (said to its seat, who may try once more)."""


def first_object(text: str) -> str | None:
    """The first balanced {...} of `text` (braces inside JSON strings ignored), or None."""
    start = text.find("{")
    while start != -1:
        depth, in_string, escaped = 0, False, False
        for i in range(start, len(text)):
            c = text[i]
            if in_string:
                if escaped:
                    escaped = False
                elif c == "\\":
                    escaped = True
                elif c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return text[start:i + 1]
        start = text.find("{", start + 1)
    return None


def _fields(action: Any) -> Mapping[str, Any]:
    if isinstance(action, Mapping) and "text" not in action:
        return action
    text = action.get("text") if isinstance(action, Mapping) else action
    text = _FENCE.sub("", "" if text is None else str(text))
    found = first_object(text)
    if found is None:
        raise BallotError("no JSON object found: answer with one object such as "
                          '{"suspected_impostor_id": 3, "confidence": 0.6, "reasoning": "...", '
                          '"self_declaration": false, "word_guess": null}')
    try:
        data = json.loads(found)
    except ValueError:
        raise BallotError("the JSON object could not be read (check quotes and commas)") \
            from None
    if not isinstance(data, dict):
        raise BallotError("the ballot must be a JSON object")
    return data


def _target(value: Any) -> int:
    if isinstance(value, bool) or value is None:
        raise BallotError("suspected_impostor_id is missing: name a player, 1 to 4")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return value
    match = _TARGET.match(str(value)) if isinstance(value, str) else None
    if match is None:
        raise BallotError(f"suspected_impostor_id must name a player (1 to 4), got "
                          f"{json.dumps(value)[:40]}")
    return int(match.group(1))


def _flag(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    text = str(value).strip().lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise BallotError(f"{name} must be true or false, got {json.dumps(value)[:40]}")


def _confidence(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(str(value).strip().rstrip("%")) if isinstance(value, str) \
            else float(value)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(number):
        return None
    return min(max(number, 0.0), 1.0)


def parse_ballot(action: Any) -> Ballot:
    """The ballot in `action` (structured or text); BallotError saying what is wrong."""
    data = _fields(action)
    guess = data.get("word_guess")
    guess = None if guess is None else clean_chat(str(guess), MAX_GUESS).lower() or None
    reasoning = data.get("reasoning")
    return Ballot(target=_target(data.get("suspected_impostor_id")),
                  confidence=_confidence(data.get("confidence")),
                  reasoning="" if reasoning is None else clean_chat(str(reasoning), MAX_REASONING),
                  self_declaration=_flag(data.get("self_declaration"), "self_declaration"),
                  word_guess=guess)
