"""The statistics every report shares: a 95% interval suited to the figure and a test of two
samples suited to it, with its effect size and the small-sample warning (docs/reports.md).

- A rate (successes out of trials, e.g. games won): the Wilson interval
  (`engine.evaluation.wilson_interval`, statsmodels), two samples by Fisher's exact test
  (scipy) with the difference of rates and the odds ratio.
- A mean or a ratio of sums (e.g. votes for an impostor over votes cast, pooled over games):
  a seeded percentile bootstrap over games, two samples by a permutation test of the
  difference (scipy), with Cohen's d for a mean.

Plain functions of numbers, so the comparison report, `maze report` and the league reports
compute the same figure the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.evaluation import wilson_interval

RESAMPLES = 2000  # bootstrap resamples of an interval
PERMUTATIONS = 9999  # permutation test resamples (scipy runs the exact test when fewer exist)
# The small-sample rule: fewer games a side than this, or (a rate) an expected count under 5 in
# a cell of the 2x2 table, and a test says nothing worth reading.
MIN_GAMES = 10
MIN_EXPECTED = 5.0


@dataclass(frozen=True)
class Estimate:
    value: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True)
class Difference:
    """Two samples compared: `a` minus `b`, the test's p-value, an effect size, and why the
    sample is too small to say anything (None when it is not)."""

    method: str  # "Fisher's exact" or "permutation"
    difference: float | None
    effect_name: str  # "odds ratio" or "Cohen's d" or ""
    effect: float | None
    p_value: float | None
    warning: str | None


def rate(successes: float, trials: int) -> Estimate:
    """A share with its Wilson interval; no value without trials."""
    if trials <= 0:
        return Estimate(None, None, None)
    low, high = wilson_interval(successes, trials) or (None, None)
    return Estimate(successes / trials, low, high)


def ratio(numerators: Sequence[float], denominators: Sequence[float], seed: int = 0
          ) -> Estimate:
    """Sum of numerators over sum of denominators (a mean when every denominator is 1), with a
    percentile bootstrap interval over the pairs (games), seeded: the same data give the same
    interval. Resamples whose denominators sum to 0 are dropped; fewer than 2 pairs: no
    interval."""
    num, den = np.asarray(numerators, float), np.asarray(denominators, float)
    if not len(num) or den.sum() <= 0:
        return Estimate(None, None, None)
    value = float(num.sum() / den.sum())
    if len(num) < 2:
        return Estimate(value, None, None)
    picks = np.random.default_rng(seed).integers(0, len(num), (RESAMPLES, len(num)))
    tops, bottoms = num[picks].sum(axis=1), den[picks].sum(axis=1)
    kept = tops[bottoms > 0] / bottoms[bottoms > 0]
    low, high = np.percentile(kept, [2.5, 97.5])
    return Estimate(value, float(low), float(high))


def mean(values: Sequence[float], seed: int = 0) -> Estimate:
    return ratio(values, [1.0] * len(values), seed)


def small_sample(games_a: int, games_b: int, table: Sequence[Sequence[float]] | None = None
                 ) -> str | None:
    """Why two samples are too small to say anything, or None: fewer than MIN_GAMES games a
    side, or (a 2x2 table of a rate) an expected count under MIN_EXPECTED."""
    if min(games_a, games_b) < MIN_GAMES:
        return (f"too few games to say anything ({games_a} and {games_b}; the rule: at least "
                f"{MIN_GAMES} a side)")
    if table is not None:
        cells = np.asarray(table, float)
        total = cells.sum()
        expected = np.outer(cells.sum(axis=1), cells.sum(axis=0)) / total if total else cells
        if expected.min() < MIN_EXPECTED:
            return (f"too few to say anything (an expected count of {expected.min():.1f} in "
                    f"the 2x2 table; the rule: at least {MIN_EXPECTED:g})")
    return None


def compare_rates(successes_a: float, trials_a: int, successes_b: float, trials_b: int,
                  games_a: int | None = None, games_b: int | None = None) -> Difference:
    """Fisher's exact test (two-sided) of two rates, the difference a - b and the sample odds
    ratio (inf or 0 when a cell is empty). Half successes (draws) are rounded for the test."""
    from scipy.stats import fisher_exact

    table = [[round(successes_a), trials_a - round(successes_a)],
             [round(successes_b), trials_b - round(successes_b)]]
    warning = small_sample(trials_a if games_a is None else games_a,
                           trials_b if games_b is None else games_b, table)
    if not trials_a or not trials_b:
        return Difference("Fisher's exact", None, "odds ratio", None, None, warning)
    odds, p = fisher_exact(table)
    return Difference("Fisher's exact", successes_a / trials_a - successes_b / trials_b,
                      "odds ratio", None if np.isnan(odds) else float(odds), float(p), warning)


def compare_ratios(a: tuple[Sequence[float], Sequence[float]],
                   b: tuple[Sequence[float], Sequence[float]], seed: int = 0) -> Difference:
    """A permutation test (two-sided, seeded) of the difference of two ratios of sums, each
    sample a (numerators, denominators) pair of sequences, one entry per game; Cohen's d (pooled
    standard deviation) when every denominator is 1 (a mean)."""
    from scipy.stats import permutation_test

    num = np.asarray([*a[0], *b[0]], float)
    den = np.asarray([*a[1], *b[1]], float)
    n_a, n_b = len(a[0]), len(b[0])
    warning = small_sample(n_a, n_b)
    if not den[:n_a].sum() or not den[n_a:].sum():
        return Difference("permutation", None, "", None, None, warning)

    def of(picked: np.ndarray, axis: int) -> np.ndarray:
        bottom = den[picked].sum(axis=axis)
        return num[picked].sum(axis=axis) / np.where(bottom > 0, bottom, np.nan)

    def statistic(x: np.ndarray, y: np.ndarray, axis: int) -> np.ndarray:
        return of(x, axis) - of(y, axis)

    difference = float(statistic(np.arange(n_a), np.arange(n_a, n_a + n_b), 0))
    if min(n_a, n_b) < 2:  # nothing to permute
        return Difference("permutation", difference, "", None, None, warning)
    result = permutation_test((np.arange(n_a), np.arange(n_a, n_a + n_b)), statistic,
                              permutation_type="independent", vectorized=True,
                              n_resamples=PERMUTATIONS, random_state=seed)
    p = float(result.pvalue)
    effect_name, effect = "", None
    if (den == 1).all():
        effect_name, effect = "Cohen's d", cohens_d(num[:n_a], num[n_a:])
    return Difference("permutation", difference, effect_name, effect,
                      None if np.isnan(p) else min(1.0, p), warning)


def cohens_d(a: Sequence[float], b: Sequence[float]) -> float | None:
    """(mean a - mean b) over the pooled standard deviation; None when it is 0 or undefined."""
    x, y = np.asarray(a, float), np.asarray(b, float)
    if len(x) < 2 or len(y) < 2:
        return None
    pooled = ((len(x) - 1) * x.var(ddof=1) + (len(y) - 1) * y.var(ddof=1)) / (len(x) + len(y) - 2)
    return float((x.mean() - y.mean()) / np.sqrt(pooled)) if pooled > 0 else None
