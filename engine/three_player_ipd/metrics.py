"""Three-player IPD metrics from game records: outcome, scores, cooperation rates per opponent
and overall, mutual cooperation, chat volume, and the shared invalid-move attribution and error
statistics (engine/attribution.py). IPD input can never be invalid, so every game is clean and
has no termination depth — reported so tables line up across envs; were a fatal error ever
recorded, its depth would be the rounds resolved before it, as a share of the rounds set."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine import attribution as errs
from engine.aggregate import Fold, PerGame
from engine.core import GameRecord
from engine.outcome import OUTCOME_LABELS, outcome_counts

PLAYERS = 3

# A plain label for every key `game_metrics` and `aggregate_metrics` give.
LABELS = {
    **OUTCOME_LABELS,
    "score": "Points scored",
    "cooperation_rate": "Cooperation (share of choices)",
    **{f"cooperation_rate_vs_{o}": f"Cooperation with seat {o} (share of rounds)"
       for o in range(PLAYERS)},
    "messages": "Chat messages sent (not counting turns passed in silence)",
    **errs.ATTRIBUTION_LABELS,
    **errs.ERROR_LABELS,
    "rounds_played": "Rounds played",
    "mutual_cooperation_rate": "Mutual cooperation (share of pair-rounds)",
    "void": "Void (aborted, not counted)",
    "forfeit_depth": "Share of the rounds played before a fatal error",
    # aggregates
    "games": "Games",
    "counted": "Games counted (not void)",
    "draw_rate": "All-tied games (share)",
    "median_forfeit_depth": "Median share of the rounds played before a fatal error",
    "mean_reward": "Mean reward",
    "mean_score": "Mean points",
}


def game_metrics(record: GameRecord) -> dict[str, Any]:
    coop = [[0] * PLAYERS for _ in range(PLAYERS)]  # coop[s][o]: rounds s cooperated with o
    rounds = 0
    mutual = pairs = 0
    messages = [0] * PLAYERS
    scores = [0] * PLAYERS
    for e in record.events:
        if e.type == "round_resolved":
            rounds += 1
            scores = list(e.data["scores"])
            for pair in e.data["pairs"]:
                (a, b), (ca, cb) = pair["players"], pair["choices"]
                coop[a][b] += ca == "cooperate"
                coop[b][a] += cb == "cooperate"
                mutual += ca == cb == "cooperate"
                pairs += 1
        elif e.type == "chat":  # saying nothing passes the turn: not a message
            messages[e.data["seat"]] += bool(e.data["text"])
    result = record.result
    void = result is None or result.void
    attribution = errs.error_attribution(record)
    seats: dict[str, dict[str, Any]] = {}
    for s in range(PLAYERS):
        others = [o for o in range(PLAYERS) if o != s]
        seats[str(s)] = {
            "reward": 0.0 if void else float(result.rewards.get(s, 0.0)),  # type: ignore[union-attr]
            # win: among the winners; loss: negative reward; draw: otherwise (the middle place,
            # reward 0 under the rank rule, or an all-tied game). See engine/outcome.py.
            **outcome_counts(result, s),
            "score": scores[s],
            "cooperation_rate": sum(coop[s][o] for o in others) / (2 * rounds) if rounds else None,
            **{f"cooperation_rate_vs_{o}": coop[s][o] / rounds if rounds else None
               for o in others},
            "messages": messages[s],
            **attribution[str(s)],
        }
    game = {"rounds_played": rounds, "mutual_cooperation_rate": mutual / pairs if pairs else None,
            "void": int(void), "draw": int(not void and not result.winners)}  # type: ignore[union-attr]
    # Termination depth (§10): rounds resolved before the first fatal error / rounds set.
    game["forfeit_depth"] = errs.termination_depth(
        record, record.config.get("rounds", rounds),
        lambda fatal: errs.events_before(record, fatal, "round_resolved"))
    return {"game": game, "seats": seats}


def aggregate_metrics(per_game: Iterable[PerGame]) -> dict[str, Any]:
    """Sums and means per seat index and overall, folded from per-game metrics (read once);
    void games are left out. Memory: running sums, and a count per distinct termination depth."""
    fold = Fold(PLAYERS, medians=errs.MEDIANS).add_all(per_game)
    errors, seat_errors = errs.error_statistics(fold, PLAYERS)
    seats: dict[str, dict[str, Any]] = {}
    for s in range(PLAYERS):
        totals = fold.seat(str(s))
        t = {k: totals.total(k) for k in ("reward", "win", "draw", "loss", "score", "messages")}
        t["mean_reward"] = fold.per_counted(t["reward"])
        t["mean_score"] = fold.per_counted(t["score"])
        t["cooperation_rate"] = totals.mean("cooperation_rate")
        seats[str(s)] = {**t, **seat_errors[str(s)]}
    overall = {"games": fold.games, "counted": fold.counted, "void": fold.void,
               "mutual_cooperation_rate": fold.game.mean("mutual_cooperation_rate"),
               "draw_rate": fold.game.mean("draw"), **errors}
    return {"overall": overall, "seats": seats}
