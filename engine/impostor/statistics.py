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
from engine.impostor.grid import RESAMPLES
from engine.impostor.rules import WIN_CONDITIONS
from engine.impostor.words import TIERS

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
# Every figure is a sum or a count, so each group keeps running totals as games stream by
# (`Tally`), and the report reads the grid's games once: memory grows with the number of
# experiments (the block bootstrap's counts), not of games.
def _counted(row: Row) -> bool:
    return not row["game"].get("void") and row["game"].get("impostor_won") is not None


def _impostor(row: Row) -> int:
    return row["game"]["impostor_seat"]


def _position_cell(row: Row) -> int:
    """The impostor's speaking position, or PLAYERS for a game that does not record it."""
    position = row["game"].get("impostor_position")
    return PLAYERS if position is None else position


class _Mean:
    """The mean of the values given, None left out (None without any)."""

    __slots__ = ("total", "n")

    def __init__(self) -> None:
        self.total = 0.0
        self.n = 0

    def add(self, value: float | None) -> None:
        if value is not None:
            self.total += value
            self.n += 1

    def value(self) -> float | None:
        return self.total / self.n if self.n else None


def _rate_with_interval(name: str, successes: int, trials: int) -> dict[str, Any]:
    interval = wilson_interval(successes, trials)
    return {f"{name}_games": trials,
            f"{name}_win_rate": successes / trials if trials else None,
            f"{name}_win_rate_low": interval[0] if interval else None,
            f"{name}_win_rate_high": interval[1] if interval else None}


class _ByExperiment:
    """Successes and trials per experiment (in order of first appearance) and cell: the
    counts a block bootstrap resamples."""

    def __init__(self, cells: int) -> None:
        self.cells = cells
        self.counts: dict[Any, np.ndarray] = {}

    def add(self, experiment: Any, cell: int, success: float) -> None:
        counts = self.counts.get(experiment)
        if counts is None:
            counts = self.counts[experiment] = np.zeros((2, self.cells))
        counts[0, cell] += success
        counts[1, cell] += 1

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        if not self.counts:
            return np.zeros((0, self.cells)), np.zeros((0, self.cells))
        stacked = np.stack(list(self.counts.values()))
        return stacked[:, 0], stacked[:, 1]


