"""Colonel Blotto metrics from game records: outcome, rounds and fields won, invalid moves with
the MindGames attribution and error statistics (engine/attribution.py), and how the game ended
(all rounds, early majority, forfeit). Termination depth is counted in rounds: the rounds
resolved before the first fatal error, as a share of the rounds scheduled (§10)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine import attribution as errs
from engine.aggregate import Fold, PerGame
from engine.core import GameRecord
from engine.outcome import OUTCOME_LABELS, outcome_counts

PLAYERS = 2

# A plain label for every key `game_metrics` and `aggregate_metrics` give.
LABELS = {
    **OUTCOME_LABELS,
    "rounds_won": "Rounds won",
    "fields_won": "Fields won",
    "invalid_format": "Unreadable answers",
    "invalid_units": "Answers breaking the unit budget",
    **errs.ATTRIBUTION_LABELS,
    **errs.ERROR_LABELS,
    "end": "How the game ended",
    "rounds_played": "Rounds played",
    "rounds_max": "Rounds scheduled",
    "early_end": "Ended before the last round",
    "forfeit": "Ended by a forfeit",
    "had_error": "Game with an invalid answer",
    "void": "Void (aborted, not counted)",
    "forfeit_depth": "Share of the rounds played before a fatal error",
    # aggregates
    "games": "Games",
    "counted": "Games counted (not void)",
    "forfeit_rate": "Games ended by a forfeit (share)",
    "early_end_rate": "Games ended early (share)",
    "draw_rate": "Drawn games (share)",
    "mean_rounds_played": "Mean rounds played",
    "median_forfeit_depth": "Median share of the rounds played before a fatal error",
    "mean_reward": "Mean reward",
}


def game_metrics(record: GameRecord) -> dict[str, Any]:
    rounds_won, fields_won = [0] * PLAYERS, [0] * PLAYERS
    bad_format, bad_units = [0] * PLAYERS, [0] * PLAYERS
    rounds_played = 0
    forfeit = False
    for e in record.events:
        if e.type == "round_resolved":
            rounds_played += 1
            if e.data["winner"] is not None:
                rounds_won[e.data["winner"]] += 1
            for s in range(PLAYERS):
                fields_won[s] += e.data["fields_won"][s]
        elif e.type == "invalid_move":
            tally = bad_units if e.data.get("category") == "units" else bad_format
            tally[e.data["seat"]] += 1
        elif e.type == "forfeit":
            forfeit = True
    result = record.result
    void = result is None or result.void
    rounds_max = record.config["rounds"]
    if result is None:
        end = "unfinished"
    elif result.void:
        end = "aborted"
    elif forfeit:
        end = "forfeit"
    else:
        end = "all_rounds" if rounds_played >= rounds_max else "majority"
    attribution = errs.error_attribution(record)
    seats: dict[str, dict[str, Any]] = {}
    for s in range(PLAYERS):
        reward = 0.0 if void else float(result.rewards.get(s, 0.0))  # type: ignore[union-attr]
        seats[str(s)] = {
            "reward": reward,
            **outcome_counts(result, s),  # the shared rule: engine/outcome.py
            "rounds_won": rounds_won[s],
            "fields_won": fields_won[s],
            "invalid_format": bad_format[s],
            "invalid_units": bad_units[s],
            **attribution[str(s)],
        }
    game = {
        "end": end,
        "rounds_played": rounds_played,
        "rounds_max": rounds_max,
        "early_end": int(end in ("majority", "forfeit")),
        "forfeit": int(forfeit),
        "had_error": int(any(seats[str(s)]["invalid_caused"] for s in range(PLAYERS))),
        "draw": int(end in ("all_rounds", "majority") and seats["0"]["draw"] == 1),
        "void": int(void),
        # Termination depth (§10): rounds resolved before the first fatal error / scheduled.
        "forfeit_depth": errs.termination_depth(
            record, rounds_max, lambda fatal: errs.events_before(record, fatal, "round_resolved")),
    }
    return {"game": game, "seats": seats}


def aggregate_metrics(per_game: Iterable[PerGame]) -> dict[str, Any]:
    """Sums and rates per seat index and overall, folded from per-game metrics (read once);
    void and unfinished games are left out. Memory: running sums, plus a count per distinct
    forfeit depth for the median."""
    fold = Fold(PLAYERS, medians=errs.MEDIANS).add_all(per_game)
    errors, seat_errors = errs.error_statistics(fold, PLAYERS)
    seats: dict[str, dict[str, Any]] = {}
    for s in range(PLAYERS):
        totals = fold.seat(str(s))
        t = {name: totals.total(name) for name in
             ("reward", "win", "draw", "loss", "rounds_won", "fields_won", "invalid_format",
              "invalid_units")}
        t["mean_reward"] = fold.per_counted(t["reward"])
        seats[str(s)] = {**t, **seat_errors[str(s)]}
    overall = {
        "games": fold.games,
        "counted": fold.counted,
        "void": fold.void,
        "forfeit_rate": fold.game.mean("forfeit"),
        "early_end_rate": fold.game.mean("early_end"),
        "draw_rate": fold.game.mean("draw"),
        "mean_rounds_played": fold.game.mean("rounds_played"),
        **errors,
    }
    return {"overall": overall, "seats": seats}
