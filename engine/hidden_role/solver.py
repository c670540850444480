"""The strict solver (spec socialmaze §3): which (criminal, Player 1's actual role) pairs some full
deal of the roles allows after round t, where the only hard rule is that every statement made by
an actual Investigator is true.

Why it does not enumerate deals: once Player 1's role r and the criminal c are fixed, the rest of
the deal is a counting question. Rumormongers, Lunatics and the Criminal may say anything, so a
deal exists exactly when (a) Player 1's own statements are true if r is Investigator, and (b) at
least as many of the other players (not Player 1, not c) spoke only truths about c as there are
Investigator seats left to fill; any of them can take those seats and the rest take the remaining
roles in any order. Checking every (r, c) this way gives the same set as enumerating all distinct
permutations of the composition (tests compare it with an itertools brute force) in O(n x
statements) instead of up to n!/(counts!) deals — microseconds at n = 10.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from engine.hidden_role.instance import Instance, Statement
from engine.hidden_role.roles import CRIM, INV, ROLE_ORDER, Role, could_be

Answer = tuple[int, Role]


def hypotheses(instance: Instance) -> tuple[Role, ...]:
    """The actual roles Player 1 may have: the two its told role allows that the game seats."""
    return tuple(r for r in could_be(instance.told) if instance.composition.get(r, 0) > 0)


def investigators_to_seat(instance: Instance, p1_role: Role) -> int:
    """Investigators among the other players when Player 1's actual role is `p1_role`."""
    return instance.composition.get(INV, 0) - (1 if p1_role is INV else 0)


def criminal_candidates(instance: Instance, p1_role: Role) -> tuple[int, ...]:
    """Who can be the criminal under `p1_role`: Player 1 alone if it is the Criminal, else anyone
    else."""
    return (1,) if p1_role is CRIM else tuple(range(2, instance.n + 1))


def by_speaker(statements: Iterable[Statement]) -> dict[int, list[Statement]]:
    said: dict[int, list[Statement]] = defaultdict(list)
    for s in statements:
        said[s.speaker].append(s)
    return said


def false_statements(said: dict[int, list[Statement]], seat: int, criminal: int
                     ) -> list[Statement]:
    """What `seat` said that is false when `criminal` is the criminal (in the order said)."""
    return [s for s in said.get(seat, ()) if not s.true_if(criminal)]


def _truthful(said: dict[int, list[Statement]], seat: int, criminal: int) -> bool:
    return all(s.true_if(criminal) for s in said.get(seat, ()))


def _possible(instance: Instance, said: dict[int, list[Statement]], criminal: int
              ) -> frozenset[int]:
    return frozenset(v for v in range(2, instance.n + 1)
                     if v != criminal and _truthful(said, v, criminal))


def possible_investigators(instance: Instance, t: int | None, criminal: int) -> frozenset[int]:
    """The other players (not Player 1, not `criminal`) whose statements up to round t are all
    true when `criminal` is the criminal: the only ones who can be Investigators then."""
    return _possible(instance, by_speaker(instance.upto(t)), criminal)


def _consistent(instance: Instance, said: dict[int, list[Statement]], p1_role: Role,
                criminal: int) -> bool:
    if p1_role is INV and not _truthful(said, 1, criminal):
        return False
    return len(_possible(instance, said, criminal)) >= investigators_to_seat(instance, p1_role)


def consistent(instance: Instance, t: int | None, p1_role: Role, criminal: int) -> bool:
    """Whether some deal with Player 1 as `p1_role` and `criminal` as the criminal fits every
    statement up to round t."""
    if p1_role not in hypotheses(instance) or criminal not in criminal_candidates(instance, p1_role):
        return False
    return _consistent(instance, by_speaker(instance.upto(t)), p1_role, criminal)


def solve(instance: Instance, t: int | None = None) -> frozenset[Answer]:
    """Every (criminal, Player 1 role) pair consistent with the statements of rounds 1..t
    (all rounds when t is None)."""
    said = by_speaker(instance.upto(t))
    return frozenset((c, r) for r in hypotheses(instance)
                     for c in criminal_candidates(instance, r)
                     if _consistent(instance, said, r, c))


def unique_answer(instance: Instance, t: int | None = None) -> Answer | None:
    """The one consistent (criminal, Player 1 role) after round t, or None when there are several
    (or, for a malformed instance, none)."""
    found = solve(instance, t)
    return next(iter(found)) if len(found) == 1 else None


def witness(instance: Instance, t: int | None, criminal: int, p1_role: Role
            ) -> tuple[Role, ...] | None:
    """One full deal (seat 1 first) with this criminal and Player 1 role that fits every statement
    up to round t, or None when there is none. Investigators go to the lowest eligible seats."""
    if not consistent(instance, t, p1_role, criminal):
        return None
    deal: dict[int, Role] = {1: p1_role, criminal: CRIM}
    left = dict(instance.composition)
    left[p1_role] -= 1
    if p1_role is not CRIM:
        left[CRIM] -= 1
    for seat in sorted(possible_investigators(instance, t, criminal))[:left[INV]]:
        deal[seat] = INV
    left[INV] = 0
    rest = [r for r in ROLE_ORDER for _ in range(left.get(r, 0))]
    for seat in range(2, instance.n + 1):
        if seat not in deal:
            deal[seat] = rest.pop(0)
    return tuple(deal[s] for s in range(1, instance.n + 1))
