"""Does a text say a secret word? The check behind "describe your word without saying it" (Find
the Spy; and the Impostor game, which counts whole words only). Pure and fast: a description of a few hundred
characters costs a few passes over it.

A text says the word when the word, or one of its simple plural forms, appears in it
case-insensitively, on its own or inside a longer word ("cupcake" says "cake"), in any of these
readings of the text, each made to undo one way of hiding a word from a plain substring test:

- as written, after: HTML entities decoded (`&#108;obster`); NFKC (fullwidth `ｌｏｂｓｔｅｒ`,
  ligatures, mathematical and circled letters); format characters dropped (zero-width spaces
  and joiners, the soft hyphen, bidi marks, tag characters) with the invisible fillers and
  variation selectors; combining marks dropped (`lóbster`, `l̶obster`); letters of other scripts
  that look like a Latin letter read as that letter (Cyrillic `lоbstеr`, Greek `ο`, from
  Unicode's confusables data via `confusable-homoglyphs`); case folded;
- with spelled-out letters joined: a run of two or more single letters, each standing alone and
  each separated from the next by one to three characters that are neither letters nor digits
  (`l o b s t e r`, `g-l-a-s-s`, `g. l. a. s. s`), read as one word;
- with separators inside a word removed: a hyphen, dot, apostrophe, underscore, asterisk, slash,
  middle dot... between two letters is dropped (`lob-ster`, `lob.ster`).

Inflections: besides the plurals, a form whose spelling changes the word's own letters counts
too: *-y* to *-i-* ("happier", "hurried"), a dropped final *e* ("making"), *-ie* to *-y*
("lying"), and a short list of irregular verbs and comparatives ("began", "ran", "better").

Whole words (`whole_words=True`, the Impostor game's rule): the word counts only as a word of
its own, in any of its inflected forms (+s, +es, +ed, +ing, +er, +est, +ly, a doubled final
consonant, and the changes above); inside a longer word it is no leak ("category" does not say
"cat"). The readings are the same, so a disguised or spelled-out word is still found; a word
that only the joined readings make (spelled-out letters, pieces joined across separators) is
searched whole, since joining may take in a neighbouring lone letter ("a d o g").

Two letter groups of two letters or more separated by a space are never joined ("lob ster",
"g lass"): nothing tells them from two ordinary words, and joining every pair of words would
refuse innocent text ("a big lass" says "glass" once its spaces go). Digits standing for letters
(`l0bster`) are not read as letters either.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import cache, lru_cache

IRREGULAR = {"mouse": "mice", "goose": "geese", "tooth": "teeth", "foot": "feet",
             "child": "children", "person": "people", "louse": "lice", "woman": "women"}
# Default-ignorable code points that are not format characters (Cf): they show nothing (the
# combining grapheme joiner, Hangul fillers, Mongolian selectors, the braille blank, variation
# selectors).
IGNORABLE = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f"
                       "\uffa0\U000e0100-\U000e01ef]")
_LETTERS = re.compile(r"[^\W\d_]+")  # runs of letters (any script)
_GAP = re.compile(r"[^\w]{1,3}")  # what may stand between spelled-out letters
_SPELLED = re.compile(r"(?<![^\W\d_])[^\W\d_][^\w]{1,3}[^\W\d_](?![^\W\d_])")  # two at least
_INNER = re.compile(r"(?<=[^\W\d_])[-.'_*/·•‐‑‒–—~+|:](?=[^\W\d_])")  # a separator in a word


IRREGULAR_FORMS = {
    "begin": ("began", "begun"), "run": ("ran",), "swim": ("swam", "swum"),
    "sing": ("sang", "sung"), "fly": ("flew", "flown"), "grow": ("grew", "grown"),
    "throw": ("threw", "thrown"), "speak": ("spoke", "spoken"), "buy": ("bought",),
    "see": ("saw", "seen"), "fight": ("fought",), "leap": ("leapt",), "sleep": ("slept",),
    "write": ("wrote", "written"), "drive": ("drove", "driven"), "eat": ("ate", "eaten"),
    "give": ("gave", "given"), "take": ("took", "taken"), "go": ("went", "gone"),
    "come": ("came",), "find": ("found",), "think": ("thought",), "teach": ("taught",),
    "catch": ("caught",), "bring": ("brought",), "sell": ("sold",), "tell": ("told",),
    "feel": ("felt",), "keep": ("kept",), "leave": ("left",), "make": ("made",),
    "say": ("said",), "pay": ("paid",), "fall": ("fell", "fallen"), "hide": ("hid", "hidden"),
    "ride": ("rode", "ridden"), "shake": ("shook", "shaken"), "steal": ("stole", "stolen"),
    "wake": ("woke", "woken"), "good": ("better", "best"), "bad": ("worse", "worst"),
}
_SUFFIXES = ("s", "es", "ed", "ing", "er", "est", "ly")
_AFTER_Y = ("es", "ed", "er", "est", "ly", "ness")  # consonant + y: happy -> happiness


def inflections(word: str) -> tuple[str, ...]:
    """Every simple inflection of `word` (lower case), the word first: the plurals `forms`
    knows, the regular suffixes, and the spellings that change the word's own letters."""
    word = word.lower()
    out = [word, *(word + s for s in _SUFFIXES)]
    if word in IRREGULAR:
        out.append(IRREGULAR[word])
    out += IRREGULAR_FORMS.get(word, ())
    if len(word) > 1 and word.endswith("y") and word[-2] not in "aeiou":
        out += [word[:-1] + "i" + s for s in _AFTER_Y]
    if word.endswith("ie"):
        out.append(word[:-2] + "ying")
    elif word.endswith("e") and not word.endswith("ee"):
        out += [word[:-1] + "ing", word + "d", word + "r", word + "st"]
    if word.endswith("fe"):
        out.append(word[:-2] + "ves")
    elif word.endswith("f"):
        out.append(word[:-1] + "ves")
    if len(word) >= 3 and word[-1] not in "aeiouwxy" and word[-2] in "aeiou" \
            and word[-3] not in "aeiou":  # one vowel before one consonant: stop -> stopped
        out += [word + word[-1] + s for s in ("ed", "ing", "er", "est")]
    return tuple(dict.fromkeys(out))


