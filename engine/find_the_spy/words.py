"""The word bank (pairs.txt: our own pairs of related everyday nouns, each word with a few hint
phrases). The leak check every description passes is engine/wording.py's `says`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.wording import says

MIN_LETTERS = 4
TEMPLATE = "A clue: {hint}."
FALLBACK = ("It is something ordinary you would recognise at once.",
            "Most people have seen one up close.",
            "You would know it if you saw it.")


@dataclass(frozen=True)
class Pair:
    first: str
    second: str
    hints: dict[str, tuple[str, ...]]  # word -> its hint phrases

    @property
    def words(self) -> tuple[str, str]:
        return (self.first, self.second)

    def other(self, word: str) -> str:
        return self.second if word == self.first else self.first


def _parse_side(side: str, line: int) -> tuple[str, tuple[str, ...]]:
    word, sep, rest = side.partition(":")
    word = word.strip()
    hints = tuple(h.strip() for h in rest.split(",") if h.strip())
    if not sep or not word or not hints:
        raise ValueError(f"pairs.txt line {line}: expected 'word: hint, hint'")
    return word, hints


def parse_bank(text: str) -> tuple[Pair, ...]:
    pairs = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        sides = line.split("|")
        if len(sides) != 2:
            raise ValueError(f"pairs.txt line {n}: expected two words separated by '|'")
        (a, ha), (b, hb) = (_parse_side(s, n) for s in sides)
        pairs.append(Pair(a, b, {a: ha, b: hb}))
    return tuple(pairs)


@cache
def bank() -> tuple[Pair, ...]:
    """Every pair of the shipped bank, in file order (read once)."""
    return parse_bank(resources.files(__package__).joinpath("pairs.txt").read_text("utf-8"))


@cache
def hints_of(word: str) -> tuple[str, ...]:
    """The hint phrases shipped for `word` (empty for a word not in the bank)."""
    for pair in bank():
        if word in pair.hints:
            return pair.hints[word]
    return ()


@cache
def partner_of(word: str) -> str | None:
    """The other word of the bank's pair holding `word`."""
    for pair in bank():
        if word in pair.hints:
            return pair.other(word)
    return None


def hint_sentence(word: str, round_: int) -> str:
    """A true sentence about `word` that does not leak it, from the bank's hints: a different
    hint each round (1-based), cycling; a plain fallback for a word the bank lacks."""
    hints = hints_of(word)
    candidates = [TEMPLATE.format(hint=hints[(round_ - 1 + i) % len(hints)])
                  for i in range(len(hints))] + list(FALLBACK)
    return next(c for c in candidates if not says(c, word))
