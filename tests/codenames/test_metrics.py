"""Codenames metrics: per seat and per game from the record, every key labelled, and the
aggregate folded across games (void games left out)."""

import json

from engine.conformance import check_metric_labels
from tests.codenames.helpers import AGENTS, ENV, clue, guess, hidden, new, play


def metrics(game):
    m = ENV.game_metrics(game.record())
    json.dumps(m)
    check_metric_labels(ENV, m)
    return m


def test_a_played_turn_is_counted_by_role():
    game = new(1)
    clue(game, 2)
    guess(game, hidden(game, "red")[0])
    guess(game, hidden(game, "neutral")[0])  # wrong: the turn ends
    game.act(2, "[nonsense")  # an unreadable clue: blue's turn is skipped
    clue(game, 1)
    guess(game, hidden(game, "assassin")[0])
    m = metrics(game)
    red_spy, red_op, blue_spy = m["seats"]["0"], m["seats"]["1"], m["seats"]["2"]
    assert red_spy["clues"] == 2 and red_spy["clue_number_total"] == 3
    assert red_spy["mean_clue_number"] == 1.5
    assert red_op["guesses"] == 3 and red_op["correct_guesses"] == 1
    assert red_op["neutral_guesses"] == 1 and red_op["assassin_hit"] == 1
    assert red_op["wrong_guesses"] == 2 and red_op["team_revealed"] == 1
    assert red_op["loss"] == 1 and m["seats"]["3"]["win"] == 1
    assert blue_spy["skipped_turns"] == 1 and blue_spy["invalid_caused"] == 1
    assert blue_spy["self_forfeit"] == 0 and red_spy["invalid_witnessed"] == 1
    assert "guesses" not in red_spy and "clues" not in red_op  # keys by role
    g = m["game"]
    assert g["end"] == "assassin" and g["winner"] == "blue" and g["blue_win"] == 1
    assert g["moves"] == 6 and g["turns"] == 3 and g["red_revealed"] == 1
    assert g["neutral_revealed"] == 1 and g["had_error"] == 1 and g["forfeit_depth"] is None


def test_an_illegal_clue_is_a_fatal_error_with_its_depth():
    game = new(2)
    clue(game, 1)
    game.act(1, "[pass]")
    game.act(2, f"[{game.words[0]} 2]")
    m = metrics(game)
    assert m["game"]["end"] == "illegal_clue" and m["game"]["illegal_clue"] == 1
    assert m["game"]["forfeit_depth"] == 3 / 80
    assert m["seats"]["2"]["illegal_clues"] == 1 and m["seats"]["2"]["self_forfeit"] == 1
    assert m["seats"]["0"]["opponent_forfeit"] == 1 and m["seats"]["0"]["win"] == 1


def test_a_draw_at_the_cap():
    game = new(3, max_moves=4)
    while not game.over:
        game.act(min(game.pending()), "[pass]")
    m = metrics(game)
    assert m["game"]["end"] == "move_cap" and m["game"]["draw"] == 1
    assert m["seats"]["0"]["no_clue_passes"] == 2 and all(
        m["seats"][s]["draw"] == 1 for s in "0123")


def test_the_aggregate_folds_games_and_leaves_out_void_ones():
    games = [play(s, AGENTS) for s in range(6)]
    void = new(9)
    void.abort("server stopped")
    per_game = [ENV.game_metrics(g.record()) for g in [*games, void]]
    agg = ENV.aggregate_metrics(iter(per_game))
    json.dumps(agg)
    overall = agg["overall"]
    assert overall["games"] == 7 and overall["counted"] == 6 and overall["void"] == 1
    red = sum(g.result.winners == (0, 1) for g in games)
    assert overall["red_win_rate"] == red / 6
    assert agg["seats"]["0"]["win"] == red and agg["seats"]["1"]["win_rate"] == red / 6
    assert agg["seats"]["0"]["clues"] == sum(
        ENV.game_metrics(g.record())["seats"]["0"]["clues"] for g in games)
    assert ENV.game_metrics(void.record())["game"]["end"] == "aborted"
    for key in (*overall, *agg["seats"]["0"], *agg["seats"]["1"]):
        assert key in ENV.metric_labels, key
