"""Relationship sentences: our wordings for generated instances, and the reader that turns a
sentence (ours, the paper's or the released files') back into an `Edge`.

Every wording names exactly two people and says "good" or "bad" unmistakably, so a sentence reads
back to the edge it was written from. The reader also accepts the phrasings of Algorithm 2
("are good friends" / "do not get along") and of the authors' released files ("X and Y have a good
relationship"), with an optional "Person" before a name, any casing and an optional full stop.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from engine.social_graph.graph import Edge

GOOD_WORDINGS = (
    "{a} and {b} get along well.",
    "{a} and {b} are on good terms.",
    "{a} is friendly with {b}.",
    "{a} and {b} like each other.",
)
BAD_WORDINGS = (
    "{a} and {b} are on bad terms.",
    "{a} and {b} do not get along.",
    "{a} is at odds with {b}.",
    "{a} and {b} dislike each other.",
)
# Read but never written: the paper's Algorithm 2 and the released data files.
_READ_ONLY_GOOD = ("{a} and {b} are good friends.", "{a} and {b} have a good relationship.")
_READ_ONLY_BAD = ("{a} and {b} have a bad relationship.",)

_NAME = r"(?:person\s+)?([A-Z])"


@dataclass(frozen=True, slots=True)
class Statement:
    """One line of an instance: the edge it states and the exact sentence shown to players."""

    edge: Edge
    text: str


def _pattern(wording: str) -> re.Pattern[str]:
    body = re.escape(wording.rstrip("."))
    body = body.replace(r"\{a\}", _NAME).replace(r"\{b\}", _NAME).replace(r"\ ", r"\s+")
    return re.compile(rf"\s*{body}\s*\.?\s*", re.IGNORECASE)


_PATTERNS = tuple((_pattern(w), True) for w in GOOD_WORDINGS + _READ_ONLY_GOOD) + tuple(
    (_pattern(w), False) for w in BAD_WORDINGS + _READ_ONLY_BAD)


def verbalise(edge: Edge, rng: random.Random) -> Statement:
    """A sentence for `edge` in one of our wordings, with the two names in random order."""
    wording = rng.choice(GOOD_WORDINGS if edge.good else BAD_WORDINGS)
    a, b = (edge.a, edge.b) if rng.random() < 0.5 else (edge.b, edge.a)
    return Statement(Edge(a, b, edge.good), wording.format(a=a, b=b))


def parse_statement(text: str) -> Edge | None:
    """The edge a whole sentence states, or None when it is not a relationship sentence."""
    for pattern, good in _PATTERNS:
        found = pattern.fullmatch(text)
        if found is not None:
            a, b = found.group(1).upper(), found.group(2).upper()
            return Edge(a, b, good) if a != b else None
    return None