class Tally:
    """The running totals of one group's figures (`summary`): games where the group played
    the impostor, games where it held a majority seat, its majority seats' ballots and, game
    by game, all its seats' vote-network measures."""

    def __init__(self) -> None:
        self.imp_wins = self.imp_games = self.maj_wins = self.maj_games = 0
        self.ballots = self.voted_impostor = 0
        self.declared, self.guessed = _Mean(), _Mean()
        self.influence, self.centrality, self.invalid = _Mean(), _Mean(), _Mean()
        self.coalition_games = self.coalition_games_converted = 0
        self.coalition_seats, self.coalition_seats_converted = 0, 0
        self.win_conditions = dict.fromkeys(WIN_CONDITIONS, 0)
        self.ties = 0
        self.breakers = {b: _Mean() for b in ("sym_candidate", "sym_side")}
        self.positions = _ByExperiment(PLAYERS + 1)

    def impostor_game(self, row: Row) -> None:
        game = row["game"]
        self.imp_wins += game["impostor_won"]
        self.imp_games += 1
        self.declared.add(game["impostor_self_declared"])
        self.guessed.add(game["guess_success"])
        if game.get("tie"):
            self.ties += 1
        condition = game.get("win_condition")
        if condition in self.win_conditions:
            self.win_conditions[condition] += 1
        for breaker, mean in self.breakers.items():
            mean.add(game[f"majority_won_{breaker}"])
        self.positions.add(row["experiment"], _position_cell(row), game["impostor_won"])

    def majority_game(self, row: Row) -> None:
        self.maj_wins += row["game"]["majority_won"]
        self.maj_games += 1

    def majority_seat(self, seat: Mapping[str, Any]) -> None:
        if seat.get("valid_ballot") is not None:
            self.ballots += 1
            if seat.get("voted_impostor"):  # an invalid ballot is a miss (as `detection`)
                self.voted_impostor += 1

    def game_seats(self, seats: Sequence[Mapping[str, Any]]) -> None:
        coalition = False
        for s in seats:
            self.influence.add(s.get("influence"))
            self.centrality.add(s.get("centrality"))
            valid = s.get("valid_ballot")
            self.invalid.add(None if valid is None else 1 - valid)
            if s.get("in_coalition"):
                coalition = True
                self.coalition_seats += 1
                self.coalition_seats_converted += s.get("coalition_converted") or 0
        # the paper's unit: a game with a coalition of the group's, converted if one of them was
        if coalition:
            self.coalition_games += 1
            if any(s.get("coalition_converted") for s in seats):
                self.coalition_games_converted += 1

    def summary(self, *, resamples: int = RESAMPLES, seed: int = 0) -> dict[str, Any]:
        n = self.imp_games
        p_imp = self.imp_wins / n if n else None
        influence = self.influence.value()
        out: dict[str, Any] = {
            **_rate_with_interval("impostor", self.imp_wins, n),
            **_rate_with_interval("majority", self.maj_wins, self.maj_games),
            "detection_accuracy": self.voted_impostor / self.ballots if self.ballots else None,
            "self_declaration_rate": self.declared.value(),
            "guess_success_rate": self.guessed.value(),
            "balance": None if p_imp is None else 1 - abs(2 * p_imp - 1),
            "influence": influence,
            "reach": influence,  # reach = influence (spec §7)
            "centrality": self.centrality.value(),
            "coalition_efficiency": (self.coalition_games_converted / self.coalition_games
                                     if self.coalition_games else None),
            "coalition_efficiency_seats": (self.coalition_seats_converted / self.coalition_seats
                                           if self.coalition_seats else None),
            "invalid_ballot_rate": self.invalid.value(),
            "win_conditions": dict(self.win_conditions),
            "ties": self.ties,
            "tie_rate": self.ties / n if n else None,
        }
        for breaker, mean in self.breakers.items():
            majority = mean.value()
            rate = None if majority is None else 1 - majority
            out[f"impostor_win_rate_{breaker}"] = rate
            out[f"delta_{breaker}"] = None if rate is None or p_imp is None else rate - p_imp
        # cells: the impostor's speaking position, and a last one for a game without it
        wins, trials = self.positions.arrays()
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


def _add_for_model(tally: Tally, row: Row, model: str) -> None:
    """A game as one model's: the impostor's if its seat was the model's, a majority game if
    it held a majority seat (each game once), and all its seats' measures."""
    held = [s for s in range(PLAYERS) if row["seat_models"][s] == model]
    if not held:
        return
    impostor = _impostor(row)
    if row["seat_models"][impostor] == model:
        tally.impostor_game(row)
    majority = [s for s in held if s != impostor]
    if majority:
        tally.majority_game(row)
        for s in majority:
            tally.majority_seat(_seat(row, s))
    tally.game_seats([_seat(row, s) for s in held])


def _add_for_cell(tally: Tally, row: Row) -> None:
    """A game regardless of who played: an impostor game and a majority game."""
    impostor = _impostor(row)
    tally.impostor_game(row)
    tally.majority_game(row)
    seats = [_seat(row, s) for s in range(PLAYERS)]
    for s, seat in enumerate(seats):
        if s != impostor:
            tally.majority_seat(seat)
    tally.game_seats(seats)


def model_summary(rows: Iterable[Row], model: str, *, resamples: int = RESAMPLES,
                  seed: int = 0) -> dict[str, Any]:
    """A model's figures over the games it played: as the impostor (the impostor's seat was
    its), as the majority (games where it held a majority seat, each game once), its majority
    seats' ballots and all its seats' vote-network measures."""
    tally = Tally()
    for row in rows:
        _add_for_model(tally, row, model)
    return tally.summary(resamples=resamples, seed=derive_seed(seed, f"model:{model}"))


