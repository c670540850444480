"""SocialGrid trust and detection metrics over ballots (`VoteRecord`s): trust Brier score and
volatility (spec §12, §20 item 9), detection accuracy and its random baseline (spec §12, paper
App. C.2), and the classes of vote reasoning (spec §14, paper App. E). Every choice the paper
leaves open is written down in docs/rules/socialgrid.md, "Metrics and failure analysis"."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise

from engine.socialgrid.records import VoteRecord

BRIER_RANDOM = 1 / 3  # E[U^2] for trust drawn uniformly from [0, 1], whatever the role
BRIER_HALF = 0.25  # a constant trust of 0.5


def trust_by_meeting(votes: Iterable[VoteRecord], voter: int
                     ) -> dict[int, list[tuple[int, float]]]:
    """The voter's trust in each other seat it rated as (meeting, trust), in meeting order; a
    rating of itself is ignored."""
    series: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for vote in sorted((v for v in votes if v.voter == voter), key=lambda v: (v.meeting, v.step)):
        for seat, trust in vote.trust.items():
            if seat != voter:
                series[seat].append((vote.meeting, float(trust)))
    return dict(series)


def trust_series(votes: Iterable[VoteRecord], voter: int) -> dict[int, list[float]]:
    """The voter's trust in each other seat it rated, in meeting order. A pair's K is the number
    of meetings at which the voter rated that seat."""
    return {seat: [t for _, t in points]
            for seat, points in trust_by_meeting(votes, voter).items()}


def pair_brier(series: Sequence[float], impostor: bool) -> float:
    """BS_ij = mean over t of ((1 - T_ij(t)) - y_j)^2, y_j = 1 for an impostor."""
    y = 1.0 if impostor else 0.0
    return sum(((1.0 - t) - y) ** 2 for t in series) / len(series)


def pair_volatility(series: Sequence[float]) -> float | None:
    """TV_ij = mean |T(t+1) - T(t)| over consecutive ratings; None with fewer than 2."""
    if len(series) < 2:
        return None
    return sum(abs(b - a) for a, b in pairwise(series)) / (len(series) - 1)


def brier_score(votes: Iterable[VoteRecord], voter: int,
                impostors: frozenset[int]) -> float | None:
    """The voter's Brier score: the mean of BS_ij over the seats it rated (None: no ratings)."""
    pairs = [pair_brier(s, j in impostors) for j, s in trust_series(votes, voter).items()]
    return sum(pairs) / len(pairs) if pairs else None


def trust_volatility(votes: Iterable[VoteRecord], voter: int) -> float | None:
    """The voter's volatility: the mean of TV_ij over the pairs rated at least twice."""
    values = [pair_volatility(s) for s in trust_series(votes, voter).values()]
    pairs = [v for v in values if v is not None]
    return sum(pairs) / len(pairs) if pairs else None


# ---- detection accuracy (spec §12, paper App. C.2) ----------------------------------------------

def detection_accuracy(votes: Iterable[VoteRecord], voter: int,
                       impostors: frozenset[int]) -> float | None:
    """DA = the voter's non-skip votes for an impostor / its non-skip votes (None: none cast)."""
    targets = [v.target for v in votes if v.voter == voter and v.target is not None]
    return sum(t in impostors for t in targets) / len(targets) if targets else None


def detection_baseline(players: int, impostors: int) -> float | None:
    """Chance of a uniformly random non-skip vote by a crewmate hitting an impostor:
    |I| / (N - 1). The paper fixes it at game start (2/6); alive counts give the live one."""
    return impostors / (players - 1) if players > 1 else None


# ---- vote reasoning classes (spec §14, paper App. E) --------------------------------------------

