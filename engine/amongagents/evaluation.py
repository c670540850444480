"""The AmongAgents paper's evaluation tables (spec §14), computed from stored games: the share
of games ending each way per setup row beside Table 1 (§14.2), personas against how their seats
fared and what they did (§14.3), the interviewer's scores by role and category (§14.1) and the
speech categories by role (§14.4). Pure: the league feeds it what the store and the judge gave.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.amongagents.metrics import ENDINGS, ROLES, VERBS
from engine.amongagents.published import published

NO_PERSONA = "(none)"
# The conversation analysis' categories (§14.4), each with what it covers, for the judge.
SPEECH_CATEGORIES = {
    "Deception": "lying, feigning innocence, false alibis, subtle misleading hints",
    "Truth-telling": "honest alibis and sharing what one really saw or did",
    "Leadership & Influence": "organising the group, proposing plans, steering the vote",
    "Suspicion & Defense": "accusing or questioning others, defending oneself or another",
    "Other": "anything else: greetings, filler, off-topic talk",
}


@dataclass(frozen=True)
class EndingRow:
    """One setup row of Table 1: our games' shares of each ending, and the paper's."""

    setup: str
    planner: bool | None
    counted: int
    shares: dict[str, float | None]
    paper: dict[str, float] | None

    def to_json(self) -> dict[str, Any]:
        return {"setup": self.setup, "planner": self.planner, "counted": self.counted,
                "shares": self.shares, "paper": self.paper}


def ending_rows(games: Mapping[tuple[str, bool | None], Sequence[Mapping[str, Any]]]
                ) -> list[EndingRow]:
    """{(setup, planner): [a game's metrics["game"], ...]} -> a row each, void games left
    out (a game is counted when it ended one of the four ways)."""
    out = []
    for (setup, planner), metrics in games.items():
        ended = [m for m in metrics if any(m.get(f"ended_{e}") for e in ENDINGS)]
        n = len(ended)
        shares = {e: (sum(m[f"ended_{e}"] for m in ended) / n if n else None) for e in ENDINGS}
        out.append(EndingRow(setup, planner, n, shares, published(setup, planner)))
    return out


@dataclass(frozen=True)
class SeatPlay:
    """One seat of one game as the persona tables read it: its role, persona (None: played
    without one, or a scripted bot), whether its side won, and its actions by verb."""

    role: str
    persona: str | None
    won: bool
    actions: Mapping[str, int]


def seat_plays(seats: Mapping[str, Mapping[str, Any]], personas: Mapping[int, str | None]
               ) -> list[SeatPlay]:
    """A game's per-seat metrics (metrics["seats"]) with each seat's persona."""
    return [SeatPlay(m["role"], personas.get(int(s)), bool(m.get("win")),
                     {v: int(m.get(f"{v}_actions", 0)) for v in VERBS})
            for s, m in sorted(seats.items(), key=lambda kv: int(kv[0]))]


def persona_tables(plays: Iterable[SeatPlay]) -> dict[str, Any]:
    """Per role and persona: seats, wins and win rate (persona x win condition), and actions by
    verb (persona x action type, §14.3)."""
    seats: dict[tuple[str, str], int] = defaultdict(int)
    wins: dict[tuple[str, str], int] = defaultdict(int)
    actions: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: dict.fromkeys(VERBS, 0))
    for p in plays:
        key = (p.role, p.persona or NO_PERSONA)
        seats[key] += 1
        wins[key] += int(p.won)
        for verb, n in p.actions.items():
            actions[key][verb] += n
    rows = []
    for role in ROLES:
        for key in sorted(k for k in seats if k[0] == role):
            rows.append({"role": role, "persona": key[1], "seats": seats[key],
                         "wins": wins[key], "win_rate": wins[key] / seats[key],
                         "actions": actions[key]})
    return {"rows": rows}


def interview_scores(scored: Iterable[tuple[str, str, int | None]]) -> dict[str, Any]:
    """(role, category, score or None) -> per role and category: answers, scored, mean score;
    unscored answers (the judge's reply was unreadable) are counted, never averaged in."""
    totals: dict[tuple[str, str], list[int]] = defaultdict(list)
    asked: dict[tuple[str, str], int] = defaultdict(int)
    for role, category, score in scored:
        asked[role, category] += 1
        if score is not None:
            totals[role, category].append(score)
    return {f"{role}/{category}": {"role": role, "category": category, "answers": n,
                                   "scored": len(totals[role, category]),
                                   "mean": (sum(totals[role, category])
                                            / len(totals[role, category])
                                            if totals[role, category] else None)}
            for (role, category), n in sorted(asked.items())}


def speech_shares(labelled: Iterable[tuple[str, Sequence[str] | None]],
                  categories: Sequence[str]) -> dict[str, Any]:
    """(role, labels or None when unlabelled) -> per role: speeches, labelled, and the share of
    labelled speeches carrying each category (a speech may carry several, §14.4)."""
    count: dict[str, int] = defaultdict(int)
    done: dict[str, int] = defaultdict(int)
    hits: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(categories, 0))
    for role, labels in labelled:
        count[role] += 1
        if labels is None:
            continue
        done[role] += 1
        for label in set(labels):
            if label in hits[role]:
                hits[role][label] += 1
    return {role: {"speeches": count[role], "labelled": done[role],
                   "shares": {c: (hits[role][c] / done[role] if done[role] else None)
                              for c in categories}}
            for role in sorted(count)}
