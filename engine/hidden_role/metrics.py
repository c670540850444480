"""Hidden Role Deduction metrics as the paper reports them: Crim, Self and Both accuracy after
every round (the headline is Both after the last), by Player 1's actual role too, with the
"always the deceived role" baseline beside Self (under the released 3:2:60:35 draw, answering
Rumormonger or Lunatic is right about 95% of the time: spec socialmaze §3)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.aggregate import Fold, fold_grouped
from engine.attribution import ATTRIBUTION_LABELS, error_attribution
from engine.core import GameRecord
from engine.evaluation import wilson_interval
from engine.hidden_role.roles import LUN, ROLE_ORDER, RUM

SCORES = ("crim", "self", "both")
MAX_ROUNDS = 10

LABELS = {
    **ATTRIBUTION_LABELS,
    "reward": "Reward (+1 solved after the last round, -1 not)",
    "crim": "Criminal right after the last round",
    "self": "Own role right after the last round",
    "both": "Both right after the last round (the headline)",
    "rounds": "Rounds",
    "void": "Void (aborted, not counted)",
    "p1_role": "Player 1's actual role",
    "deceived": "Player 1 was deceived about its role",
    **{f"{s}_r{t}": f"{s.capitalize()} right after round {t}" for s in SCORES
       for t in range(1, MAX_ROUNDS + 1)},
    "games": "Games",
    "counted": "Games counted (not void)",
    "both_low": "Both: 95% interval, low end",
    "both_high": "Both: 95% interval, high end",
    "deceived_baseline": "Self right by always answering the deceived role (share)",
}


def game_metrics(record: GameRecord) -> dict[str, Any]:
    scored = [e.data for e in record.events if e.type == "answer_scored"]
    rounds = record.config.get("rounds", 3)
    setup = record.setup or {}
    role = (setup.get("answer") or {}).get("role")
    void = record.result is None or record.result.void
    seat: dict[str, Any] = {f"{s}_r{a['round']}": int(a[s]) for a in scored for s in SCORES}
    final = scored[-1] if scored and len(scored) == rounds else None
    for s in SCORES:
        seat[s] = int(final[s]) if final else None
    seat["reward"] = 0.0 if void else float(record.result.rewards.get(0, 0.0))  # type: ignore[union-attr]
    seat.update(error_attribution(record)["0"])
    game = {"void": int(void), "rounds": rounds, "p1_role": role,
            "deceived": int(role in (RUM, LUN)) if role else None}
    return {"game": game, "seats": {"0": seat}}


def aggregate_metrics(per_game: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Accuracy per round and score, overall and by Player 1's role; void games left out."""
    fold, by_role = fold_grouped(per_game, 1, "p1_role")
    overall = {"games": fold.games, "counted": fold.counted, **_accuracy(fold),
               "deceived_baseline": fold.game.mean("deceived")}
    interval = wilson_interval(fold.seat("0").total("both"), fold.seat("0").count("both"))
    overall["both_low"], overall["both_high"] = interval or (None, None)
    roles = {r.value: {"games": by_role[r.value].counted, **_accuracy(by_role[r.value])}
             for r in ROLE_ORDER if r.value in by_role}
    return {"overall": overall, "seats": fold.seat_totals(), "roles": roles}


def _accuracy(fold: Fold) -> dict[str, float | None]:
    seat = fold.seat("0")
    out: dict[str, float | None] = {s: seat.mean(s) for s in SCORES}
    for t in range(1, MAX_ROUNDS + 1):
        for s in SCORES:
            if seat.count(f"{s}_r{t}"):
                out[f"{s}_r{t}"] = seat.mean(f"{s}_r{t}")
    return out
