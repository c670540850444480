"""Social Graph Analysis metrics as the paper reports them: accuracy per query type, and the
headline, the mean of the four types' accuracies (Table 8 reports it on hard), with 95% Wilson
intervals per type and on all questions pooled; overall and by difficulty."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.aggregate import Fold, fold_grouped
from engine.attribution import ATTRIBUTION_LABELS, error_attribution
from engine.core import GameRecord
from engine.evaluation import wilson_interval
from engine.social_graph.instance import DIFFICULTIES
from engine.social_graph.queries import KINDS

_TYPE_NAMES = {"pairwise": "Pairwise (are X and Y on good terms?)",
               "membership": "Membership (who is on good terms with X?)",
               "group_count": "Group count", "pair_count": "Pair count (good and bad pairs)"}

LABELS = {
    **ATTRIBUTION_LABELS,
    "reward": "Reward (2 x share of questions right - 1: +1 all right, -1 none)",
    **{str(k): f"{_TYPE_NAMES[k]}: share right" for k in KINDS},
    "right": "Questions answered right",
    "asked": "Questions asked",
    "all_right": "Every question right",
    "void": "Void (aborted, not counted)",
    "difficulty": "Difficulty",
    "people": "People",
    "games": "Games",
    "counted": "Games counted (not void)",
    "mean_accuracy": "Mean accuracy over the query types (the headline)",
    "accuracy": "Accuracy over all questions pooled",
    "accuracy_low": "Accuracy over all questions: 95% interval, low end",
    "accuracy_high": "Accuracy over all questions: 95% interval, high end",
    **{f"{k}_{end}": f"{_TYPE_NAMES[k]}: 95% interval, {end} end" for k in KINDS
       for end in ("low", "high")},
}


def game_metrics(record: GameRecord) -> dict[str, Any]:
    scored = [e.data for e in record.events if e.type == "answer_scored"]
    void = record.result is None or record.result.void
    seat: dict[str, Any] = {}
    for kind in KINDS:
        mine = [a["right"] for a in scored if a["kind"] == kind]
        # 1 or 0 for the usual one question a type; the share right when a type was asked more
        seat[str(kind)] = (int(mine[0]) if len(mine) == 1 else sum(mine) / len(mine)) \
            if mine else None
    right = sum(int(a["right"]) for a in scored)
    seat["right"], seat["asked"] = right, len(scored)
    seat["all_right"] = int(right == len(scored)) if scored and not void else None
    seat["reward"] = 0.0 if void else float(record.result.rewards.get(0, 0.0))  # type: ignore[union-attr]
    seat.update(error_attribution(record)["0"])
    puzzle = next((e.data for e in record.events if e.type == "puzzle"), {})
    game = {"void": int(void), "difficulty": puzzle.get("difficulty"),
            "people": len(puzzle.get("people", ()))}
    return {"game": game, "seats": {"0": seat}}


def aggregate_metrics(per_game: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Accuracy per query type and the mean over the types, overall and by difficulty; void
    games left out."""
    fold, by_difficulty = fold_grouped(per_game, 1, "difficulty")
    overall = {"games": fold.games, "counted": fold.counted, **_accuracy(fold)}
    difficulties = {d: {"games": by_difficulty[d].counted, **_accuracy(by_difficulty[d])}
                    for d in DIFFICULTIES if d in by_difficulty}
    return {"overall": overall, "seats": fold.seat_totals(), "difficulties": difficulties}


def _accuracy(fold: Fold) -> dict[str, float | None]:
    seat = fold.seat("0")
    types: dict[str, float | None] = {}
    for kind in (str(k) for k in KINDS if seat.count(str(k))):
        types[kind] = seat.mean(kind)
        types[f"{kind}_low"], types[f"{kind}_high"] = \
            wilson_interval(seat.total(kind), seat.count(kind)) or (None, None)
    means = [seat.mean(str(k)) or 0.0 for k in KINDS if seat.count(str(k))]
    asked = int(seat.total("asked"))
    out: dict[str, float | None] = {
        "mean_accuracy": sum(means) / len(means) if means else None,
        "accuracy": seat.total("right") / asked if asked else None}
    out["accuracy_low"], out["accuracy_high"] = \
        wilson_interval(seat.total("right"), asked) or (None, None)
    return {**out, **types, "all_right": seat.mean("all_right")}