_FLAGS = re.IGNORECASE | re.DOTALL
STRONG = re.compile(r"kill|vent|saw", _FLAGS)
SCARCITY = re.compile(r"arbitrar|equal.*trust|no.*evidence", _FLAGS)
HEURISTIC = re.compile(r"stationary|loop|erratic|near.*body", _FLAGS)
THOUGHT_CLASSES = ("strong", "scarcity", "heuristic", "other")  # precedence, first match wins
OVER_TRUST = 0.7  # a trust strictly above this is "high"
CREW_CLASSES = (*THOUGHT_CLASSES, "over_trust")
IMPOSTOR_CLASSES = ("misdirection", "framed", "teammate")


def thought_class(thought: str) -> str:
    """One class per thought, first match in THOUGHT_CLASSES order: strong evidence is left out
    of the failure modes (App. E), and a stated lack of evidence outranks the cues around it."""
    for name, pattern in (("strong", STRONG), ("scarcity", SCARCITY), ("heuristic", HEURISTIC)):
        if pattern.search(thought):
            return name
    return "other"


def over_trusts(vote: VoteRecord, impostors: frozenset[int]) -> bool:
    """The ballot rates at least one impostor (other than the voter) above 0.7."""
    return any(t > OVER_TRUST for j, t in vote.trust.items() if j in impostors and j != vote.voter)


def impostor_vote_class(vote: VoteRecord, impostors: frozenset[int]) -> str | None:
    """An impostor's non-skip ballot: "teammate" (an impostor, itself included), "misdirection"
    (a crewmate, while rating a fellow impostor above 0.7) or "framed" (any other crewmate vote).
    None for a skip."""
    if vote.target is None:
        return None
    if vote.target in impostors:
        return "teammate"
    fellows = impostors - {vote.voter}
    protects = any(vote.trust.get(j, 0.0) > OVER_TRUST for j in fellows)
    return "misdirection" if protects else "framed"


def vote_class_counts(votes: Iterable[VoteRecord], impostors: frozenset[int]) -> dict[str, int]:
    """Counts over non-skip ballots (skips have no accuracy): for crew ballots, per class and
    over-trust, `{c}_votes` and `{c}_correct` (target an impostor), plus `crew_votes` and
    `crew_correct`; for impostor ballots `imp_votes` and `{c}_votes` per impostor class."""
    counts = {"crew_votes": 0, "crew_correct": 0, "imp_votes": 0}
    counts |= {f"{c}_{k}": 0 for c in CREW_CLASSES for k in ("votes", "correct")}
    counts |= {f"{c}_votes": 0 for c in IMPOSTOR_CLASSES}
    for vote in votes:
        if vote.target is None:
            continue
        if vote.voter in impostors:
            counts["imp_votes"] += 1
            counts[f"{impostor_vote_class(vote, impostors)}_votes"] += 1
            continue
        correct = int(vote.target in impostors)
        classes = [thought_class(vote.thought)] + (["over_trust"] if over_trusts(vote, impostors)
                                                    else [])
        for name in ["crew", *classes]:
            counts[f"{name}_votes"] += 1
            counts[f"{name}_correct"] += correct
    return counts


COUNT_KEYS = tuple(vote_class_counts((), frozenset()))


def ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def vote_class_shares(counts: Mapping[str, float]) -> dict[str, float | None]:
    """From `vote_class_counts` (or their sums over games): each crew class's share of crew
    votes and accuracy (as in the paper's Table 2 / 6), each impostor class's share of impostor
    votes (Table 7), and the pooled detection accuracy."""
    crew, imp = counts["crew_votes"], counts["imp_votes"]
    shares = {"detection_accuracy": ratio(counts["crew_correct"], crew)}
    for c in CREW_CLASSES:
        shares[f"{c}_share"] = ratio(counts[f"{c}_votes"], crew)
        shares[f"{c}_accuracy"] = ratio(counts[f"{c}_correct"], counts[f"{c}_votes"])
    for c in IMPOSTOR_CLASSES:
        shares[f"{c}_share"] = ratio(counts[f"{c}_votes"], imp)
    return shares