def cell_summary(rows: Iterable[Row], *, resamples: int = RESAMPLES, seed: int = 0
                 ) -> dict[str, Any]:
    """The figures of a set of games regardless of who played: every game is an impostor
    game and a majority game."""
    tally = Tally()
    for row in rows:
        _add_for_cell(tally, row)
    return tally.summary(resamples=resamples, seed=seed)


class _WinsByLevel:
    """The impostor's wins and losses per level of a factor, in order of first appearance."""

    def __init__(self) -> None:
        self.table: dict[Any, list[int]] = {}

    def add(self, level: Any, won: int) -> None:
        counts = self.table.get(level)
        if counts is None:
            counts = self.table[level] = [0, 0]
        counts[0 if won else 1] += 1

    def wins_losses(self, level: Any) -> tuple[int, int]:
        wins, losses = self.table.get(level, (0, 0))
        return wins, losses


def _seat_odds(by_seat: _WinsByLevel) -> list[dict[str, Any]]:
    reference = by_seat.wins_losses(0)
    return [{"seat": s, **(odds_ratio(by_seat.wins_losses(s), reference) or {})}
            for s in range(1, PLAYERS)]


def seat_odds_ratios(rows: Iterable[Row]) -> list[dict[str, Any]]:
    """The impostor's odds of winning from seat 1, 2, 3 against seat 0 (spec §7: the paper's
    seat contrasts, descriptive since seats are counterbalanced)."""
    by_seat = _WinsByLevel()
    for r in rows:
        by_seat.add(_impostor(r), r["game"]["impostor_won"])
    return _seat_odds(by_seat)


def _odds_ratio_of_counts(exposed: int, reference: int
                          ) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def statistic(successes: np.ndarray, trials: np.ndarray) -> np.ndarray:
        # no odds where a mode drew only wins or only losses (or no game)
        odds = np.where((successes > 0) & (successes < trials),
                        successes / (trials - successes), np.nan)
        return odds[..., exposed] / odds[..., reference]
    return statistic


class _ModeOdds:
    """The impostor's wins per mode, pooled and per experiment."""

    def __init__(self) -> None:
        self.by_mode = _WinsByLevel()
        self.by_experiment = _ByExperiment(len(MODES))

    def add(self, row: Row) -> None:
        won = row["game"]["impostor_won"]
        self.by_mode.add(row["mode"], won)
        self.by_experiment.add(row["experiment"], MODES.index(row["mode"]), won)

    def ratios(self, *, resamples: int, seed: int) -> list[dict[str, Any]]:
        played = [m for m in MODES if m in self.by_mode.table]
        wins, trials = self.by_experiment.arrays()
        columns = [MODES.index(m) for m in played]
        wins, trials = wins[:, columns], trials[:, columns]
        others = [m for m in played if m != HOMOGENEOUS]
        intervals = block_bootstrap(
            wins, trials, {m: _odds_ratio_of_counts(played.index(m), played.index(HOMOGENEOUS))
                           for m in others}, resamples=resamples,
            seed=derive_seed(seed, "mode odds ratios")) if HOMOGENEOUS in played else {}
        reference = self.by_mode.wins_losses(HOMOGENEOUS)
        out = []
        for m in others:
            ratio = odds_ratio(self.by_mode.wins_losses(m), reference)
            interval = intervals.get(m)
            out.append({"mode": m, **(ratio or {}),
                        "block_low": interval[0] if ratio and interval else None,
                        "block_high": interval[1] if ratio and interval else None})
        return out


def mode_odds_ratios(rows: Iterable[Row], *, resamples: int = RESAMPLES, seed: int = 0
                     ) -> list[dict[str, Any]]:
    """The impostor's odds of winning in each mode against homogeneous: Wald (Table2x2) and,
    as the paper adds, a 95% experiment-block bootstrap interval (`block_low`,
    `block_high`; resamples where a mode has no game, or only wins or losses, left out)."""
    odds = _ModeOdds()
    for r in rows:
        odds.add(r)
    return odds.ratios(resamples=resamples, seed=seed)


