"""A plain-language account of how a Hidden Role Deduction puzzle is solved, for the person who
played it (shown after the game), computed from the puzzle with the solver's own tests.

It follows the way a person reasons: for each role Player 1 may really have, first set aside the
players who can never be Investigators (they accused two people, contradicted themselves, or said
something about Player 1 that this hypothesis makes false), then try each possible criminal and see
whether enough players remain who could all be telling the truth. Every "possible" it reports is
exactly the solver's (tests hold the two together).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.hidden_role.instance import Instance, Statement
from engine.hidden_role.roles import CRIM, INV, LUN, RUM, Role, could_be, describe_composition
from engine.hidden_role.solver import (
    by_speaker,
    criminal_candidates,
    false_statements,
    hypotheses,
    investigators_to_seat,
    possible_investigators,
)

_WITH_ARTICLE = {INV: "an Investigator", CRIM: "the Criminal", RUM: "a Rumormonger",
                 LUN: "a Lunatic"}


@dataclass(frozen=True)
class CriminalCheck:
    """Whether `criminal` works under a hypothesis, who could then be the Investigators, and why."""

    criminal: int
    possible: bool
    investigators: frozenset[int]
    reason: str


@dataclass(frozen=True)
class Hypothesis:
    """The reasoning under one actual role of Player 1."""

    p1_role: Role
    needed: int                            # Investigators to find among the other players
    excluded: tuple[tuple[int, str], ...]  # (seat, why it can never be an Investigator here)
    candidates: frozenset[int]             # the other players not excluded outright
    checks: tuple[CriminalCheck, ...]      # empty when too few candidates are left

    @property
    def criminals(self) -> tuple[int, ...]:
        return tuple(c.criminal for c in self.checks if c.possible)


def _players(seats: frozenset[int] | set[int]) -> str:
    """"nobody", "Player 5", "Players 4, 5 and 6"."""
    ordered = sorted(seats)
    if not ordered:
        return "nobody"
    if len(ordered) == 1:
        return f"Player {ordered[0]}"
    return f"Players {', '.join(map(str, ordered[:-1]))} and {ordered[-1]}"


def _about(target: int, claim: bool) -> str:
    subject = "you are" if target == 1 else f"Player {target} is"
    return f"{subject} {'' if claim else 'not '}the criminal"


def _said(s: Statement) -> str:
    """"Player 6 said in round 2 that Player 4 is not the criminal" (Player 1 is "you")."""
    speaker = "you" if s.speaker == 1 else f"Player {s.speaker}"
    return f"{speaker} said in round {s.round} that {_about(s.target, s.claim)}"


def exclusion(said: list[Statement], p1_role: Role) -> str | None:
    """Why a player who said `said` can be no Investigator whoever the criminal is, when Player 1
    is `p1_role`; None when nothing they said rules that out on its own."""
    for s in said:
        if p1_role is not CRIM and s.target == 1 and s.claim:
            return (f"they said in round {s.round} that you are the criminal, which is false if "
                    f"you are {_WITH_ARTICLE[p1_role]}")
        if p1_role is CRIM and (s.target == 1) != s.claim:
            return (f"they said in round {s.round} that {_about(s.target, s.claim)}, which is "
                    f"false if you are the Criminal")
    accused = sorted({s.target for s in said if s.claim})
    if len(accused) >= 2:
        return f"they called {_players(set(accused))} the criminal, and there is only one"
    both = sorted(set(accused) & {s.target for s in said if not s.claim})
    if both:
        return f"they said both that {_about(both[0], True)} and that {_about(both[0], False)}"
    return None


def _could_be(seats: frozenset[int]) -> str:
    """"Players 4 and 5 could be Investigators", "Player 5 could be an Investigator"."""
    if len(seats) == 1:
        return f"{_players(seats)} could be an Investigator"
    return f"{_players(seats)} could be Investigators"


def _check(instance: Instance, t: int | None, said: dict[int, list[Statement]], p1_role: Role,
           needed: int, candidates: frozenset[int], criminal: int) -> CriminalCheck:
    if p1_role is INV:
        lies = false_statements(said, 1, criminal)
        if lies:
            return CriminalCheck(criminal, False, frozenset(),
                                 f"{_said(lies[0])}, and an Investigator tells the truth")
    fits = possible_investigators(instance, t, criminal)
    if len(fits) >= needed:
        why = "no other Investigator is needed" if needed == 0 else \
            f"{_players(fits)} could {'all ' if len(fits) > 1 else ''}be telling the truth " \
            f"({needed} Investigator{'s' if needed != 1 else ''} needed)"
        return CriminalCheck(criminal, True, fits, why)
    reasons = [_said(false_statements(said, v, criminal)[0])
               for v in sorted(candidates - fits - {criminal})]
    if criminal in candidates:
        reasons.append(f"then Player {criminal} is not an Investigator")
    left = "nobody could be an Investigator" if not fits else f"only {_could_be(fits)}"
    return CriminalCheck(criminal, False, fits,
                         f"{'; '.join(reasons)}{', so ' if reasons else ''}{left}, and {needed} "
                         f"{'are' if needed != 1 else 'is'} needed")


def analyse(instance: Instance, t: int | None = None) -> tuple[Hypothesis, ...]:
    """The reasoning after round t (all rounds when None), one Hypothesis per role Player 1 may
    actually have."""
    said = by_speaker(instance.upto(t))
    found = []
    for p1_role in hypotheses(instance):
        needed = investigators_to_seat(instance, p1_role)
        excluded = tuple((v, why) for v in range(2, instance.n + 1)
                         if (why := exclusion(said.get(v, []), p1_role)) is not None)
        candidates = frozenset(range(2, instance.n + 1)) - {v for v, _ in excluded}
        checks: tuple[CriminalCheck, ...] = ()
        if len(candidates) >= needed:
            checks = tuple(_check(instance, t, said, p1_role, needed, candidates, c)
                           for c in criminal_candidates(instance, p1_role))
        found.append(Hypothesis(p1_role, needed, excluded, candidates, checks))
    return tuple(found)


def _hypothesis_lines(h: Hypothesis) -> list[str]:
    lines = [f"If you are {_WITH_ARTICLE[h.p1_role]}, {h.needed} of the other players must be "
             f"Investigators."]
    lines += [f"- Player {v} cannot be an Investigator: {why}." for v, why in h.excluded]
    if h.candidates:
        lines.append(f"- {_could_be(h.candidates)} as far as their own words go.")
    else:
        lines.append("- Nobody else could be an Investigator.")
    if not h.checks:
        lines.append(f"That is fewer than the {h.needed} needed, so you cannot be "
                     f"{_WITH_ARTICLE[h.p1_role]}.")
        return lines
    for check in h.checks:
        who = "You" if check.criminal == 1 else f"Player {check.criminal}"
        verdict = "could be the criminal" if check.possible else "cannot be the criminal"
        lines.append(f"- {who} {verdict}: {check.reason}.")
    if h.criminals == (1,):
        lines.append("So if you are the Criminal, everything fits.")
    elif h.criminals:
        lines.append(f"So if you are {_WITH_ARTICLE[h.p1_role]}, the criminal is "
                     f"{_players(set(h.criminals)).replace('Players', 'one of Players')}.")
    else:
        lines.append(f"No criminal fits, so you cannot be {_WITH_ARTICLE[h.p1_role]}.")
    return lines


def explain(instance: Instance, t: int | None = None) -> str:
    """The reasoning as text for people, ending in the conclusion (or what is still open)."""
    t_shown = instance.rounds if t is None else t
    told = instance.told
    honest, deceived = could_be(told)
    lines = [f"After round {t_shown}. You were told you are {_WITH_ARTICLE[told]}. "
             f"The game has {describe_composition(instance.composition)}."]
    if instance.composition.get(deceived, 0):
        lines.append(f"{_WITH_ARTICLE[deceived][0].upper()}{_WITH_ARTICLE[deceived][1:]} is told "
                     f"the same, so you are "
                     f"{_WITH_ARTICLE[honest]} or {_WITH_ARTICLE[deceived]}. Only Investigators "
                     f"always tell the truth, so for each case: who could the Investigators be?")
    else:
        lines.append(f"There is no {deceived} in this game, so you really are "
                     f"{_WITH_ARTICLE[honest]}. Only Investigators always tell the truth: "
                     f"who could they be?")
    analysis = analyse(instance, t)
    for h in analysis:
        lines.append("")
        lines += _hypothesis_lines(h)
    answers = sorted((c, h.p1_role) for h in analysis for c in h.criminals)
    lines.append("")
    if len(answers) == 1:
        criminal, role = answers[0]
        who = "the criminal is you (Player 1)" if criminal == 1 else \
            f"the criminal is Player {criminal}"
        lines.append(f"Conclusion: {who} and you are {_WITH_ARTICLE[role]}.")
    else:
        options = "; ".join(f"Player {c} with you as {_WITH_ARTICLE[r]}" for c, r in answers)
        lines.append(f"Not settled yet: {len(answers)} answers still fit ({options}).")
    return "\n".join(lines)
