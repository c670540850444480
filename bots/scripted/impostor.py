"""The Impostor game's scripted player (`scripted:describer`), deciding only from its seat's
view (its own word and the descriptions it sees), with WordNet 3.0 as its knowledge of words:
the same package data the engine's tier check reads (engine/impostor/similarity.py).

- Describing: a related clue that does not reveal the word: "It is a kind of <broader term>:
  <the WordNet definition>." of the word's most common sense, falling back to the definition
  alone, the broader term alone, then a neutral sentence; every candidate is checked with the
  engine's own leak check (`says`, whole words, inflections) and sentence rule, and the first
  that passes is said.
- Voting: each description is scored by how many content words it shares with its own
  word's profile (its senses' definitions, synonyms, broader and narrower terms). It votes for
  the other player whose description fits its word least (lowest player number on a tie).
  When most of the others' descriptions (two of three) share nothing with its word, its own
  word is likely the odd one: it self-declares, votes for itself, and guesses the majority
  word: the WordNet word whose profile best fits the others' descriptions, among the words
  those descriptions name and their narrower terms.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted
from engine.impostor.config import MAX_CHARS, MAX_SENTENCES
from engine.impostor.similarity import wordnet
from engine.impostor.syntax import sentences
from engine.wording import says

ENV = "impostor"
FALLBACK = "It is something most people have come across in everyday life."
_WORD = re.compile(r"[a-z]+")
STOPWORDS = frozenset("""a an the and or of in on at to for with from by it its is are be was
were you your this that these those as into over under than then there here when where what
who how not no one some any very more most kind used such other which has have having being
something thing things often usually especially person people etc""".split())


def tokens(text: str) -> set[str]:
    """Content words: lower case, three letters or more, stop words left out."""
    return {w for w in _WORD.findall(text.lower()) if len(w) >= 3 and w not in STOPWORDS}


def _name(lemma: str) -> str:
    return lemma.replace("_", " ")


def _sorted(senses: Iterable[Any]) -> list[Any]:
    """WordNet relations in a fixed order (NLTK returns some in set order)."""
    return sorted(senses, key=lambda s: s.name())


def _fits(text: str, word: str) -> bool:
    return (not says(text, word, whole_words=True) and len(text) <= MAX_CHARS
            and 1 <= len(sentences(text)) <= MAX_SENTENCES)


@cache
def description(word: str, clue: str = "full") -> str:
    """The clue the describer gives for `word` (module docstring); `clue` is its style
    (`CLUES`): the broader term with the definition, the broader term alone, or the
    definition alone, each falling back to the others and then to a neutral sentence."""
    senses = wordnet().synsets(word)
    full: list[str] = []
    terse: list[str] = []
    gloss: list[str] = []
    if senses:
        sense = senses[0]
        definition = sense.definition().strip().rstrip(".")
        broader = [_name(h.lemma_names()[0]) for h in _sorted(sense.hypernyms())] \
            or [_name(n) for n in sense.lemma_names() if n.lower() != word.lower()]
        full = [f"It is a kind of {b}: {definition}." for b in broader[:2]]
        terse = [f"It is a kind of {b}." for b in broader[:2]]
        gloss = [f"Think of this: {definition}.",
                 *(f"Think of this: {s.definition().strip().rstrip('.')}." for s in senses[1:3])]
    candidates = {"full": full + gloss[:1] + terse + gloss[1:],
                  "terse": terse + full + gloss,
                  "gloss": gloss + full + terse}[clue]
    return next((c for c in candidates if _fits(c, word)), FALLBACK)


@cache
def profile(word: str) -> frozenset[str]:
    """Content words WordNet relates to `word`: definitions, synonyms, broader and narrower
    terms of its senses (and the word's own forms)."""
    found = set(tokens(word))
    for sense in wordnet().synsets(word):
        found |= tokens(sense.definition())
        related = [sense, *sense.hypernyms(), *_sorted(sense.hyponyms())[:20],
                   *sense.similar_tos()]
        for other in related:
            found |= {t for n in other.lemma_names() for t in tokens(_name(n))}
    return frozenset(found)


def fit(text: str, word: str) -> int:
    """How many content words of a description belong to the word's profile."""
    return len(tokens(text) & profile(word))


def guess_word(texts: Iterable[str]) -> str | None:
    """The word whose profile best fits `texts`, among single words they name and those words'
    narrower terms; None when they name nothing WordNet knows."""
    said = set().union(*(tokens(t) for t in texts))
    reader = wordnet()
    candidates: set[str] = set()
    for w in said:
        for sense in reader.synsets(w)[:2]:
            for narrower in _sorted(sense.hyponyms())[:30]:
                candidates |= {n.lower() for n in narrower.lemma_names() if n.isalpha()}
    candidates -= said
    if not candidates:
        return None
    return max(sorted(candidates), key=lambda c: len(profile(c) & said))


def ballot(seat: int, word: str, descriptions: Iterable[Mapping[str, Any]],
           declare: str = "most") -> dict[str, Any]:
    """The describer's ballot (module docstring), from its view's word and descriptions;
    `declare` (`DECLARES`) is how many of the others' descriptions must share nothing with
    its word before it declares itself: most (two of three), any one, or never."""
    others = {d["seat"]: d["text"] for d in descriptions if d["seat"] != seat}
    if not others:
        return {"suspected_impostor_id": seat + 1, "confidence": 0.0, "reasoning": "nothing "
                "was said", "self_declaration": False, "word_guess": None}
    fits = {s: fit(t, word) for s, t in others.items()}
    unfit = sum(1 for v in fits.values() if v == 0)
    if {"most": unfit * 3 >= len(fits) * 2, "any": unfit >= 1, "never": False}[declare]:
        return {"suspected_impostor_id": seat + 1, "confidence": 0.6,
                "reasoning": "the others' descriptions do not fit my word",
                "self_declaration": True, "word_guess": guess_word(others.values())}
    target = min(fits, key=lambda s: (fits[s], s))
    spread = max(fits.values()) - fits[target]
    return {"suspected_impostor_id": target + 1,
            "confidence": round(min(0.9, 0.4 + 0.1 * spread), 2),
            "reasoning": "its description fits my word least",
            "self_declaration": False, "word_guess": None}


class DescriberBot(Bot):
    never_awaits = True

    def __init__(self, clue: str = "full", declare: str = "most") -> None:
        super().__init__()
        self.clue = clue
        self.declare = declare

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        word = view["private"]["word"]
        if legal.get("kind") == "text":
            return Decision(action=description(word, self.clue))
        return Decision(action=ballot(view["seat"], word, view["public"]["descriptions"],
                                      self.declare))


# Styles of the describer, so a grid of scripted players has as many distinct ones as the
# paper's nine models: how it words a clue, and how sure it must be before it declares itself.
CLUES = {"full": "describes its word by WordNet's broader term and definition",
         "terse": "describes its word by WordNet's broader term alone",
         "gloss": "describes its word by WordNet's definition alone"}
DECLARES = {"most": "votes for the description that fits its word least, or declares itself "
                    "when most do not fit",
            "any": "declares itself as soon as one description shares nothing with its word, "
                   "else votes for the one that fits least",
            "never": "never declares itself: votes for the description that fits its word "
                     "least"}
STYLES = {  # name -> (clue, declare)
    "describer": ("full", "most"), "terse": ("terse", "most"), "gloss": ("gloss", "most"),
    "cautious": ("full", "never"), "bold": ("full", "any"),
    "terse-cautious": ("terse", "never"), "terse-bold": ("terse", "any"),
    "gloss-cautious": ("gloss", "never"), "gloss-bold": ("gloss", "any"),
}
for _style, (_clue, _declare) in STYLES.items():
    register_scripted(ENV, _style, f"{CLUES[_clue]}; {DECLARES[_declare]}")(
        lambda seed, clue=_clue, declare=_declare: DescriberBot(clue, declare))
