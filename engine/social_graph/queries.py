"""The four query types of Social Graph Analysis, their ground truth, and how answers are read
and scored (paper appendix F and its evaluation prompts).

| kind        | asks                                         | answer format                          |
|-------------|----------------------------------------------|----------------------------------------|
| pairwise    | are X and Y on good terms?                   | `Yes` / `No`                           |
| membership  | who is on good terms with X?                 | `B, D, F` (alphabetical) or `No one`   |
| group_count | how many groups are there?                   | `3`                                    |
| pair_count  | how many good pairs and how many bad pairs?  | `X pairs have good relationships, Y pairs have bad relationships` |

Reading: the last `Final Answer: ...` in the reply wins (via `engine.answers.last_match`: any
casing, markdown bold ignored); a reply without that label counts only when the whole reply is a
bare answer on one line (what a person types). Scoring is exact match on the value read: a
membership list is compared as a set of names (order, separators and casing do not matter; the
authors' own scorer compares sets too). Unreadable answers are wrong; nothing here raises on text.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from engine.answers import last_match
from engine.social_graph.graph import Partition


class Kind(StrEnum):
    PAIRWISE = "pairwise"
    MEMBERSHIP = "membership"
    GROUP_COUNT = "group_count"
    PAIR_COUNT = "pair_count"


KINDS = tuple(Kind)
# The file-name suffix of each kind in the authors' released data (relation_<name>.json).
OFFICIAL_NAMES = {Kind.PAIRWISE: "reasoning", Kind.MEMBERSHIP: "group",
                  Kind.GROUP_COUNT: "cluster", Kind.PAIR_COUNT: "count"}
SUBJECT_SIZE = {Kind.PAIRWISE: 2, Kind.MEMBERSHIP: 1, Kind.GROUP_COUNT: 0, Kind.PAIR_COUNT: 0}

Value = bool | int | frozenset[str] | tuple[int, int]


@dataclass(frozen=True, slots=True)
class Query:
    """One question about an instance. `subject` names the people it is about (two for pairwise,
    one for membership, none for the counts); `answer` is the canonical answer text."""

    kind: Kind
    subject: tuple[str, ...]
    question: str
    answer: str


def question_text(kind: Kind, subject: tuple[str, ...] = ()) -> str:
    if kind is Kind.PAIRWISE:
        return f"Are {subject[0]} and {subject[1]} on good terms?"
    if kind is Kind.MEMBERSHIP:
        return f"Who is on good terms with {subject[0]}?"
    if kind is Kind.GROUP_COUNT:
        return "How many separate groups do these people form?"
    return "How many pairs of people are on good terms, and how many pairs are on bad terms?"


def answer_instructions(kind: Kind) -> str:
    """How to write the answer: the paper's formats, in our words."""
    if kind is Kind.PAIRWISE:
        return "End your reply with the line `Final Answer: Yes` or `Final Answer: No`."
    if kind is Kind.MEMBERSHIP:
        return ("End your reply with `Final Answer: ` and the names in alphabetical order, "
                "separated by commas (like `Final Answer: B, D, F`), or `Final Answer: No one` "
                "when nobody is.")
    if kind is Kind.GROUP_COUNT:
        return "End your reply with `Final Answer: ` and the number, like `Final Answer: 3`."
    return ("End your reply with `Final Answer: X pairs have good relationships, Y pairs have "
            "bad relationships`, with X and Y replaced by the two counts.")


def truth_value(kind: Kind, subject: tuple[str, ...], partition: Partition) -> Value:
    """The correct answer, straight from the groups."""
    if kind is Kind.PAIRWISE:
        return partition.same_group(subject[0], subject[1])
    if kind is Kind.MEMBERSHIP:
        return frozenset(partition.neighbours(subject[0]))
    if kind is Kind.GROUP_COUNT:
        return partition.group_count
    return (partition.good_pairs, partition.bad_pairs)


def format_value(kind: Kind, value: Value) -> str:
    """The canonical answer text for a value (what `Final Answer:` should be followed by)."""
    if kind is Kind.PAIRWISE:
        return "Yes" if value else "No"
    if kind is Kind.MEMBERSHIP:
        return ", ".join(sorted(value)) if value else "No one"
    if kind is Kind.GROUP_COUNT:
        return str(value)
    good, bad = value
    return f"{good} pairs have good relationships, {bad} pairs have bad relationships"


def truth(kind: Kind, subject: tuple[str, ...], partition: Partition) -> str:
    return format_value(kind, truth_value(kind, subject, partition))


def make_query(kind: Kind, subject: tuple[str, ...], partition: Partition) -> Query:
    if len(subject) != SUBJECT_SIZE[kind]:
        raise ValueError(f"a {kind} query is about {SUBJECT_SIZE[kind]} people, not {subject}")
    return Query(kind, subject, question_text(kind, subject), truth(kind, subject, partition))


