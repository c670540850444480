"""The fitted-rating model (server/reports/plackett_luce.py) against small tournaments whose
answer is known: closed forms where Bradley–Terry has one, choix where it applies."""

from __future__ import annotations

import itertools
import math
import random

import choix
import numpy as np
import pytest

from server.reports import plackett_luce as pl


def duels(a: int, b: int, wins: int, losses: int, draws: int = 0) -> list[list[pl.Place]]:
    """`a` against `b`: a won `wins`, lost `losses`, drew `draws`."""
    return ([[((a,), 1.0), ((b,), -1.0)]] * wins + [[((a,), -1.0), ((b,), 1.0)]] * losses
            + [[((a,), 0.0), ((b,), 0.0)]] * draws)


def test_a_chain_of_duels_has_the_closed_form_odds():
    # A beat B 3 times in 4; B beat C 1 time in 3. With no prior the MLE of a tree of
    # comparisons is the log odds on each edge: theta_A - theta_B = ln 3, theta_B - theta_C =
    # ln(1/2); centred, theta = (c + ln 3 + ln(1/2), c + ln(1/2), c) with mean zero.
    games = duels(0, 1, 3, 1) + duels(1, 2, 1, 2)
    theta = pl.fit(pl.design(3, games), alpha=0.0)
    assert theta[0] - theta[1] == pytest.approx(math.log(3), abs=1e-6)
    assert theta[1] - theta[2] == pytest.approx(math.log(0.5), abs=1e-6)
    assert theta.sum() == pytest.approx(0.0, abs=1e-9)
    elo = pl.to_elo(theta)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3), abs=1e-3)  # 190.8 points


def test_a_draw_is_half_a_win_each():
    # 3 wins, 1 loss, 2 draws = 4 wins and 2 losses: odds 2, theta_A - theta_B = ln 2
    theta = pl.fit(pl.design(2, duels(0, 1, 3, 1, draws=2)), alpha=0.0)
    assert theta[0] - theta[1] == pytest.approx(math.log(2), abs=1e-6)


def test_bradley_terry_agrees_with_choix():
    rng = random.Random(5)
    pairs = [tuple(rng.sample(range(5), 2)) for _ in range(60)]
    games = [[((w,), 1.0), ((lo,), 0.0)] for w, lo in pairs]
    ours = pl.fit(pl.design(5, games), alpha=0.05)
    theirs = choix.opt_pairwise(5, pairs, alpha=0.05, tol=1e-10)
    np.testing.assert_allclose(ours, theirs - theirs.mean(), atol=1e-5)


def test_plackett_luce_agrees_with_choix():
    # the IPD's case: three players ranked by score, no ties
    rng = random.Random(7)
    rankings = [rng.sample(range(4), 3) for _ in range(80)]
    games = [[((p,), -float(place)) for place, p in enumerate(r)] for r in rankings]
    ours = pl.fit(pl.design(4, games), alpha=0.02)
    theirs = choix.opt_rankings(4, rankings, alpha=0.02, tol=1e-10)
    np.testing.assert_allclose(ours, theirs - theirs.mean(), atol=1e-5)


def test_plackett_luce_by_hand():
    # Two games of three: 0 > 1 > 2, then 2 > 1 > 0. By symmetry theta_0 = theta_2 = a, and
    # with b = theta_1 the log-likelihood is 2a + 2b - 2 ln(2e^a + e^b) - 2 ln(e^a + e^b);
    # d/db = 0 gives 1 = x/(2 + x) + x/(1 + x) with x = e^(b - a), so x^2 = 2: the player who
    # was second twice is sqrt(2) times as strong as the others.
    games = [[((0,), 9.0), ((1,), 2.0), ((2,), 1.0)]] + [[((2,), 9.0), ((1,), 2.0), ((0,), 1.0)]]
    theta = pl.fit(pl.design(3, games), alpha=0.0)
    assert theta[0] == pytest.approx(theta[2], abs=1e-6)
    assert theta[1] - theta[0] == pytest.approx(0.5 * math.log(2), abs=1e-6)


