"""People's names: what a name may contain, when two names are the same, and when they are too
close to tell apart on a screen.

- `normalise(name)` is the name a person gets: Unicode NFKC (fullwidth, ligature, mathematical
  and other compatibility forms become the plain letters they stand for), trimmed, with runs of
  spaces made one. A name with a character that shows nothing or disguises the text around it
  (controls, zero-width and other format characters, bidi controls, private-use, unassigned or
  surrogate code points, default-ignorable fillers) is refused with `BadName` saying which
  character and why; so is a name with no letter or digit, or with a pile of combining marks.
- `same(a, b)`: two spellings of one name (NFKC, then case-folded): "Alice" and "ALICE".
- `skeleton(name)`: what a name looks like. Folded as above (so names that are `same` share
  one), every character mapped through a small table of lookalikes of our own (Cyrillic, Greek,
  Armenian and small-capital letters that look like Latin ones, 0 and o, 1 and l and i, dashes,
  dots and quotes; "rn" looks like "m", "vv" like "w"), invisible characters dropped. Two names with one skeleton are confusable: the
  store keeps one person per skeleton (a unique index), so "аlice" (Cyrillic а), "a1ice" and
  "ALICE" are all refused next to "alice". This is the idea of Unicode TR39's skeleton with a
  table short enough to read; it errs on the side of refusing (a person then picks another
  name), and accents stay significant ("José" is not "Jose").
"""

from __future__ import annotations

import re
import unicodedata

from engine.wording import IGNORABLE as _IGNORABLE

MAX_NAME_CHARS = 40  # as server.wire.protocol.MAX_NAME_CHARS (checked there on the raw text)
MAX_MARKS = 3  # combining marks on one letter (more is "zalgo" text that spills over lines)

_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

_REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Co": "a private-use character (it looks different on every screen)",
    "Cs": "a lone surrogate (not a character)",
    "Cn": "an unassigned character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}

# Case-folded letters that look like a Latin letter, and digits and punctuation that pass for
# letters. Where a letter's capital and small forms look like different Latin letters (Greek
# Η/η: H and n), the capital's look wins: the first letter of a name is the one people see.
_LOOKALIKES = {
    # Cyrillic
    "а": "a", "б": "6", "в": "b", "г": "r", "е": "e", "з": "3", "к": "k", "м": "m", "н": "h",
    "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ь": "b", "ѕ": "s",
    "і": "l", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y", "һ": "h", "ӏ": "l",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "ζ": "z", "η": "h", "ι": "l", "κ": "k", "μ": "m",
    "ν": "n", "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ω": "w",
    # Armenian
    "օ": "o", "ս": "u", "ո": "n", "հ": "h", "ց": "g", "զ": "q",
    # Latin letters that pass for other Latin letters
    "ı": "l", "ȷ": "j", "ɑ": "a", "ɡ": "g", "ɩ": "l", "ǀ": "l", "i": "l",
    # small capitals
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ɪ": "l", "ᴊ": "j",
    "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ꜱ": "s", "ᴛ": "t",
    "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
    # digits and punctuation
    "0": "o", "1": "l", "|": "l",
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-",
    "·": ".", "•": ".", "‧": ".", "∙": ".", "․": ".",
    "‘": "'", "’": "'", "ʼ": "'", "′": "'", "`": "'", "´": "'",
}
_SEQUENCES = (("rn", "m"), ("vv", "w"))


class BadName(ValueError):
    """A name that cannot be used; the message says what is wrong."""


class NameTaken(Exception):
    """A name (or one too close to it) that belongs to another person here."""


def _describe(ch: str) -> str:
    return f"U+{ord(ch):04X} {unicodedata.name(ch, '(unnamed)')}"


def _problem(ch: str) -> str | None:
    if _BIDI.match(ch):
        return "a text-direction control"
    category = unicodedata.category(ch)
    if category in _REFUSED_CATEGORIES:
        return _REFUSED_CATEGORIES[category]
    if _IGNORABLE.match(ch) or (category == "Zs" and ch != " "):
        return "an invisible character"
    return None


def normalise(name: str) -> str:
    """The name as it is kept and shown; BadName if it cannot be used."""
    text = unicodedata.normalize("NFKC", name)
    for ch in text:
        problem = _problem(ch)
        if problem is not None:
            raise BadName(f"the name contains {problem} ({_describe(ch)}); names may use "
                          f"only visible letters, digits, marks and single spaces (nothing "
                          f"invisible, nothing that turns the text around)")
    text = re.sub(" {2,}", " ", text.strip())
    if not 0 < len(text) <= MAX_NAME_CHARS:
        raise BadName(f"a name must be 1..{MAX_NAME_CHARS} characters, got {len(text)}")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in text):
        raise BadName("a name needs at least one letter or digit")
    marks = 0
    for i, ch in enumerate(text):
        if unicodedata.category(ch)[0] == "M":
            if i == 0:
                raise BadName(f"the name starts with a combining mark ({_describe(ch)})")
            marks += 1
            if marks > MAX_MARKS:
                raise BadName(f"the name stacks more than {MAX_MARKS} combining marks on one "
                              f"character")
        else:
            marks = 0
    return text


def fold(name: str) -> str:
    """The form two spellings of one name share (NFKC, case-folded)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def same(a: str, b: str) -> bool:
    return fold(a) == fold(b)


def skeleton(name: str) -> str:
    """What a name looks like: names with one skeleton are too close to tell apart. Total: any
    text has a skeleton (invisible characters are dropped), so stored names that predate these
    rules get one too."""
    out = []
    for ch in unicodedata.normalize("NFD", fold(name)):
        if unicodedata.category(ch) == "Zs":
            out.append(" ")
        elif _problem(ch) is None:  # an invisible character does not change how it looks
            out.append(_LOOKALIKES.get(ch, ch))
    text = " ".join("".join(out).split())
    for seq, looks_like in _SEQUENCES:
        text = text.replace(seq, looks_like)
    return unicodedata.normalize("NFC", text)
