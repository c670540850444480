"""One Hidden Role Deduction puzzle: the deal, every public statement and the answer.

Seats are numbered 1..n as in the paper; Player 1 is the seat the solver (a person or a model)
plays. `dataset.py` reads and writes instances; this module only holds them, so the solver and
the generator can use them without pulling in the file formats.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.hidden_role.roles import ROLE_ORDER, Role

UNKNOWN = "Unknown"  # an answer role only imported official data may carry (see dataset.py)


@dataclass(frozen=True, slots=True)
class Statement:
    """"Player `speaker` says Player `target` is (claim=True) / is not (False) the criminal"."""

    round: int
    speaker: int
    target: int
    claim: bool

    def text(self) -> str:
        verb = "is" if self.claim else "is not"
        return f"Player {self.speaker} says Player {self.target} {verb} the criminal."

    def true_if(self, criminal: int) -> bool:
        """Whether the statement is true when `criminal` is the criminal."""
        return (self.target == criminal) == self.claim


@dataclass(frozen=True)
class Instance:
    """A puzzle. `roles[0]` is Player 1's actual role; `told` is what Player 1 was told.
    `answer` is (criminal seat, Player 1's actual role) — the pair the solver must find."""

    id: str
    variant: str
    n: int
    rounds: int
    told: Role
    composition: dict[Role, int]
    roles: tuple[Role, ...]
    statements: tuple[Statement, ...]
    answer: tuple[int, str]

    @property
    def criminal(self) -> int:
        return self.roles.index(Role.CRIMINAL) + 1

    def role_of(self, seat: int) -> Role:
        return self.roles[seat - 1]

    def upto(self, t: int | None = None) -> tuple[Statement, ...]:
        """The statements of rounds 1..t (all rounds when t is None): what is known after round t."""
        t = self.rounds if t is None else t
        return tuple(s for s in self.statements if s.round <= t)

    def round_statements(self, t: int) -> tuple[Statement, ...]:
        return tuple(s for s in self.statements if s.round == t)


def counts_of(roles: tuple[Role, ...]) -> dict[Role, int]:
    """Role counts of a deal, in ROLE_ORDER with zeros."""
    counted = Counter(roles)
    return {r: counted.get(r, 0) for r in ROLE_ORDER}
