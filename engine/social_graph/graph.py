"""People, stated relationships and groups: the vocabulary every part of the kit shares.

People are named by capital letters in order (A, B, C, ... as in the paper), so an instance of n
people always uses exactly the first n letters and every name is one character.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from dataclasses import dataclass
from math import comb

LETTERS = string.ascii_uppercase
MAX_PEOPLE = len(LETTERS)


def people_labels(count: int) -> tuple[str, ...]:
    """The names of `count` people: ("A", "B", "C") for three."""
    if not 1 <= count <= MAX_PEOPLE:
        raise ValueError(f"an instance has 1 to {MAX_PEOPLE} people, not {count}")
    return tuple(LETTERS[:count])


@dataclass(frozen=True, slots=True)
class Edge:
    """One stated relationship: `a` and `b` are on good terms (good=True) or on bad terms.
    Relationships are symmetric; a and b keep the order the sentence used, `pair` drops it."""

    a: str
    b: str
    good: bool

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError(f"a relationship needs two different people, got {self.a} twice")

    @property
    def pair(self) -> tuple[str, str]:
        return (self.a, self.b) if self.a < self.b else (self.b, self.a)

    @property
    def relation(self) -> str:
        return "good" if self.good else "bad"


@dataclass(frozen=True, slots=True)
class Partition:
    """The groups, in canonical form (members sorted, groups ordered by their first member), so
    two partitions of the same people compare equal however they were found."""

    groups: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, groups: Iterable[Iterable[str]]) -> Partition:
        canonical = sorted(tuple(sorted(group)) for group in groups)
        seen: set[str] = set()
        for group in canonical:
            if not group:
                raise ValueError("a group cannot be empty")
            twice = seen.intersection(group)
            if twice:
                raise ValueError(f"{min(twice)} is in more than one group")
            seen.update(group)
        return cls(tuple(canonical))

    @property
    def people(self) -> tuple[str, ...]:
        return tuple(sorted(person for group in self.groups for person in group))

    def group_of(self, person: str) -> tuple[str, ...]:
        for group in self.groups:
            if person in group:
                return group
        raise KeyError(f"{person} is not one of the people")

    def same_group(self, a: str, b: str) -> bool:
        """True when a and b are on good terms (the paper's pair(x, y))."""
        return b in self.group_of(a)

    def neighbours(self, person: str) -> tuple[str, ...]:
        """Everyone on good terms with `person`: the rest of their group, alphabetically."""
        return tuple(other for other in self.group_of(person) if other != person)

    @property
    def group_count(self) -> int:
        return len(self.groups)

    @property
    def good_pairs(self) -> int:
        return sum(comb(len(group), 2) for group in self.groups)

    @property
    def bad_pairs(self) -> int:
        return comb(len(self.people), 2) - self.good_pairs
