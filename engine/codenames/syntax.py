"""Text and structured answers -> typed Codenames actions, or a `ParseError` saying what is wrong.

Text follows the reference format (TextArena 0.7.4, MindGames §4): a clue is `[word n]`, a guess
`[word]`, and `[pass]` ends the turn. The first square-bracket group that reads as the action
asked for counts (other bracket groups, e.g. `[thinking]`, are skipped); as in the reference, no
space is allowed just inside the brackets (`[ whale ]` is no guess). An answer with no bracket
group at all is read whole, ends trimmed, when it is short (`ocean 2`, `whale`). Words are ASCII
letters only and are read in lower case; numbers are ASCII digits, leading zeros skipped. Whether a clue is legal or a guess is
on the board are rules, judged in rules.py, not here. Patterns are linear-time, so hostile text
costs one pass and never raises.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.codenames.actions import PASS, Clue, Guess, Pass
from engine.codenames.config import MAX_CLUE_CHARS

_GROUP = re.compile(r"\[([^\[\]]*)\]")
_CLUE = re.compile(r"([A-Za-z]+)\s+([0-9]+)")
_WORD = re.compile(r"([A-Za-z]+)")
BARE_CHARS = 64  # an answer without brackets is read whole only up to this length
MAX_DIGITS = 3  # a clue number has at most this many digits (the rules allow 0..25 at most)
GUESS_PASS = frozenset(("pass", "stop"))  # words that end an operative's turn (never bank words)
CLUE_PASS = frozenset(("pass",))


@dataclass(frozen=True, slots=True)
class ParseError:
    """Why an answer is not an action. `kind`: "format" (unreadable) or "rule" (readable but
    impossible whatever the board, e.g. a number with too many digits)."""

    message: str
    kind: str = "format"


def _candidates(text: str) -> list[str]:
    groups = [g for g in _GROUP.findall(text) if g.strip()]
    if groups:
        return groups
    return [text.strip()] if text.strip() and len(text) <= BARE_CHARS else []


# ------------------------------------------------------------------------------------- clues
def parse_clue(action: str | Mapping[str, Any], example: str = "signal"
               ) -> Clue | Pass | ParseError:
    """A clue `[word n]`, `[pass]`, or {"word": str, "number": int} / {"text": str}."""
    if isinstance(action, str):
        return _clue_text(action, example)
    text = action.get("text")
    if isinstance(text, str):
        return _clue_text(text, example)
    if action.get("pass") is True:
        return PASS
    word, number = action.get("word"), action.get("number")
    if not isinstance(word, str):
        return ParseError(f"a clue needs a word and a number, like [{example} 2]")
    match = _WORD.fullmatch(word.strip())  # a form's field: its ends are trimmed
    if match is None or len(match.group(1)) > MAX_CLUE_CHARS:
        return _bad_word(word, example)
    if isinstance(number, str) and number.strip().isascii() and number.strip().isdigit():
        number = _number(number.strip())
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        return ParseError(f"the clue number must be a whole number from 0 up, like [{example} 2]")
    return Clue(match.group(1).lower(), number)


def _clue_text(text: str, example: str) -> Clue | Pass | ParseError:
    candidates = _candidates(text)
    for group in candidates:
        match = _CLUE.fullmatch(group)
        if match is not None:
            word, digits = match.groups()
            if len(word) > MAX_CLUE_CHARS:
                return _bad_word(word, example)
            number = _number(digits)
            if number < 0:
                return ParseError(f"the clue number {digits[:8]}... is far too large", "rule")
            return Clue(word.lower(), number)
        if group.lower() in CLUE_PASS:
            return PASS
    if not candidates:
        return ParseError(f"no clue found: write one word and a number in square brackets, "
                          f"like [{example} 2]")
    first = candidates[0]
    if _CLUE.fullmatch(first.strip()) or first.strip().lower() in CLUE_PASS:
        return ParseError(f"no spaces just inside the brackets: write [{first.strip()}]")
    if _WORD.fullmatch(first):
        return ParseError(f"the clue needs a number after the word, like [{example} 2]")
    return _bad_word(first, example)


def _bad_word(word: str, example: str) -> ParseError:
    return ParseError(f"a clue is one word of letters a-z (at most {MAX_CLUE_CHARS}) and a "
                      f"number, like [{example} 2]; {_snippet(word)} is not")


# ----------------------------------------------------------------------------------- guesses
def parse_guess(action: str | Mapping[str, Any]) -> Guess | Pass | ParseError:
    """A guess `[word]` or `[pass]`, or {"choice": word | "pass"} / {"text": str}."""
    if isinstance(action, str):
        return _guess_text(action)
    text = action.get("text")
    if isinstance(text, str):
        return _guess_text(text)
    choice = action.get("choice", action.get("word"))
    if not isinstance(choice, str):
        return ParseError("a guess is one board word, like [apple], or [pass]")
    return _guess_text(f"[{choice.strip()}]")


def _guess_text(text: str) -> Guess | Pass | ParseError:
    candidates = _candidates(text)
    for group in candidates:
        match = _WORD.fullmatch(group)
        if match is not None:
            word = match.group(1).lower()
            return PASS if word in GUESS_PASS else Guess(word)
    if not candidates:
        return ParseError("no guess found: write one board word in square brackets, like "
                          "[apple], or [pass] to end your turn")
    if _WORD.fullmatch(candidates[0].strip()):
        return ParseError(f"no spaces just inside the brackets: write [{candidates[0].strip()}]")
    return ParseError(f"a guess is one board word in square brackets, like [apple], or [pass]; "
                      f"{_snippet(candidates[0])} is not")


# ---------------------------------------------------------------------------------- helpers
def _number(digits: str) -> int:
    """The value of ASCII `digits`, leading zeros skipped (so thousands of them cost nothing and
    never meet int()'s limit on long strings); -1 when more than MAX_DIGITS digits remain."""
    significant = digits.lstrip("0") or "0"
    return int(significant) if len(significant) <= MAX_DIGITS else -1


def clue_text(clue: Clue) -> str:
    """The canonical text of a clue, e.g. `[ocean 2]`."""
    return f"[{clue.word} {clue.number}]"


def _snippet(value: str, limit: int = 24) -> str:
    text = repr(value.strip())
    return text if len(text) <= limit else text[:limit - 1] + "…"
