"""Colonel Blotto's error evaluation (MindGames §10) on games played move by move: the invalid
moves by class and severity, the termination depth in rounds, and the aggregate's error rate,
game counts per seat, warning and Wilson bounds, all worked out by hand."""

from __future__ import annotations

import json

import pytest

from engine.colonel_blotto import ColonelBlottoEnv
from tests.envs.metric_checks import checked_metrics

ENV = ColonelBlottoEnv()
WIN, LOSE = "[A7 B7 C6]", "[A6 B6 C8]"  # WIN takes A and B from LOSE


def new(preset="paper"):
    return ENV.new_game(ENV.config(preset), 0, 2)


def metrics(game):
    return checked_metrics(ENV, game.record())


def erring_game():
    """Round 1: Alpha's answer is unreadable (retried), then Alpha wins the round. Round 2:
    Beta breaks the unit budget (retried), then answers unreadably: the second error in a row
    forfeits the game, after 1 of 9 rounds."""
    game = new()
    game.act(0, "hello")  # format, non-fatal
    game.act(0, WIN)
    game.act(1, LOSE)
    game.act(0, WIN)
    game.act(1, "[A30]")  # rule (units), non-fatal
    game.act(1, "nothing")  # format, fatal
    assert game.over and game.result.winners == (0,)
    return game


def clean_sweep():
    game = new("small")
    while not game.over:
        game.act(0, WIN)
        game.act(1, LOSE)
    return game


def resigned():
    game = new()
    game.act(0, WIN)
    game.act(1, LOSE)
    game.resign(1, "left the game")
    return game


def test_invalid_moves_by_class_severity_and_the_depth_in_rounds():
    m = metrics(erring_game())
    alpha, beta = m["seats"]["0"], m["seats"]["1"]
    assert (alpha["invalid_caused"], alpha["invalid_witnessed"]) == (1, 2)
    assert (alpha["errors_format"], alpha["errors_rule"]) == (1, 0)
    assert (alpha["errors_fatal"], alpha["errors_nonfatal"]) == (0, 1)
    assert (alpha["self_forfeit"], alpha["opponent_forfeit"], alpha["clean"]) == (0, 1, 0)
    assert (beta["invalid_caused"], beta["invalid_witnessed"]) == (2, 1)
    assert (beta["errors_format"], beta["errors_rule"], beta["errors_other"]) == (1, 1, 0)
    assert (beta["errors_fatal"], beta["errors_nonfatal"]) == (1, 1)
    assert (beta["self_forfeit"], beta["opponent_forfeit"]) == (1, 0)
    assert beta["teammate_invalid"] == beta["teammate_forfeit"] == 0  # no teams in Blotto
    assert (beta["invalid_units"], beta["invalid_format"]) == (1, 1)  # the env's own words
    assert m["game"]["forfeit_depth"] == 1 / 9 and m["game"]["end"] == "forfeit"


def test_a_resignation_is_a_forfeit_but_no_error():
    m = metrics(resigned())
    assert m["game"]["forfeit"] == 1 and m["game"]["forfeit_depth"] is None
    assert all(seat["clean"] == 1 and seat["errors_fatal"] == 0 for seat in m["seats"].values())


def test_the_aggregate_error_statistics():
    aborted = new()
    aborted.abort("server stopped")
    games = [erring_game(), clean_sweep(), resigned(), aborted]
    agg = ENV.aggregate_metrics(ENV.game_metrics(g.record()) for g in games)
    json.dumps(agg)
    overall, alpha, beta = agg["overall"], agg["seats"]["0"], agg["seats"]["1"]
    assert (overall["games"], overall["counted"]) == (4, 3)
    # One game of three erred, and its fatal error came after 1/9 of the rounds: the warning.
    assert overall["error_rate"] == 1 / 3 and overall["fatal_error_rate"] == 1 / 3
    assert overall["forfeit_rate"] == 2 / 3  # the resignation too
    assert (overall["invalid_moves"], overall["errors_fatal"], overall["errors_nonfatal"]) == \
        (3, 1, 2)
    assert (overall["errors_format"], overall["errors_rule"]) == (2, 1)
    assert overall["median_forfeit_depth"] == 1 / 9
    assert overall["error_survival_warning"] is True
    assert (alpha["games_clean"], alpha["games_caused"], alpha["games_witnessed"]) == (2, 1, 1)
    assert (alpha["games_self_forfeit"], alpha["games_opponent_forfeit"]) == (0, 1)
    assert (beta["games_caused"], beta["games_self_forfeit"], beta["invalid_caused"]) == (1, 1, 2)
    # Alpha won all 3 counted games, Beta none: Wilson (0.4385, 1) and (0, 0.5615).
    assert (alpha["win_rate"], beta["win_rate"]) == (1.0, 0.0)
    assert (alpha["win_rate_low"], alpha["win_rate_high"]) == pytest.approx((0.4385, 1), abs=1e-4)
    assert (beta["win_rate_low"], beta["win_rate_high"]) == pytest.approx((0, 0.5615), abs=1e-4)
    labels = ENV.metric_labels
    assert all(key in labels for key in (*overall, *alpha))
