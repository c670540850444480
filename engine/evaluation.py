"""Statistics the MindGames evaluation reports beside ratings (spec mindgames §9–10): win rates
with a 95% Wilson interval, the error-survival warning and role advantage. Plain functions of
counts, so `parlor sim`, the leagues and the TUI's reports compute them the same way."""

from __future__ import annotations

from collections.abc import Mapping

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
# The error-survival confound (§10): when more than this share of games has an error and failed
# games end before this share of their expected length, a leaderboard mostly measures who
# survives the others' failures.
SURVIVAL_ERROR_RATE = 0.30
SURVIVAL_DEPTH = 0.5


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a win rate (draws may count half: `wins` need not be an
    integer); None without games. It stays inside [0, 1] and is sensible at 0 and n wins,
    where the Wald interval collapses to a point. statsmodels computes it; imported here, so a
    command that never reports does not pay for loading it."""
    if games <= 0:
        return None
    from scipy.stats import norm
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(wins, games, alpha=2 * norm.sf(z), method="wilson")
    return max(0.0, float(low)), min(1.0, float(high))


def error_survival_warning(error_rate: float | None, depth: float | None) -> bool:
    """True when the games' error rate and termination depth (median share of the expected
    length played before a fatal error) say the ranking rewards surviving others' errors."""
    return (error_rate is not None and depth is not None
            and error_rate > SURVIVAL_ERROR_RATE and depth < SURVIVAL_DEPTH)


def role_advantage(wins: Mapping[str, float], games: Mapping[str, int]) -> dict[str, float]:
    """A_{m,r} = w_{m,r} minus the mean of w_{m,r'} over the roles the model played (§10):
    how much better than its own average a model does in each role."""
    rates = {r: wins.get(r, 0.0) / n for r, n in games.items() if n > 0}
    if not rates:
        return {}
    mean = sum(rates.values()) / len(rates)
    return {r: rate - mean for r, rate in rates.items()}