def forms(word: str) -> tuple[str, ...]:
    """The spellings of `word` a text may not contain anywhere (lower case): the word, and
    each inflection that does not contain the word ("berries", "knives", "mice", "making",
    "began"; "lakes" contains "lake", so the word itself finds it)."""
    word = word.lower()
    return (word, *(f for f in inflections(word) if word not in f))


def says(text: str, word: str, *, whole_words: bool = False) -> str | None:
    """The form of `word` that `text` says (in any reading of the module's docstring), or None
    when it says none. With `whole_words`, only a whole word of the text counts."""
    if not word or not text:
        return None
    if whole_words:
        every = _whole(word)
        seen: set[str] = set()
        for reading in readings(text):
            tokens = _LETTERS.findall(reading)
            found = next((t for t in tokens if t in every), None)
            if found is None and seen:
                # A word made by joining spelled-out letters or pieces may take in a lone
                # "a" or "I" before it ("a d o g" reads "adog"): inside those, a form counts.
                found = next((f for t in tokens if t not in seen for f in every if f in t),
                             None)
            if found is not None:
                return found
            seen.update(tokens)
        return None
    wanted = _wanted(word)
    for reading in readings(text):
        found = next((f for f in wanted if f in reading), None)
        if found is not None:
            return found
    return None


@lru_cache(maxsize=1024)
def _wanted(word: str) -> tuple[str, ...]:
    return forms(plain(word))


@lru_cache(maxsize=1024)
def _whole(word: str) -> frozenset[str]:
    return frozenset(inflections(plain(word)))


def readings(text: str) -> tuple[str, ...]:
    """The text as written (normalised), with spelled-out letters joined, and with separators
    inside words removed (each only when it differs)."""
    base = plain(text)
    out = [base]
    if _SPELLED.search(base):
        out.append(_join_spelled(base))
    joined = _INNER.sub("", base)
    if joined != base:
        out.append(joined)
    return tuple(out)


def plain(text: str) -> str:
    """Entities decoded, NFKC, invisible characters and combining marks dropped, look-alike
    letters read as Latin ones, case folded."""
    for _ in range(3):  # an entity may hide another (`&amp;#108;`)
        decoded = html.unescape(text)
        if decoded == text:
            break
        text = decoded
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii():
        text = "".join(_strip(c) for c in unicodedata.normalize("NFD", text))
        text = unicodedata.normalize("NFC", text).translate(_look_alikes())
    return text.casefold()


def _strip(char: str) -> str:
    if char.isascii():
        return char
    if unicodedata.category(char) in ("Mn", "Me", "Cf") or IGNORABLE.match(char):
        return ""
    return char


def _join_spelled(text: str) -> str:
    """`text` with every run of spelled-out single letters written as one word."""
    out: list[str] = []
    copied = 0  # the text before this is in `out`
    letters: list[str] = []  # the current run of single letters
    start = end = 0  # where the current run starts, and where its last letter ends
    for match in _LETTERS.finditer(text):
        single = len(match.group()) == 1
        if single and letters and _GAP.fullmatch(text, end, match.start()):
            letters.append(match.group())
            end = match.end()
            continue
        if len(letters) > 1:
            out += (text[copied:start], "".join(letters))
            copied = end
        letters = [match.group()] if single else []
        start, end = match.span()
    if len(letters) > 1:
        out += (text[copied:start], "".join(letters))
        copied = end
    out.append(text[copied:])
    return "".join(out)


@cache
def _look_alikes() -> dict[int, str]:
    """A `str.translate` table: each non-ASCII character that Unicode's confusables data says
    looks like one ASCII letter, to that letter (case kept: NFKC and case folding come around
    it). Read once, on the first text that is not ASCII."""
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[int, str] = {}
    for char, glyphs in confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        letters = sorted({g for g in (_bare(glyph["c"]) for glyph in glyphs)
                          if len(g) == 1 and g.isascii() and g.isalpha()})
        if letters:
            same_case = [g for g in letters if g.isupper() == char.isupper()]
            table[ord(char)] = (same_case or letters)[0]
    return table


def _bare(glyph: str) -> str:
    """A homoglyph without its marks and invisible characters ("l̸" -> "l")."""
    return "".join(_strip(c) for c in unicodedata.normalize("NFD", glyph))