@pytest.mark.parametrize("rewards", [(1.0, 1.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 0.0)])
def test_a_tie_is_every_order_it_could_have_finished_in(rewards):
    # a game of three with a tie fits like its orders, each a game of weight 1/(orders)
    others = [[((0,), 2.0), ((1,), 1.0), ((2,), 0.0)], [((2,), 2.0), ((0,), 1.0), ((1,), 0.0)],
              [((1,), 1.0), ((2,), 0.0)]]
    tied = [((0,), rewards[0]), ((1,), rewards[1]), ((2,), rewards[2])]
    orders = [list(o) for o in itertools.permutations(range(3))
              if all(rewards[a] >= rewards[b] for a, b in zip(o, o[1:], strict=False))]
    expanded = [[((p,), -float(i)) for i, p in enumerate(o)] for o in orders]
    ours = pl.fit(pl.design(3, others + [tied]), alpha=0.05)
    weights = np.array([1.0] * len(others) + [1.0 / len(orders)] * len(orders))
    theirs = pl.fit(pl.design(3, others + expanded), weights=weights, alpha=0.05)
    np.testing.assert_allclose(ours, theirs, atol=1e-7)


def test_a_bot_on_both_sides_cancels_out():
    # a person (0) with the lobby's bot (1) against the bot: won 3, lost 1. A side is the mean
    # of its players, so the side's edge is (theta_0 + theta_1)/2 - theta_1 = ln 3.
    games = ([[((0, 1), 1.0), ((1,), -1.0)]] * 3 + [[((0, 1), -1.0), ((1,), 1.0)]])
    theta = pl.fit(pl.design(2, games), alpha=0.0)
    assert theta[0] - theta[1] == pytest.approx(2 * math.log(3), abs=1e-6)


def test_teams_of_two_are_rated_by_their_mean():
    # (0, 1) beat (2, 3) 3 times in 4: (t0 + t1 - t2 - t3) / 2 = ln 3; only the sides' means
    # are seen, so a faint prior splits each side's strength evenly between its two players
    games = [[((0, 1), 1.0), ((2, 3), 0.0)]] * 3 + [[((0, 1), 0.0), ((2, 3), 1.0)]]
    theta = pl.fit(pl.design(4, games), alpha=1e-9)
    assert (theta[0] + theta[1] - theta[2] - theta[3]) / 2 == pytest.approx(math.log(3), abs=1e-6)
    assert theta[0] == pytest.approx(theta[1], abs=1e-6)


def test_an_unbeaten_player_stays_finite_and_games_count_once_each():
    theta = pl.fit(pl.design(2, duels(0, 1, 5, 0)))
    assert 0 < theta[0] < 5 and theta[1] == pytest.approx(-theta[0])
    # weights: a game drawn twice in a resample counts twice
    once = pl.fit(pl.design(2, duels(0, 1, 2, 1)), alpha=0.0)
    weighted = pl.fit(pl.design(2, duels(0, 1, 1, 1)), weights=np.array([2.0, 1.0]), alpha=0.0)
    np.testing.assert_allclose(once, weighted, atol=1e-6)


def test_bootstrap_intervals_hold_the_estimate_and_shrink_with_more_games():
    def width(repeat: int) -> tuple[float, float, float]:
        games = (duels(0, 1, 6, 4, 2) + duels(1, 2, 5, 5) + duels(0, 2, 7, 3)) * repeat
        d = pl.design(3, games)
        theta = pl.fit(d)
        boot = pl.bootstrap(d, 300, seed=1, start=theta)
        low, high = np.percentile(boot, [2.5, 97.5], axis=0)
        assert np.all(low <= theta) and np.all(theta <= high)
        assert np.all(low < high)
        return tuple(high - low)

    small, large = width(1), width(4)
    assert all(b < a * 0.7 for a, b in zip(small, large, strict=True))  # about half: 1/sqrt(4)
    d = pl.design(3, duels(0, 1, 3, 2))
    a = pl.bootstrap(d, 20, seed=3)
    np.testing.assert_array_equal(a, pl.bootstrap(d, 20, seed=3))  # seeded
    assert np.isnan(a[:, 2]).all()  # player 2 never played: no value in any resample


def test_the_gradient_and_hessian_are_the_likelihoods():
    # sides of one or two players, ties, up to four places: against central differences
    rng = random.Random(1)
    games = [[(tuple(rng.sample(range(6), rng.choice((1, 2)))), float(rng.choice((0, 1, 2))))
              for _ in range(rng.choice((2, 3, 4)))] for _ in range(40)]
    objective, hessian = pl.penalised(pl.design(6, games), np.arange(40) % 3 + 0.5)
    theta, eps, unit = np.random.default_rng(0).normal(size=6), 1e-6, np.eye(6)
    slope = [(objective(theta + eps * u)[0] - objective(theta - eps * u)[0]) / (2 * eps)
             for u in unit]
    np.testing.assert_allclose(objective(theta)[1], slope, atol=1e-6)
    curve = [(objective(theta + eps * u)[1] - objective(theta - eps * u)[1]) / (2 * eps)
             for u in unit]
    np.testing.assert_allclose(hessian(theta), curve, atol=1e-6)
