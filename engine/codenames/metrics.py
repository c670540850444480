"""Codenames metrics from game records: outcome, words revealed per team, clues and their numbers,
guesses by colour, passes, skipped turns, illegal clues and the assassin, how the game ended, the
shared invalid-move attribution and error statistics (engine/attribution.py; an illegal clue is
the one fatal error), and win rates per seat's role. Termination depth is counted in moves: the
moves played before the illegal clue, as a share of `expected_moves` (docs/rules/codenames.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine import attribution as errs
from engine.aggregate import Fold, PerGame
from engine.codenames.config import ROLES, SEAT_NAMES, SPYMASTER, TEAMS
from engine.core import GameRecord
from engine.outcome import OUTCOME_LABELS, outcome_counts
from engine.records import Event

PLAYERS = 4
ENDS = ("all_words", "opponent_last_word", "assassin", "illegal_clue", "move_cap", "forfeit")
SPYMASTER_KEYS = ("clues", "clue_number_total", "illegal_clues", "no_clue_passes")
OPERATIVE_KEYS = ("guesses", "correct_guesses", "wrong_guesses", "neutral_guesses",
                  "opponent_guesses", "assassin_hit", "passes")

# A plain label for every key `game_metrics` and `aggregate_metrics` give.
LABELS = {
    **OUTCOME_LABELS,
    "team_revealed": "Own team's words revealed",
    "team_words": "Own team's words on the board",
    "opponent_revealed": "Other team's words revealed",
    "skipped_turns": "Turns skipped by an invalid answer",
    "clues": "Clues given",
    "clue_number_total": "Sum of clue numbers",
    "mean_clue_number": "Mean clue number",
    "illegal_clues": "Illegal clues (lost the game)",
    "no_clue_passes": "Turns passed without a clue",
    "guesses": "Guesses made",
    "correct_guesses": "Correct guesses (own colour)",
    "wrong_guesses": "Wrong guesses (any other card)",
    "neutral_guesses": "Neutral words guessed",
    "opponent_guesses": "Other team's words guessed",
    "assassin_hit": "Revealed the assassin",
    "passes": "Passes (stopped guessing)",
    **errs.ATTRIBUTION_LABELS,
    **errs.ERROR_LABELS,
    "end": "How the game ended",
    "winner": "Winning team",
    "moves": "Moves played",
    "max_moves": "Move cap",
    "turns": "Turns played",
    "red_revealed": "Red words revealed",
    "blue_revealed": "Blue words revealed",
    "neutral_revealed": "Neutral words revealed",
    "red_win": "Red team won",
    "blue_win": "Blue team won",
    "assassin": "Ended by the assassin",
    "illegal_clue": "Ended by an illegal clue",
    "move_cap": "Ended at the move cap",
    "had_error": "Game with an invalid answer",
    "invalid_moves": "Invalid answers",
    "forfeit_depth": "Share of the expected moves played before a fatal error",
    "void": "Void (aborted, not counted)",
    # aggregates
    "games": "Games",
    "counted": "Games counted (not void)",
    "red_win_rate": "Red team wins (share)",
    "blue_win_rate": "Blue team wins (share)",
    "draw_rate": "Drawn games (share)",
    "assassin_rate": "Games ended by the assassin (share)",
    "illegal_clue_rate": "Games ended by an illegal clue (share)",
    "move_cap_rate": "Games ended at the move cap (share)",
    "mean_moves": "Mean moves played",
    "mean_turns": "Mean turns played",
    "median_forfeit_depth": "Median share of the expected moves played before a fatal error",
    "mean_reward": "Mean reward",
}


def expected_moves(config: dict[str, Any]) -> int:
    """The expected length of a game, in moves, for its termination depth: every word of both
    teams found two to a clue (a clue, two guesses and a pass per two words), at most the cap."""
    return min(config["max_moves"], 2 * (config["red_words"] + config["blue_words"]))


def _moves_before(record: GameRecord, fatal: Event) -> int:
    """Moves (every decision but a resignation) played before the move that logged `fatal`."""
    return sum(1 for a in record.actions if a.step < fatal.step and a.outcome != "resigned")


def _tally(record: GameRecord) -> tuple[list[dict[str, int]], dict[str, Any]]:
    """Per seat counts and game facts, read from the events."""
    seats = [dict.fromkeys((*SPYMASTER_KEYS, *OPERATIVE_KEYS, "skipped_turns"), 0)
             for _ in range(PLAYERS)]
    game: dict[str, Any] = {"end": "unfinished", "winner": "none", "turns": 0,
                            "revealed": dict.fromkeys(("red", "blue", "neutral", "assassin"), 0)}
    for e in record.events:
        d, kind = e.data, e.type
        if kind == "turn_started":
            game["turns"] += 1
        elif kind == "clue_given":
            seats[d["seat"]]["clues"] += 1
            seats[d["seat"]]["clue_number_total"] += d["number"]
        elif kind == "guess_made":
            mine, label = seats[d["seat"]], d["label"]
            game["revealed"][label] += 1
            mine["guesses"] += 1
            if d["correct"]:
                mine["correct_guesses"] += 1
            else:
                mine["wrong_guesses"] += 1
                key = {"neutral": "neutral_guesses", "assassin": "assassin_hit"}.get(
                    label, "opponent_guesses")
                mine[key] += 1
        elif kind == "passed":
            seats[d["seat"]]["no_clue_passes" if d["role"] == SPYMASTER else "passes"] += 1
        elif kind == "turn_skipped":
            seats[d["seat"]]["skipped_turns"] += 1
        elif kind == "invalid_move" and d.get("category") == "illegal_clue":
            seats[d["seat"]]["illegal_clues"] += 1
        elif kind == "game_decided":
            game["end"], game["winner"] = d["how"], d["winner"] or "none"
            game["moves"] = d["moves"]
    return seats, game


def game_metrics(record: GameRecord) -> dict[str, Any]:
    counts, facts = _tally(record)
    result = record.result
    void = result is None or result.void
    if result is not None and result.void:
        facts["end"] = "aborted"
    config = record.config
    words = {"red": config["red_words"], "blue": config["blue_words"]}
    revealed = facts["revealed"]
    attribution = errs.error_attribution(record)
    moves = facts.get("moves", sum(1 for a in record.actions if a.outcome != "resigned"))
    seats: dict[str, dict[str, Any]] = {}
    for s in range(PLAYERS):
        role, team = ROLES[s].name, ROLES[s].side
        other = TEAMS[1 - TEAMS.index(team)]
        mine = counts[s]
        own = SPYMASTER_KEYS if role == SPYMASTER else OPERATIVE_KEYS
        reward = 0.0 if void else float(result.rewards.get(s, 0.0))  # type: ignore[union-attr]
        seats[str(s)] = {
            "reward": reward,
            **outcome_counts(result, s),
            "team_revealed": revealed[team], "team_words": words[team],
            "opponent_revealed": revealed[other], "skipped_turns": mine["skipped_turns"],
            **{k: mine[k] for k in own},
            **attribution[str(s)],
        }
        if role == SPYMASTER:
            seats[str(s)]["mean_clue_number"] = \
                mine["clue_number_total"] / mine["clues"] if mine["clues"] else None
    end = facts["end"]
    invalid = sum(1 for a in record.actions if a.outcome == "invalid")
    game = {
        "end": end, "winner": facts["winner"], "moves": moves, "max_moves": config["max_moves"],
        "turns": facts["turns"], "red_revealed": revealed["red"],
        "blue_revealed": revealed["blue"], "neutral_revealed": revealed["neutral"],
        "red_win": int(not void and facts["winner"] == "red"),
        "blue_win": int(not void and facts["winner"] == "blue"),
        "draw": int(not void and end == "move_cap" and facts["winner"] == "none"),
        "assassin": int(end == "assassin"), "illegal_clue": int(end == "illegal_clue"),
        "move_cap": int(end == "move_cap"), "had_error": int(invalid > 0),
        "invalid_moves": invalid, "void": int(void),
        # Termination depth (§10): moves before the illegal clue / the expected moves.
        "forfeit_depth": errs.termination_depth(record, expected_moves(config),
                                                lambda fatal: _moves_before(record, fatal)),
    }
    return {"game": game, "seats": seats}


def aggregate_metrics(per_game: Iterable[PerGame]) -> dict[str, Any]:
    """Sums and rates per seat index and overall, folded from per-game metrics (read once);
    void games are left out. Roles are fixed by seat, so the win rate per role (by seat name,
    with the role advantage) is the seat's. Memory: running sums, a count per distinct depth."""
    fold = Fold(PLAYERS, medians=errs.MEDIANS).add_all(per_game)
    errors, seat_errors = errs.error_statistics(fold, PLAYERS)
    seats: dict[str, dict[str, Any]] = {}
    for s in range(PLAYERS):
        totals = fold.seat(str(s))
        own = SPYMASTER_KEYS if ROLES[s].name == SPYMASTER else OPERATIVE_KEYS
        t = {k: totals.total(k) for k in ("reward", "win", "draw", "loss", "team_revealed",
                                          "skipped_turns", *own)}
        t["mean_reward"] = fold.per_counted(t["reward"])
        if ROLES[s].name == SPYMASTER:
            t["mean_clue_number"] = t["clue_number_total"] / t["clues"] if t["clues"] else None
        seats[str(s)] = {**t, **seat_errors[str(s)]}
    roles = errs.role_statistics({SEAT_NAMES[s]: seats[str(s)]["win"] for s in range(PLAYERS)},
                                 dict.fromkeys(SEAT_NAMES, fold.counted))
    g = fold.game
    overall = {
        "games": fold.games, "counted": fold.counted, "void": fold.void,
        "red_win_rate": g.mean("red_win"), "blue_win_rate": g.mean("blue_win"),
        "draw_rate": g.mean("draw"), "assassin_rate": g.mean("assassin"),
        "illegal_clue_rate": g.mean("illegal_clue"), "move_cap_rate": g.mean("move_cap"),
        "mean_moves": g.mean("moves"), "mean_turns": g.mean("turns"), **errors,
    }
    return {"overall": overall, "roles": roles, "seats": seats}
