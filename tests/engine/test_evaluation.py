"""The evaluation statistics against values worked by hand (and published tables)."""

from __future__ import annotations

import pytest

from engine.evaluation import error_survival_warning, role_advantage, wilson_interval


def test_wilson_interval_matches_published_values():
    # 5 of 10: the textbook interval (0.2366, 0.7634); 0 of 10 keeps a width, unlike Wald.
    lo, hi = wilson_interval(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson_interval(30, 30)
    assert round(hi, 12) == 1.0 and round(lo, 4) == 0.8865
    assert wilson_interval(0, 0) is None


def test_wilson_interval_narrows_with_games():
    widths = [hi - lo for lo, hi in (wilson_interval(n // 2, n) for n in (10, 36, 96, 1000))]
    assert widths == sorted(widths, reverse=True)


@pytest.mark.parametrize("rate, depth, warned", [
    (0.503, 0.3, True),   # Secret Mafia in Stage II: half the games erred, failures end early
    (0.085, 0.3, False),  # Blotto: few errors
    (0.5, 0.6, False),    # errors, but failed games went most of the way
    (0.5, None, False),   # no fatal error: no depth to speak of
    (None, 0.1, False),
])
def test_error_survival_warning(rate, depth, warned):
    assert error_survival_warning(rate, depth) is warned


def test_role_advantage_is_the_rate_minus_the_mean_over_roles_played():
    adv = role_advantage({"mafia": 6, "villager": 3, "doctor": 0},
                         {"mafia": 10, "villager": 10, "doctor": 0})
    assert adv == pytest.approx({"mafia": 0.15, "villager": -0.15})
    assert role_advantage({}, {}) == {}
