"""The Impostor paper's statistics (spec impostor §7) over the games of an experiment grid: rows
as `engine.impostor.grid.grid_row` makes them (the grid's experiment, mode, tier and model per
seat beside the metrics `engine.impostor.metrics.game_metrics` gave the game's record).

Per model and per mode x tier cell: impostor and majority win rates with 95% Wilson intervals,
detection accuracy, SelfDecl, GuessSucc, balance, influence / reach / centrality, coalition
efficiency, ties with the two symmetric tie-breakers, the impostor's win rate by its speaking
position and the pseudo-arm ITT with an experiment-block bootstrap interval; over all games
Wald odds ratios for the impostor's seat and for the mode, and chi-square tests with Cramér's
V. Intervals and tests come from statsmodels and scipy; the bootstrap is numpy's seeded
generator. Every choice is in docs/rules/impostor.md, "The experiment grid and statistics"."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from scipy.stats import chi2_contingency
from scipy.stats.contingency import association
from statsmodels.stats.contingency_tables import Table2x2

from engine.core import derive_seed
from engine.evaluation import wilson_interval
from engine.impostor.config import HOMOGENEOUS, MODES, PLAYERS
from engine.impostor.rules import WIN_CONDITIONS
from engine.impostor.words import TIERS

RESAMPLES = 10_000  # the paper's block bootstrap (spec §7)
ALPHA = 0.05
ALL = "all"  # the margin of a mode x tier table
_CHUNK = 1_000  # bootstrap resamples drawn at once (memory: chunk x experiments counts)

Row = Mapping[str, Any]  # grid.grid_row: experiment, mode, tier, seat_models, game, seats


# ------------------------------------------------------------------------------ intervals, tests
def itt(rates: np.ndarray) -> np.ndarray:
    """The pseudo-arm ITT (spec §7): middle speakers (positions 2, 3) against the status-quo
    uniform mix, (p2 + p3 - p0 - p1) / 4, over the last axis of per-position win rates."""
    return (rates[..., 2] + rates[..., 3] - rates[..., 0] - rates[..., 1]) / 4


def block_bootstrap(successes: np.ndarray, trials: np.ndarray,
                    statistics: Mapping[str, Callable[[np.ndarray, np.ndarray], np.ndarray]],
                    *, resamples: int, seed: int) -> dict[str, tuple[float, float] | None]:
    """95% percentile intervals of each statistic over resamples of whole experiments (rows
    of `successes` and `trials`, experiments x cells) drawn with replacement. A statistic
    reads a resample's pooled counts (successes, trials: resamples x cells) and gives one
    value per resample; a value that is not finite (a cell without trials) is left out, and
    a statistic with no finite value gets None. All statistics share the same resamples."""
    successes = np.asarray(successes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    experiments = len(successes)
    if experiments == 0 or resamples <= 0:
        return dict.fromkeys(statistics)
    rng = np.random.default_rng(seed)
    drawn: dict[str, list[np.ndarray]] = {name: [] for name in statistics}
    for start in range(0, resamples, _CHUNK):
        n = min(_CHUNK, resamples - start)
        picks = rng.integers(0, experiments, size=(n, experiments))
        # how often each experiment was drawn, per resample
        counts = np.bincount((np.arange(n)[:, None] * experiments + picks).ravel(),
                             minlength=n * experiments).reshape(n, experiments)
        pooled_successes, pooled_trials = counts @ successes, counts @ trials
        with np.errstate(divide="ignore", invalid="ignore"):
            for name, statistic in statistics.items():
                drawn[name].append(statistic(pooled_successes, pooled_trials))
    out: dict[str, tuple[float, float] | None] = {}
    for name, values in drawn.items():
        finite = np.concatenate(values)
        finite = finite[np.isfinite(finite)]
        if not len(finite):
            out[name] = None
            continue
        low, high = np.percentile(finite, [100 * ALPHA / 2, 100 * (1 - ALPHA / 2)])
        out[name] = float(low), float(high)
    return out


def _itt_of_counts(successes: np.ndarray, trials: np.ndarray) -> np.ndarray:
    return itt(successes[..., :PLAYERS] / trials[..., :PLAYERS])


def _rate_of_counts(successes: np.ndarray, trials: np.ndarray) -> np.ndarray:
    return successes.sum(axis=-1) / trials.sum(axis=-1)


def odds_ratio(exposed: tuple[int, int], reference: tuple[int, int]) -> dict[str, Any] | None:
    """The odds ratio of (successes, failures) `exposed` against `reference` with its 95% Wald
    interval and p-value (statsmodels Table2x2, normal approximation on the log odds ratio).
    A table with an empty cell gets 0.5 added to every cell (Haldane-Anscombe; statsmodels'
    own shift_zeros would replace only the zeros). None when a row is empty."""
    if sum(exposed) == 0 or sum(reference) == 0:
        return None
    counts = np.array([exposed, reference], dtype=float)
    if not counts.all():
        counts += 0.5
    table = Table2x2(counts, shift_zeros=False)
    low, high = table.oddsratio_confint(alpha=ALPHA, method="normal")
    return {"odds_ratio": float(table.oddsratio), "low": float(low), "high": float(high),
            "p_value": float(table.oddsratio_pvalue())}


def chi_square(table: Sequence[Sequence[int]]) -> dict[str, Any] | None:
    """Pearson's chi-square test of independence (scipy, no continuity correction) and
    Cramér's V (scipy's `association`) of a contingency table; rows and columns with no
    count are dropped first. None when fewer than two rows or columns remain."""
    t = np.asarray(table, dtype=np.int64)
    if t.ndim != 2:
        return None
    t = t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0]
    if min(t.shape) < 2:
        return None
    result = chi2_contingency(t, correction=False)
    return {"chi2": float(result.statistic), "dof": int(result.dof),
            "p_value": float(result.pvalue),
            "cramers_v": float(association(t, method="cramer", correction=False))}


# ------------------------------------------------------------------------------------ summaries
def _counted(rows: Iterable[Row]) -> list[Row]:
    return [r for r in rows if not r["game"].get("void") and r["game"].get("impostor_won")
            is not None]


def _impostor(row: Row) -> int:
    return row["game"]["impostor_seat"]


def _position_cell(row: Row) -> int:
    """The impostor's speaking position, or PLAYERS for a game that does not record it."""
    position = row["game"].get("impostor_position")
    return PLAYERS if position is None else position


