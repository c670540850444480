"""The word bank, dealing a board, and the illegal-clue rule (shared by the rules, the bots and
the prompt builder, so all of them judge a clue exactly alike)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources

from engine.codenames.config import ASSASSIN, BLUE, BOARD_SIZE, NEUTRAL, RED, CodenamesConfig

# Clue words shown as examples in prompts and forms; the first one that is legal against the
# whole bank is used (tests/codenames checks that one is), so an example never loses a game.
EXAMPLE_CLUES = ("signal", "zephyr", "quartz", "jigsaw")


@cache
def bank() -> tuple[str, ...]:
    """Our own bank of common nouns (words.txt, one a line), sorted: lower-case ASCII letters."""
    text = resources.files(__package__).joinpath("words.txt").read_text("utf-8")
    words = sorted({line.strip() for line in text.splitlines() if line.strip()})
    bad = [w for w in words if not (w.isascii() and w.isalpha() and w.islower())]
    if bad:
        raise ValueError(f"words.txt holds words that are not lower-case letters: {bad[:5]}")
    if len(words) < BOARD_SIZE:
        raise ValueError(f"words.txt needs at least {BOARD_SIZE} words, has {len(words)}")
    return tuple(words)


def deal(config: CodenamesConfig, rng: random.Random) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """25 distinct words from the bank and a shuffled key (one label per word)."""
    words = tuple(rng.sample(bank(), BOARD_SIZE))
    labels = [RED] * config.red_words + [BLUE] * config.blue_words + \
        [NEUTRAL] * config.neutral_words + [ASSASSIN] * config.assassins
    rng.shuffle(labels)
    return words, tuple(labels)


def clue_conflict(clue: str, words: Iterable[str]) -> str | None:
    """The first board word that the clue is part of, or that is part of the clue, ignoring case
    (revealed words count too); None when the clue is legal. "sea" on a board with "seal" is
    illegal, and so is "seahorse" on a board with "horse"."""
    word = clue.casefold()
    for board_word in words:
        other = board_word.casefold()
        if word in other or other in word:
            return board_word
    return None


@cache
def example_clue() -> str:
    """A clue word that is legal on every board the bank can deal."""
    for clue in EXAMPLE_CLUES:
        if clue_conflict(clue, bank()) is None:
            return clue
    raise ValueError("no example clue is legal against the whole bank")


def key_by_label(words: Sequence[str], labels: Sequence[str]) -> dict[str, list[str]]:
    """{label: [words in board order]} for every label, the form the end of a game reveals."""
    key: dict[str, list[str]] = {RED: [], BLUE: [], NEUTRAL: [], ASSASSIN: []}
    for word, label in zip(words, labels, strict=True):
        key[label].append(word)
    return key


def illegal_reason(word: str, conflict: str) -> str:
    """Why a clue is illegal, in words (`conflict` is what `clue_conflict` found)."""
    if word == conflict.casefold():
        return f"the clue {_quote(word)} is a word on the board"
    if word in conflict.casefold():
        return f"the clue {_quote(word)} is part of the board word {_quote(conflict)}"
    return f"the clue {_quote(word)} contains the board word {_quote(conflict)}"


def _quote(word: str) -> str:
    return f"'{word}'"
