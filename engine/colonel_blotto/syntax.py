"""Text and structured actions -> `Allocation`, or a `ParseError` saying what is wrong.

Text follows the reference parser (TextArena 0.7.4): the first non-empty `[...]` group (or the
whole answer when there is none) holds tokens `<letter>[:]<digits>`, case-insensitive, separated
by whitespace and/or commas; omitted fields get 0; a field named twice, any other text, or an
unknown field makes the answer invalid. Deliberate differences, all for robustness: digits and
letters are ASCII only (the reference also accepts e.g. Arabic-Indic digits), and content longer
than MAX_CHARS is rejected up front. Every pattern here is linear-time, so hostile input (megabytes,
control characters, endless brackets) costs little and never raises.

The unit budget (at most / exactly N units) is a rule, judged in rules.py, not here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from engine.colonel_blotto.allocation import Allocation

# One token: a field letter, an optional colon, and a count. `\s*(?::\s*)?` is the reference's
# `\s*:?\s*` written so the two runs of spaces cannot trade characters (no quadratic backtracking).
_TOKEN = re.compile(r"([A-Za-z])\s*(?::\s*)?([0-9]+)")
_SEPARATORS = re.compile(r"[\s,]*")
_NEGATIVE = re.compile(r"[A-Za-z]\s*(?::\s*)?-\s*[0-9]")

MAX_CHARS = 2000  # of the allocation text itself; a real allocation of 26 fields fits in ~200
MAX_DIGITS = 12  # more significant digits than any budget allows (also keeps int() cheap)
DEFAULT_EXAMPLE = "[A4 B2 C2]"


@dataclass(frozen=True, slots=True)
class ParseError:
    """Why an answer is not an allocation. category: "format" (unreadable) or "units" (readable
    but an impossible unit count), the paper's two Blotto error kinds."""

    message: str
    category: Literal["format", "units"] = "format"


def parse(action: str | Mapping[str, Any], names: tuple[str, ...],
          example: str = DEFAULT_EXAMPLE) -> Allocation | ParseError:
    """Read a text answer or a structured {field: units} mapping."""
    if isinstance(action, str):
        return parse_text(action, names, example)
    return parse_mapping(action, names)


def parse_text(text: str, names: tuple[str, ...], example: str = DEFAULT_EXAMPLE
               ) -> Allocation | ParseError:
    quick = _canonical(names).match(text)
    if quick is not None:  # the usual answer: "[A4 B2 C2]" with every field once, in order
        return Allocation(tuple(map(_COUNTS.__getitem__, quick.groups())))
    content = bracket_content(text)
    content = (text if content is None else content).strip()
    if not content:
        return ParseError(f"the answer holds no allocation; answer like {example}")
    if len(content) > MAX_CHARS:
        return ParseError(f"the allocation is longer than {MAX_CHARS} characters; "
                          f"answer like {example}")
    found: dict[str, int] = {}
    pos = 0
    for match in _TOKEN.finditer(content):
        if not _SEPARATORS.fullmatch(content, pos, match.start()):
            return _stray_text(content[pos:match.start()], example)
        letter = match.group(1).upper()
        if letter in found:
            return ParseError(f"field {letter} appears more than once; name each field once")
        digits = match.group(2).lstrip("0")
        if len(digits) > MAX_DIGITS:
            return ParseError(f"the unit count for field {letter} is far too large", "units")
        found[letter] = int(digits) if digits else 0
        pos = match.end()
    if not found:
        if _NEGATIVE.search(content):
            return _NEGATIVE_ERROR
        return ParseError(f"no allocation found; give a field letter and a unit count per field, "
                          f"like {example}")
    if not _SEPARATORS.fullmatch(content, pos):
        return _stray_text(content[pos:], example)
    index = _index(names)
    units = [0] * len(names)
    for letter, count in found.items():
        i = index.get(letter)
        if i is None:
            return _unknown_field(letter, names)
        units[i] = count
    return Allocation(tuple(units))


def parse_mapping(action: Mapping[str, Any], names: tuple[str, ...]) -> Allocation | ParseError:
    """A structured action {"A": 4, "B": 2}: field names as keys, missing fields get 0."""
    index = _index(names)
    units = [0] * len(names)
    for key, value in action.items():
        i = index.get(key) if isinstance(key, str) else None
        if i is None:
            return _unknown_field(key, names)
        if isinstance(value, bool) or not isinstance(value, int):
            return ParseError(f"the units for field {key} must be a whole number, "
                              f"got {_snippet(value)}")
        if value < 0:
            return _NEGATIVE_ERROR
        units[i] = value
    return Allocation(tuple(units))


def bracket_content(text: str) -> str | None:
    """What the reference's `\\[([^\\]]+)\\]` search would capture, found in linear time (the
    regex rescans to the end of the text from every '[' when no ']' follows)."""
    start = text.find("[")
    while start != -1:
        end = text.find("]", start + 1)
        if end == -1:
            return None
        if end > start + 1:
            return text[start + 1:end]
        start = text.find("[", end + 1)
    return None


def format_allocation(units: tuple[int, ...] | list[int], names: tuple[str, ...]) -> str:
    """The canonical text of an allocation: "[A4 B2 C2]"."""
    return "[" + " ".join(f"{n}{u}" for n, u in zip(names, units, strict=True)) + "]"


def example(names: tuple[str, ...], units: int) -> str:
    """A valid allocation for prompts and forms: the units spread as evenly as possible."""
    share, extra = divmod(units, len(names))
    return format_allocation([share + (i < extra) for i in range(len(names))], names)


# ---------------------------------------------------------------------------------- helpers
class _Counts(dict[str, int]):
    """Digits -> int, the common unit counts looked up (int() of a string costs more)."""

    def __missing__(self, digits: str) -> int:
        return int(digits)


_COUNTS = _Counts((str(n), n) for n in range(1001))
_NEGATIVE_ERROR = ParseError("unit counts cannot be negative", "units")


@lru_cache(maxsize=32)
def _canonical(names: tuple[str, ...]) -> re.Pattern[str]:
    """Fast path, matched at the start of the whole answer: text without "[", then a first bracket
    group holding every field once, in order, separated by a space and/or a comma, e.g.
    "Plan: [A4 B2 C2]". It is bounded in length, so it needs no MAX_CHARS check, and anything else
    takes the general loop, which gives the same result for these (tested)."""
    token = r"[{}{}]:?([0-9]{{1,{}}})"
    body = r",? ?".join(token.format(n, n.lower(), MAX_DIGITS) for n in names)
    return re.compile(r"[^\[]*\[ ?" + body + r" ?\]")


@lru_cache(maxsize=32)
def _index(names: tuple[str, ...]) -> dict[str, int]:
    return {n: i for i, n in enumerate(names)}


def _snippet(value: Any, limit: int = 24) -> str:
    """A short, printable rendering of user input for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _stray_text(junk: str, example: str) -> ParseError:
    if _NEGATIVE.search(junk):
        return _NEGATIVE_ERROR
    return ParseError(f"unexpected text {_snippet(junk.strip())} in the allocation; use only "
                      f"field letters, unit counts, spaces and commas, like {example}")


def _unknown_field(key: Any, names: tuple[str, ...]) -> ParseError:
    return ParseError(f"there is no field {_snippet(key)}; the fields are {', '.join(names)}")
