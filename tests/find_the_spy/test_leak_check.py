"""The "don't say your word" check cannot be bypassed (issue 21): a word hidden by invisible
characters, accents, fullwidth or look-alike letters, spelled out or written as HTML entities is
refused, while ordinary descriptions, even ones holding the word's letters across normal words,
are accepted. The check is engine/wording.py's `says`; these tests play it through the game."""

from __future__ import annotations

import pytest

from engine.find_the_spy.config import FindTheSpyConfig
from engine.find_the_spy.env import FindTheSpyEnv
from engine.wording import says

ENV = FindTheSpyEnv()
CYRILLIC = str.maketrans("aceopxy", "асеорху")  # Cyrillic letters drawn like these Latin ones
GREEK = str.maketrans("aoiv", "αοιν")
CAPITALS = str.maketrans("AEOPCX", "АЕОРСХ")  # capital Cyrillic look-alikes


def game_with_word(word: str):
    """A game whose Player 1 holds `word` (the first seed that deals it to seat 0)."""
    for seed in range(5000):
        game = ENV.new_game(FindTheSpyConfig(), seed, 4)
        if game.words[0] == word:
            return game
    raise AssertionError(f"no seed deals {word!r} to Player 1")


def refused(game, text: str) -> bool:
    game.act(0, text)
    return game.actions[-1].outcome == "invalid" and game.pending() == frozenset((0,))


BYPASSES = {
    "zero-width space": lambda w: f"It is a {w[:3]}\u200b{w[3:]}.",
    "soft hyphen": lambda w: f"It is a {w[:3]}\u00ad{w[3:]}.",
    "word joiner and BOM": lambda w: f"It is a {w[:2]}\u2060{w[2:4]}\ufeff{w[4:]}.",
    "combining accent": lambda w: f"It is a {w[0]}\u0301{w[1:]}.",
    "combining strike": lambda w: "It is a " + "".join(c + "\u0336" for c in w) + ".",
    "precomposed accents": lambda w: "It is a " + w.replace("o", "ó").replace("a", "á") + ".",
    "fullwidth letters": lambda w: "It is a " + "".join(chr(ord(c) + 0xFEE0) for c in w) + ".",
    "mathematical letters": lambda w: "It is a " + "".join(chr(ord(c) - 97 + 0x1D41A)
                                                           for c in w) + ".",
    "Cyrillic look-alikes": lambda w: f"It is a {w.translate(CYRILLIC)}.",
    "Greek look-alikes": lambda w: f"It is a {w.translate(GREEK)}.",
    "capital Cyrillic look-alikes": lambda w: f"A {w.upper().translate(CAPITALS)}!",
    "spaced letters": lambda w: "It is a " + " ".join(w) + ".",
    "hyphenated letters": lambda w: "It is a " + "-".join(w) + ".",
    "dotted letters": lambda w: "It is a " + ". ".join(w.upper()) + ".",
    "hyphen inside": lambda w: f"It is a {w[:3]}-{w[3:]}.",
    "HTML entity": lambda w: f"It is a &#{ord(w[0])};{w[1:]}.",
    "HTML hex entities": lambda w: "It is a " + "".join(f"&#x{ord(c):x};" for c in w) + ".",
    "double-escaped entity": lambda w: f"It is a &amp;#{ord(w[0])};{w[1:]}.",
}


@pytest.mark.parametrize("word", ["lobster", "glass"])
@pytest.mark.parametrize("how", list(BYPASSES))
def test_a_disguised_word_is_refused(how, word):
    text = BYPASSES[how](word)
    assert word not in text.lower()  # a plain substring test misses it
    assert says(text, word) == word
    assert refused(game_with_word(word), text)


@pytest.mark.parametrize(("word", "text"), [
    ("glass", "A big lass drinks from it at breakfast."),
    ("glass", "You see through it; g lass is not a word."),
    ("glass", "Vitamins a, b and c are in what it holds."),
    ("glass", "It holds water, e.g. at a party."),
    ("glass", "Made in the U.S.A. or anywhere, it can shatter."),
    ("lobster", "Big claws, red when cooked, caught in pots."),
    ("lobster", "A lob, stern words, and a crab's cousin."),
    ("lobster", "It lives in the sea: a crustacean, not a fish."),
    ("lobster", "Ёлка and Ωmega are just letters from other scripts."),
])
def test_ordinary_descriptions_are_accepted(word, text):
    assert says(text, word) is None
    game = game_with_word(word)
    game.act(0, text)
    assert game.actions[-1].outcome == "ok"
    assert game.view(None)["public"]["descriptions"][-1]["text"] == text  # kept as written


def test_whitespace_inside_a_description_becomes_a_space():
    game = game_with_word("glass")
    game.act(0, "clear\x1cand\x85fragile")
    assert game.view(None)["public"]["descriptions"][-1]["text"] == "clear and fragile"


def test_a_refusal_names_the_word_to_the_seat_only():
    game = game_with_word("lobster")
    assert refused(game, "l o b s t e r")
    notice = next(e for e in game.events if e.type == "invalid_move")
    assert notice.visible_to == (0,) and '"lobster"' in notice.data["reason"]
