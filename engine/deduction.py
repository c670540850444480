"""The social-deduction kit: what Secret Mafia, AmongAgents (and the games to come) share.

- alive sets: who is still in (`living`), of which side (`living_of`);
- speaking orders: in seat order, or drawn from a game's rng (`seat_order`, `drawn_order`);
- ballots: a sequential one (voters in turn, each sees the votes before theirs) and a
  simultaneous one (every voter at once, nothing shown until all are in);
- plurality with a tie policy (drawn by lot, or nobody) and a skip policy (a skip is a vote for
  nobody that competes with the players, or an abstention that does not count).

Pure functions and small classes over seat numbers: the rules that use them keep their state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

SKIP = "skip"  # a vote for nobody (counted when skips compete); None is an abstention
Choice = int | str | None
TiePolicy = Literal["lot", "nobody"]


def living(alive: Sequence[bool]) -> list[int]:
    """The seats still in, in seat order."""
    return [s for s, up in enumerate(alive) if up]


def living_of(alive: Sequence[bool], seats: Collection[int]) -> list[int]:
    """The living seats among `seats` (a side), in seat order."""
    return [s for s, up in enumerate(alive) if up and s in seats]


def seat_order(alive: Sequence[bool]) -> list[int]:
    """The living in seat order (AmongAgents: every phase goes round the table)."""
    return living(alive)


def drawn_order(rng: random.Random, seats: Sequence[int]) -> list[int]:
    """`seats` in an order drawn from `rng` (Secret Mafia: a new order every day)."""
    return rng.sample(list(seats), len(seats))


@dataclass(frozen=True, slots=True)
class Tally:
    """A ballot's outcome: the chosen seat (None: nobody), the seats tied at the top (empty
    when there was no tie) and the votes each candidate got (SKIP included when it counted)."""

    chosen: int | None
    tied: tuple[int, ...] = ()
    counts: tuple[tuple[Choice, int], ...] = ()


def plurality(votes: Iterable[Choice], eligible: Collection[int], *, ties: TiePolicy,
              rng: random.Random | None = None, skips_count: bool = False) -> Tally:
    """The most voted seat among `eligible` (votes for others and abstentions, None, do not
    count). Ties: "lot" draws the winner among the tied seats with `rng`; "nobody" chooses
    nobody. With `skips_count`, SKIP votes are a candidate too: when skip has the most votes,
    alone or tied, nobody is chosen."""
    counts = Counter(v for v in votes
                     if (v in eligible and v.__class__ is int) or (skips_count and v == SKIP))
    listed = tuple(sorted(counts.items(), key=lambda kv: (kv[0] == SKIP, kv[0])))
    if not counts:
        return Tally(None, (), listed)
    top = max(counts.values())
    leaders = sorted(s for s, n in counts.items() if n == top and s != SKIP)
    if counts.get(SKIP, 0) == top:
        return Tally(None, tuple(leaders) if leaders else (), listed)
    if len(leaders) == 1:
        return Tally(leaders[0], (), listed)
    if ties == "nobody":
        return Tally(None, tuple(leaders), listed)
    if rng is None:
        raise ValueError("a tie drawn by lot needs an rng")
    return Tally(rng.choice(leaders), tuple(leaders), listed)


@dataclass
class SequentialBallot:
    """Voters in `order`, one at a time; every vote is public as soon as it is cast."""

    order: list[int]
    votes: list[tuple[int, Choice]] = field(default_factory=list)

    @property
    def voter(self) -> int | None:
        """Who votes next (None: everyone has voted)."""
        return self.order[len(self.votes)] if len(self.votes) < len(self.order) else None

    def cast(self, seat: int, choice: Choice) -> None:
        if seat != self.voter:
            raise ValueError(f"seat {seat} is not the next voter")
        self.votes.append((seat, choice))

    def drop(self, seat: int) -> None:
        """`seat` is out before its turn to vote: it no longer votes."""
        done = {s for s, _ in self.votes}
        if seat not in done and seat in self.order:
            self.order.remove(seat)

    @property
    def complete(self) -> bool:
        return self.voter is None

    def choices(self) -> list[Choice]:
        return [c for _, c in self.votes]


@dataclass
class SimultaneousBallot:
    """Every voter at once; the votes are shown only when the ballot is complete."""

    voters: frozenset[int]
    cast_votes: dict[int, Choice] = field(default_factory=dict)

    @property
    def waiting(self) -> frozenset[int]:
        return self.voters - self.cast_votes.keys()

    def cast(self, seat: int, choice: Choice) -> None:
        if seat not in self.waiting:
            raise ValueError(f"seat {seat} has no vote to cast")
        self.cast_votes[seat] = choice

    @property
    def complete(self) -> bool:
        return not self.waiting

    def choices(self) -> list[Choice]:
        """The votes in seat order (only once complete: before, they are secret)."""
        if not self.complete:
            raise ValueError("a simultaneous ballot is secret until every vote is in")
        return [self.cast_votes[s] for s in sorted(self.cast_votes)]
