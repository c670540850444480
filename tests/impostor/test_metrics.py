"""The Impostor game's metrics from records, against values worked out by hand: detection,
self-declaration and guess, ties with the symmetric tie-breakers, the vote network (influence,
centrality), coalitions, speaking positions, and the aggregate rates."""

from __future__ import annotations

import pytest

from engine.impostor.metrics import aggregate_metrics, game_metrics, vote_network
from tests.impostor.helpers import ENV, ballot, describe_all, new_game, vote


def played(ballots, impostor=2, seed=1):
    game = new_game(impostor=impostor, seed=seed)
    describe_all(game)
    vote(game, ballots)
    return game, game_metrics(game.record())


def test_vote_network_by_hand():
    # seats 0, 1 and 3 name seat 2; seat 2 names seat 0
    net = vote_network({0: 2, 1: 2, 2: 0, 3: 2})
    assert net[0] == {"influence": 2 / 3, "centrality": 4 / 3}
    assert net[2] == {"influence": 0.0, "centrality": 0.0}
    assert vote_network({1: 3}) == {1: {"influence": 0.0, "centrality": 0.0}}


def test_a_conviction_game():
    game, m = played({0: ballot(2, confidence=0.9), 1: ballot(2), 2: ballot(0),
                      3: ballot(1)})
    g = m["game"]
    assert g["win_condition"] == "conviction" and g["impostor_won"] == 0
    assert g["ended_conviction"] == 1 and g["ended_tie"] == 0
    assert g["detection"] == pytest.approx(2 / 3)  # two of the three majority ballots
    assert g["impostor_self_declared"] == 0 and g["guess_success"] is None
    assert g["tie"] == 0 and g["majority_won_sym_side"] == 1
    assert g["impostor_seat"] == 2 and g["impostor_position"] == game.order.index(2)
    s0, s2 = m["seats"]["0"], m["seats"]["2"]
    assert s0["target"] == 3 and s0["voted_impostor"] == 1 and s0["confidence"] == 0.9
    assert s0["influence"] == pytest.approx(1 / 3) and s0["in_coalition"] == 1
    assert s0["coalition_converted"] == 1 and s0["win"] == 1
    assert s2["impostor"] == 1 and s2["in_coalition"] == 0 and s2["coalition_converted"] is None
    assert [m["seats"][str(s)]["position"] for s in game.order] == [0, 1, 2, 3]


def test_a_tie_game_and_its_tie_breakers():
    # seat 2 (impostor) and seat 3 get two votes each: a tie the impostor wins by default
    _, m = played({0: ballot(2), 1: ballot(3), 2: ballot(3), 3: ballot(1)})
    g = m["game"]
    assert (g["win_condition"], g["impostor_won"]) == ("evaded", 1)
    _, m = played({0: ballot(1), 1: ballot(0), 2: ballot(1), 3: ballot(0)})
    g = m["game"]
    assert (g["win_condition"], g["tie"], g["tie_size"], g["impostor_tied"]) == ("tie", 1, 2, 0)
    assert g["majority_won_sym_candidate"] == 0.0 and g["majority_won_sym_side"] == 0.5
    _, m = played({0: ballot(2), 1: ballot(0), 2: ballot(1), 3: ballot(3)})
    g = m["game"]
    assert g["tie_size"] == 4 and g["impostor_tied"] == 1
    assert g["majority_won_sym_candidate"] == 0.25


def test_a_self_declaration_game():
    _, m = played({0: ballot(1), 1: ballot(0), 2: ballot(2, declare=True, guess="dog"),
                   3: ballot(0)})
    g = m["game"]
    assert g["win_condition"] == "correct_guess" and g["impostor_self_declared"] == 1
    assert g["guess_success"] == 1 and m["seats"]["2"]["guess_correct"] == 1
    assert m["seats"]["2"]["self_declared"] == 1 and m["seats"]["0"]["guess_correct"] is None


def test_invalid_ballots_count_for_nobody_and_are_counted():
    game = new_game(impostor=2)
    describe_all(game)
    vote(game, {0: "no json", 1: ballot(2), 2: ballot(0)})
    game.act(0, "still none")
    game.act(3, ballot(0))
    m = game_metrics(game.record())
    assert m["game"]["invalid_ballots"] == 1 and m["seats"]["0"]["valid_ballot"] == 0
    assert m["game"]["detection"] == pytest.approx(1 / 3)


def test_aggregate_rates_by_hand():
    per_game = [played({0: ballot(2), 1: ballot(2), 2: ballot(0), 3: ballot(1)})[1],
                played({0: ballot(1), 1: ballot(0), 2: ballot(1), 3: ballot(0)})[1],
                played({0: ballot(1), 1: ballot(0), 2: ballot(2, declare=True, guess="dog"),
                        3: ballot(0)})[1],
                played({0: ballot(1), 1: ballot(0), 2: ballot(2, declare=True, guess="cat"),
                        3: ballot(0)})[1]]
    o = ENV.aggregate_metrics(per_game)["overall"]
    assert o["counted"] == 4 and o["impostor_win_rate"] == 0.5 and o["balance"] == 1.0
    assert o["self_declaration_rate"] == 0.5 and o["guess_success_rate"] == 0.5
    assert o["tie_rate"] == 0.25 and o["share_conviction"] == 0.25
    assert o["impostor_win_rate_sym_side"] == pytest.approx(0.375)
    assert o["impostor_win_rate_sym_candidate"] == 0.5  # the impostor was not among the tied
    assert o["detection_accuracy"] == pytest.approx((2 / 3) / 4)
    assert 0 < o["impostor_win_rate_low"] < 0.5 < o["impostor_win_rate_high"] < 1
    assert aggregate_metrics([])["overall"]["impostor_win_rate"] is None
