"""Colonel Blotto metrics from game records: outcome, rounds and fields won, invalid moves with
the MindGames attribution (Clean / Caused / Witnessed / Self-Forf. / Opp-Forf.), and how the game
ended (all rounds, early majority, forfeit) for error rates and termination depth (§10)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from engine.attribution import error_attribution, mean, sum_seat_metrics
from engine.core import GameRecord

PLAYERS = 2


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
    attribution = error_attribution(record)
    seats: dict[str, dict[str, Any]] = {}
    for s in range(PLAYERS):
        reward = 0.0 if void else float(result.rewards.get(s, 0.0))  # type: ignore[union-attr]
        seats[str(s)] = {
            "reward": reward,
            "win": int(not void and s in result.winners),  # type: ignore[union-attr]
            "draw": int(not void and not result.winners),  # type: ignore[union-attr]
            "loss": int(not void and bool(result.winners)  # type: ignore[union-attr]
                        and s not in result.winners),  # type: ignore[union-attr]
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
        # Termination depth (§10): how far a forfeited game got, as a share of its full length.
        "forfeit_depth": rounds_played / rounds_max if forfeit else None,
    }
    return {"game": game, "seats": seats}


def aggregate_metrics(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Sums and rates per seat index and overall; void and unfinished games are left out."""
    per_game = [game_metrics(r) for r in records]
    counted = [m for m in per_game if not m["game"]["void"]]
    n = len(counted)
    totals = sum_seat_metrics(counted, PLAYERS)
    seats: dict[str, dict[str, Any]] = {}
    for s in range(PLAYERS):
        t = {name: totals[str(s)].get(name, 0) for name in
             ("reward", "win", "draw", "loss", "rounds_won", "fields_won", "invalid_format",
              "invalid_units", "invalid_caused", "invalid_witnessed", "self_forfeit",
              "opponent_forfeit", "clean")}
        t["win_rate"] = t["win"] / n if n else None
        t["mean_reward"] = t["reward"] / n if n else None
        seats[str(s)] = t
    games = [m["game"] for m in counted]
    depths = [g["forfeit_depth"] for g in games if g["forfeit_depth"] is not None]
    overall = {
        "games": len(records),
        "counted": n,
        "void": len(per_game) - n,
        "error_rate": mean([g["had_error"] for g in games]),
        "forfeit_rate": mean([g["forfeit"] for g in games]),
        "early_end_rate": mean([g["early_end"] for g in games]),
        "draw_rate": mean([g["draw"] for g in games]),
        "mean_rounds_played": mean([g["rounds_played"] for g in games]),
        "median_forfeit_depth": statistics.median(depths) if depths else None,
    }
    return {"overall": overall, "seats": seats}