FACTORS: dict[str, Callable[[Row], Any]] = {
    "mode": lambda r: r["mode"],
    "tier": lambda r: r["tier"],
    "impostor_seat": _impostor,
    "impostor_position": lambda r: r["game"].get("impostor_position"),
    "impostor_model": lambda r: r["seat_models"][_impostor(r)],
}


def _outcome_tables() -> dict[str, _WinsByLevel]:
    return {name: _WinsByLevel() for name in FACTORS}


def _add_outcome(tables: Mapping[str, _WinsByLevel], row: Row) -> None:
    for name, factor in FACTORS.items():
        level = factor(row)
        if level is not None:
            tables[name].add(level, row["game"]["impostor_won"])


def _tests(tables: Mapping[str, _WinsByLevel]) -> list[dict[str, Any]]:
    return [{"factor": name, "levels": len(t.table), **(chi_square(list(t.table.values())) or {})}
            for name, t in tables.items()]


def outcome_tests(rows: Iterable[Row]) -> list[dict[str, Any]]:
    """Chi-square and Cramér's V of the winner (impostor, majority) against each factor."""
    tables = _outcome_tables()
    for r in rows:
        _add_outcome(tables, r)
    return _tests(tables)


def report(rows: Iterable[Row], *, resamples: int = RESAMPLES, seed: int = 0
           ) -> dict[str, Any]:
    """The whole report over the grid's played games (void ones left out), read once as
    they come: `overall`, `models` (per model, in order of first appearance), `cells`
    (every mode x tier cell played, with `all` margins: each mode over tiers, each tier over
    modes, and all over all), `seat_odds_ratios`, `mode_odds_ratios` and `outcome_tests`.
    `seed` makes the bootstrap reproducible; `resamples` its size."""
    games = 0
    models: dict[str, Tally] = {}
    cells: dict[tuple[str, str], Tally] = defaultdict(Tally)
    by_seat, odds, tables = _WinsByLevel(), _ModeOdds(), _outcome_tables()
    for row in rows:
        if not _counted(row):
            continue
        games += 1
        for model in dict.fromkeys(row["seat_models"]):
            tally = models.get(model)
            if tally is None:
                tally = models[model] = Tally()
            _add_for_model(tally, row, model)
        for mode in (row["mode"], ALL):
            for tier in (row["tier"], ALL):
                _add_for_cell(cells[mode, tier], row)
        by_seat.add(_impostor(row), row["game"]["impostor_won"])
        odds.add(row)
        _add_outcome(tables, row)
    modes = [m for m in MODES if (m, ALL) in cells]
    tiers = [t for t in TIERS if (ALL, t) in cells]
    summaries = []
    for mode in (*modes, ALL):
        for tier in (*tiers, ALL):
            if (mode, tier) in cells:
                summaries.append({"mode": mode, "tier": tier, **cells[mode, tier].summary(
                    resamples=resamples, seed=derive_seed(seed, f"{mode}/{tier}"))})
    overall = next((c for c in summaries if c["mode"] == ALL and c["tier"] == ALL), None)
    return {"games": games, "overall": overall,
            "models": {m: t.summary(resamples=resamples, seed=derive_seed(seed, f"model:{m}"))
                       for m, t in models.items()},
            "cells": summaries, "seat_odds_ratios": _seat_odds(by_seat),
            "mode_odds_ratios": odds.ratios(resamples=resamples, seed=seed),
            "outcome_tests": _tests(tables)}


__all__ = ["ALL", "RESAMPLES", "Tally", "block_bootstrap", "cell_summary", "chi_square", "itt",
           "mode_odds_ratios", "model_summary", "odds_ratio", "outcome_tests", "report",
           "seat_odds_ratios"]