def _mean(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def _rate_with_interval(name: str, successes: int, trials: int) -> dict[str, Any]:
    interval = wilson_interval(successes, trials)
    return {f"{name}_games": trials,
            f"{name}_win_rate": successes / trials if trials else None,
            f"{name}_win_rate_low": interval[0] if interval else None,
            f"{name}_win_rate_high": interval[1] if interval else None}


def _by_experiment(games: Sequence[Row], cell: Callable[[Row], int], cells: int,
                   success: Callable[[Row], float]) -> tuple[np.ndarray, np.ndarray]:
    index = {e: i for i, e in enumerate(dict.fromkeys(r["experiment"] for r in games))}
    wins = np.zeros((len(index), cells))
    trials = np.zeros((len(index), cells))
    for r in games:
        i, c = index[r["experiment"]], cell(r)
        wins[i, c] += success(r)
        trials[i, c] += 1
    return wins, trials


def summary(impostor_games: Sequence[Row], majority_games: Sequence[Row],
            majority_seats: Sequence[Mapping[str, Any]],
            seats_by_game: Sequence[Sequence[Mapping[str, Any]]], *,
            resamples: int = RESAMPLES, seed: int = 0) -> dict[str, Any]:
    """The figures of one group: `impostor_games` where the group played the impostor,
    `majority_games` where it held a majority seat, its majority seats' metrics and, game by
    game, all its seats' metrics (seat dicts of `game_metrics`)."""
    seats = [s for game in seats_by_game for s in game]
    imp_wins = sum(r["game"]["impostor_won"] for r in impostor_games)
    maj_wins = sum(r["game"]["majority_won"] for r in majority_games)
    n = len(impostor_games)
    p_imp = imp_wins / n if n else None
    ballots = [s for s in majority_seats if s.get("valid_ballot") is not None]
    declared = [r["game"]["impostor_self_declared"] for r in impostor_games]
    guesses = [r["game"]["guess_success"] for r in impostor_games]
    in_coalition = [s for s in seats if s.get("in_coalition")]
    # the paper's unit: a game with a coalition of the group's, converted if one of them was
    coalition_games = [g for g in seats_by_game if any(s.get("in_coalition") for s in g)]
    ties = [r for r in impostor_games if r["game"].get("tie")]
    out: dict[str, Any] = {
        **_rate_with_interval("impostor", imp_wins, n),
        **_rate_with_interval("majority", maj_wins, len(majority_games)),
        # an invalid ballot is a miss (as the game's `detection`)
        "detection_accuracy": (sum(1 for s in ballots if s.get("voted_impostor")) / len(ballots)
                               if ballots else None),
        "self_declaration_rate": _mean(declared),
        "guess_success_rate": _mean(guesses),
        "balance": None if p_imp is None else 1 - abs(2 * p_imp - 1),
        "influence": _mean(s.get("influence") for s in seats),
        "reach": _mean(s.get("influence") for s in seats),  # reach = influence (spec §7)
        "centrality": _mean(s.get("centrality") for s in seats),
        "coalition_efficiency": (sum(1 for g in coalition_games
                                     if any(s.get("coalition_converted") for s in g))
                                 / len(coalition_games) if coalition_games else None),
        "coalition_efficiency_seats": (sum(s.get("coalition_converted") or 0
                                           for s in in_coalition) / len(in_coalition)
                                       if in_coalition else None),
        "invalid_ballot_rate": _mean(None if s.get("valid_ballot") is None
                                     else 1 - s["valid_ballot"] for s in seats),
        "win_conditions": {c: sum(1 for r in impostor_games
                                  if r["game"].get("win_condition") == c)
                           for c in WIN_CONDITIONS},
        "ties": len(ties),
        "tie_rate": len(ties) / n if n else None,
    }
    for breaker in ("sym_candidate", "sym_side"):
        majority = _mean(r["game"][f"majority_won_{breaker}"] for r in impostor_games)
        rate = None if majority is None else 1 - majority
        out[f"impostor_win_rate_{breaker}"] = rate
        out[f"delta_{breaker}"] = None if rate is None or p_imp is None else rate - p_imp
    # cells: the impostor's speaking position, and a last one for a game without it
    wins, trials = _by_experiment(impostor_games, _position_cell, PLAYERS + 1,
                                  lambda r: r["game"]["impostor_won"])
    pooled_wins, pooled_trials = wins.sum(axis=0), trials.sum(axis=0)
    for p in range(PLAYERS):
        out[f"impostor_games_position_{p}"] = int(pooled_trials[p])
        out[f"impostor_win_rate_position_{p}"] = (float(pooled_wins[p] / pooled_trials[p])
                                                  if pooled_trials[p] else None)
    point = float(_itt_of_counts(pooled_wins, pooled_trials)) \
        if pooled_trials[:PLAYERS].all() else None
    intervals = block_bootstrap(wins, trials, {"itt": _itt_of_counts,
                                               "impostor_win_rate": _rate_of_counts},
                                resamples=resamples, seed=seed)
    itt_ci = intervals["itt"] if point is not None else None
    rate_ci = intervals["impostor_win_rate"]
    out.update(itt=point, itt_low=itt_ci[0] if itt_ci else None,
               itt_high=itt_ci[1] if itt_ci else None,
               impostor_win_rate_block_low=rate_ci[0] if rate_ci else None,
               impostor_win_rate_block_high=rate_ci[1] if rate_ci else None)
    return out


def _seat(row: Row, s: int) -> Mapping[str, Any]:
    return row["seats"][str(s)]


def model_summary(rows: Sequence[Row], model: str, *, resamples: int = RESAMPLES,
                  seed: int = 0) -> dict[str, Any]:
    """A model's figures over the games it played: as the impostor (the impostor's seat was
    its), as the majority (games where it held a majority seat, each game once), its majority
    seats' ballots and all its seats' vote-network measures."""
    imp = [r for r in rows if r["seat_models"][_impostor(r)] == model]
    held = [(r, [s for s in range(PLAYERS) if r["seat_models"][s] == model]) for r in rows]
    held = [(r, seats) for r, seats in held if seats]
    majority = [(r, [s for s in seats if s != _impostor(r)]) for r, seats in held]
    majority = [(r, seats) for r, seats in majority if seats]
    return summary(imp, [r for r, _ in majority],
                   [_seat(r, s) for r, seats in majority for s in seats],
                   [[_seat(r, s) for s in seats] for r, seats in held], resamples=resamples,
                   seed=derive_seed(seed, f"model:{model}"))


def cell_summary(rows: Sequence[Row], *, resamples: int = RESAMPLES, seed: int = 0
                 ) -> dict[str, Any]:
    """The figures of a set of games regardless of who played: every game is an impostor
    game and a majority game."""
    return summary(rows, rows,
                   [_seat(r, s) for r in rows for s in range(PLAYERS) if s != _impostor(r)],
                   [[_seat(r, s) for s in range(PLAYERS)] for r in rows],
                   resamples=resamples, seed=seed)


def _wins_losses(rows: Iterable[Row]) -> tuple[int, int]:
    wins = games = 0
    for r in rows:
        wins += r["game"]["impostor_won"]
        games += 1
    return wins, games - wins


def seat_odds_ratios(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """The impostor's odds of winning from seat 1, 2, 3 against seat 0 (spec §7: the paper's
    seat contrasts, descriptive since seats are counterbalanced)."""
    by_seat = defaultdict(list)
    for r in rows:
        by_seat[_impostor(r)].append(r)
    reference = _wins_losses(by_seat[0])
    return [{"seat": s, **(odds_ratio(_wins_losses(by_seat[s]), reference) or {})}
            for s in range(1, PLAYERS)]


def _odds_ratio_of_counts(exposed: int, reference: int
                          ) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def statistic(successes: np.ndarray, trials: np.ndarray) -> np.ndarray:
        # no odds where a mode drew only wins or only losses (or no game)
        odds = np.where((successes > 0) & (successes < trials),
                        successes / (trials - successes), np.nan)
        return odds[..., exposed] / odds[..., reference]
    return statistic


def mode_odds_ratios(rows: Sequence[Row], *, resamples: int = RESAMPLES, seed: int = 0
                     ) -> list[dict[str, Any]]:
    """The impostor's odds of winning in each mode against homogeneous: Wald (Table2x2) and,
    as the paper adds, a 95% experiment-block bootstrap interval (`block_low`,
    `block_high`; resamples where a mode has no game, or only wins or losses, left out)."""
    by_mode = defaultdict(list)
    for r in rows:
        by_mode[r["mode"]].append(r)
    reference = _wins_losses(by_mode[HOMOGENEOUS])
    played = [m for m in MODES if m in by_mode]
    wins, trials = _by_experiment(rows, lambda r: played.index(r["mode"]), len(played),
                                  lambda r: r["game"]["impostor_won"])
    others = [m for m in played if m != HOMOGENEOUS]
    intervals = block_bootstrap(
        wins, trials, {m: _odds_ratio_of_counts(played.index(m), played.index(HOMOGENEOUS))
                       for m in others}, resamples=resamples,
        seed=derive_seed(seed, "mode odds ratios")) if HOMOGENEOUS in by_mode else {}
    out = []
    for m in others:
        ratio = odds_ratio(_wins_losses(by_mode[m]), reference)
        interval = intervals.get(m)
        out.append({"mode": m, **(ratio or {}),
                    "block_low": interval[0] if ratio and interval else None,
                    "block_high": interval[1] if ratio and interval else None})
    return out


FACTORS: dict[str, Callable[[Row], Any]] = {
    "mode": lambda r: r["mode"],
    "tier": lambda r: r["tier"],
    "impostor_seat": _impostor,
    "impostor_position": lambda r: r["game"].get("impostor_position"),
    "impostor_model": lambda r: r["seat_models"][_impostor(r)],
}


def outcome_tests(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """Chi-square and Cramér's V of the winner (impostor, majority) against each factor."""
    out = []
    for name, factor in FACTORS.items():
        table: dict[Any, list[int]] = defaultdict(lambda: [0, 0])
        for r in rows:
            level = factor(r)
            if level is not None:
                table[level][0 if r["game"]["impostor_won"] else 1] += 1
        out.append({"factor": name, "levels": len(table),
                    **(chi_square(list(table.values())) or {})})
    return out


def report(rows: Iterable[Row], *, resamples: int = RESAMPLES, seed: int = 0
           ) -> dict[str, Any]:
    """The whole report over the grid's played games (void ones left out): `overall`,
    `models` (per model, in order of first appearance), `cells` (every mode x tier cell
    played, with `all` margins: each mode over tiers, each tier over modes, and all over
    all), `seat_odds_ratios`, `mode_odds_ratios` and `outcome_tests`. `seed` makes the
    bootstrap reproducible; `resamples` its size."""
    rows = _counted(rows)
    models = list(dict.fromkeys(m for r in rows for m in r["seat_models"]))
    cells = []
    modes = [m for m in MODES if any(r["mode"] == m for r in rows)]
    tiers = [t for t in TIERS if any(r["tier"] == t for r in rows)]
    for mode in (*modes, ALL):
        for tier in (*tiers, ALL):
            chosen = [r for r in rows if mode in (ALL, r["mode"]) and tier in (ALL, r["tier"])]
            if chosen:
                cells.append({"mode": mode, "tier": tier, **cell_summary(
                    chosen, resamples=resamples, seed=derive_seed(seed, f"{mode}/{tier}"))})
    overall = next((c for c in cells if c["mode"] == ALL and c["tier"] == ALL), None)
    return {"games": len(rows), "overall": overall,
            "models": {m: model_summary(rows, m, resamples=resamples, seed=seed)
                       for m in models},
            "cells": cells, "seat_odds_ratios": seat_odds_ratios(rows),
            "mode_odds_ratios": mode_odds_ratios(rows, resamples=resamples, seed=seed),
            "outcome_tests": outcome_tests(rows)}


__all__ = ["ALL", "RESAMPLES", "block_bootstrap", "cell_summary", "chi_square", "itt",
           "mode_odds_ratios", "model_summary", "odds_ratio", "outcome_tests", "report",
           "seat_odds_ratios", "summary"]
