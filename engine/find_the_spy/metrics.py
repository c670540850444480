"""Find the Spy metrics as the paper reports them (spec socialmaze §4): a seat is right when
it names the actual spy; accuracy overall, for the spy's seat and for the civilians' (the
paper's solver is the spy a quarter of the time), with the 25% chance baseline beside it, and
invalid (leaking) descriptions through the shared error attribution."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.aggregate import Fold, Totals
from engine.attribution import ATTRIBUTION_LABELS, error_attribution
from engine.core import GameRecord
from engine.evaluation import wilson_interval
from engine.find_the_spy.config import PLAYERS

CHANCE = 1 / PLAYERS

LABELS = {
    **ATTRIBUTION_LABELS,
    "right": "Named the spy (right)",
    "wrong": "Did not name the spy (wrong)",
    "is_spy": "Held the spy's word",
    "named": "Player named as the spy (0 = nobody)",
    "named_self": "Named itself",
    "leaks": "Descriptions refused for containing the word",
    "defaulted_descriptions": "Descriptions recorded as (no description)",
    "reward": "Reward (+1 right, -1 wrong)",
    "void": "Void (aborted, not counted)",
    "spy_player": "The spy (player number)",
    "rounds": "Rounds of descriptions",
    "right_count": "Seats that named the spy",
    "games": "Games",
    "counted": "Games counted (not void)",
    "accuracy": "Accuracy: share of answers naming the spy",
    "accuracy_low": "Accuracy: 95% interval, low end",
    "accuracy_high": "Accuracy: 95% interval, high end",
    "accuracy_spy": "Accuracy of the seat holding the spy's word",
    "accuracy_civilian": "Accuracy of the seats holding the civilians' word",
    "chance": "Chance baseline (one of four players at random)",
    "answers": "Answers counted",
}


def game_metrics(record: GameRecord) -> dict[str, Any]:
    setup = record.setup or {}
    spy = setup.get("spy")
    void = record.result is None or record.result.void
    votes: dict[str, Any] = {}
    for e in record.events:
        if e.type == "votes_revealed":
            votes = dict(e.data["votes"])
    leaks: dict[int, int] = {}
    for a in record.actions:
        if a.outcome == "invalid" and a.category == "rule":
            leaks[a.seat] = leaks.get(a.seat, 0) + 1
    empty: dict[int, int] = {}
    for e in record.events:
        if e.type == "description" and e.data["text"] == "(no description)":
            empty[e.data["seat"]] = empty.get(e.data["seat"], 0) + 1
    attribution = error_attribution(record)
    seats: dict[str, Any] = {}
    for s in range(record.players):
        key = str(s)
        named = votes.get(key) if key in votes else None
        answered = key in votes and not void
        right = int(spy is not None and named == spy + 1) if answered else None
        seats[key] = {
            "right": right, "wrong": None if right is None else 1 - right,
            "is_spy": int(s == spy) if spy is not None else None,
            "named": (named or 0) if answered else None,
            "named_self": int(named == s + 1) if answered else None,
            "leaks": leaks.get(s, 0), "defaulted_descriptions": empty.get(s, 0),
            "reward": 0.0 if void else float(record.result.rewards.get(s, 0.0)),  # type: ignore[union-attr]
            **attribution[key],
        }
    rights = [m["right"] for m in seats.values() if m["right"] is not None]
    game = {"void": int(void), "spy_player": spy + 1 if spy is not None else None,
            "rounds": record.config.get("rounds", 3),
            "right_count": sum(rights) if rights else None}
    return {"game": game, "seats": seats}


def aggregate_metrics(per_game: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Accuracy over every answer, for the spy's seat and the civilians', per seat index, with
    the chance baseline; void games left out."""
    fold = Fold(PLAYERS)
    spy, civilian, every = Totals(), Totals(), Totals()
    for metrics in per_game:
        fold.add(metrics)
        if metrics["game"].get("void"):
            continue
        for seat in metrics["seats"].values():
            if seat.get("right") is None:
                continue
            every.add({"right": seat["right"]})
            (spy if seat.get("is_spy") else civilian).add({"right": seat["right"]})
    overall: dict[str, Any] = {"games": fold.games, "counted": fold.counted,
                               "answers": every.count("right"),
                               "accuracy": every.mean("right"),
                               "accuracy_spy": spy.mean("right"),
                               "accuracy_civilian": civilian.mean("right"),
                               "chance": CHANCE}
    interval = wilson_interval(int(every.total("right")), every.count("right"))
    overall["accuracy_low"], overall["accuracy_high"] = interval or (None, None)
    return {"overall": overall, "seats": fold.seat_totals()}