def make_queries(partition: Partition, rng: random.Random, balanced: bool = True
                 ) -> tuple[Query, ...]:
    """One query of each kind. The pairwise pair is drawn so that Yes and No are equally likely
    when `balanced` (a uniform pair is mostly No, which "always No" would exploit); otherwise
    uniformly over all pairs. The membership subject is a uniform person."""
    pairs = list(combinations(partition.people, 2))
    good = [pair for pair in pairs if partition.same_group(*pair)]
    bad = [pair for pair in pairs if not partition.same_group(*pair)]
    pool = pairs
    if balanced and good and bad:
        pool = good if rng.random() < 0.5 else bad
    a, b = rng.choice(pool)
    if rng.random() < 0.5:
        a, b = b, a
    subjects = {Kind.PAIRWISE: (a, b), Kind.MEMBERSHIP: (rng.choice(partition.people),),
                Kind.GROUP_COUNT: (), Kind.PAIR_COUNT: ()}
    return tuple(make_query(kind, subjects[kind], partition) for kind in KINDS)


_QUESTIONS = (
    (Kind.PAIRWISE, re.compile(r"(?:do|are)\s+(?:person\s+)?([A-Z])\s+and\s+(?:person\s+)?"
                               r"([A-Z])\s+(?:have\s+a\s+good\s+relationship|on\s+good\s+terms)",
                               re.IGNORECASE)),
    (Kind.MEMBERSHIP, re.compile(r"who\s+(?:has\s+a\s+good\s+relationship|is\s+on\s+good\s+"
                                 r"terms)\s+with\s+(?:person\s+)?([A-Z])\b", re.IGNORECASE)),
    (Kind.GROUP_COUNT, re.compile(r"how\s+many\s+(?:\w+\s+)?groups", re.IGNORECASE)),
    (Kind.PAIR_COUNT, re.compile(r"how\s+many\s+pairs", re.IGNORECASE)),
)


def parse_question(text: str) -> tuple[Kind, tuple[str, ...]] | None:
    """The kind and subject of a question in our wording or the paper's; None if neither."""
    for kind, pattern in _QUESTIONS:
        found = pattern.search(text)
        if found is not None:
            return kind, tuple(name.upper() for name in found.groups())
    return None


# Possessive quantifiers keep both readers linear on hostile input.
_LABELLED = re.compile(r"final\s*+answer\s*+:\s*+([^\n]*+)", re.IGNORECASE)
_BARE = re.compile(r"\A\s*+([^\n]*+)\s*+\Z")
_YES_NO = re.compile(r"(yes|no)\b", re.IGNORECASE)
_NUMBER = re.compile(r"(\d{1,6})(?!\d|[.,]\d)")  # "2.5" is not 2
_COUNTS = re.compile(r"(\d{1,6})\s+pairs?\s+have\s+good\s+relationships?\s*[,;]?\s*(?:and\s+)?"
                     r"(\d{1,6})\s+pairs?\s+have\s+bad\s+relationships?\b", re.IGNORECASE)
_NOBODY = re.compile(r"no[\s-]*one|none|nobody", re.IGNORECASE)
_LIST_SEPARATORS = re.compile(r"[\s,;/&]+|\band\b", re.IGNORECASE)
_PERSON = re.compile(r"\bperson\s+", re.IGNORECASE)


def _names(line: str) -> frozenset[str] | None:
    if _NOBODY.fullmatch(line):
        return frozenset()
    tokens = [token for token in _LIST_SEPARATORS.split(_PERSON.sub("", line)) if token]
    if not tokens or any(len(token) != 1 or not token.isascii() or not token.isalpha()
                         for token in tokens):
        return None
    return frozenset(token.upper() for token in tokens)


def _read_line(kind: Kind, line: str) -> Value | None:
    line = line.strip().strip("`'\"*_").rstrip(".!").strip()
    if kind is Kind.PAIRWISE:
        found = _YES_NO.match(line)
        return None if found is None else found.group(1).lower() == "yes"
    if kind is Kind.MEMBERSHIP:
        return _names(line)
    if kind is Kind.GROUP_COUNT:
        found = _NUMBER.match(line)
        return None if found is None else int(found.group(1))
    found = _COUNTS.match(line)
    return None if found is None else (int(found.group(1)), int(found.group(2)))


def read_answer(kind: Kind, text: str) -> Value | None:
    """The value a reply gives: the line after its last `Final Answer:` label, or the whole
    reply when it has no label and is one line. None when there is no readable answer."""
    found = last_match(_LABELLED, text) or last_match(_BARE, text)
    return None if found is None else _read_line(kind, found.group(1))


def score(query: Query, text: str) -> bool:
    """Exact match: True when the reply's answer equals the query's."""
    expected = read_answer(query.kind, query.answer)
    if expected is None:
        raise ValueError(f"the stored answer {query.answer!r} is not a {query.kind} answer")
    return read_answer(query.kind, text) == expected
