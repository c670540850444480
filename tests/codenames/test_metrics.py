"""Codenames metrics: per seat and per game from the record, every key labelled, and the
aggregate folded across games (void games left out)."""

import json

import pytest

from tests.codenames.helpers import AGENTS, CLUE, ENV, clue, guess, hidden, new, play
from tests.envs.metric_checks import checked_metrics


def metrics(game):
    return checked_metrics(ENV, game.record())


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
    assert m["game"]["forfeit_depth"] == 2 / 34  # two moves before it; 2 x (9 + 8) expected
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


# ------------------------------------------------------------------------------ errors (§10)
def erring_game():
    """Red's clue number is out of range (rule, skips the turn); blue's clue is unreadable
    (format, skipped); red's operative guesses two words (format, skipped); blue finds a word
    and passes; then red's spymaster names a board word: an illegal clue, fatal after 7 moves."""
    game = new(4)
    game.act(0, f"[{CLUE} 12]")
    game.act(2, "[nonsense")
    clue(game, 1)
    game.act(1, "[two words]")
    clue(game, 1)
    guess(game, hidden(game, "blue")[0])
    game.act(3, "[pass]")
    game.act(0, f"[{hidden(game, 'red')[0]} 1]")
    assert game.over and game.result.winners == (2, 3)
    return game


def test_errors_by_class_severity_and_team():
    m = metrics(erring_game())
    red_spy, red_op, blue_spy, blue_op = (m["seats"][s] for s in "0123")
    assert (red_spy["invalid_caused"], red_spy["errors_rule"], red_spy["errors_format"]) == \
        (2, 2, 0)
    assert (red_spy["errors_fatal"], red_spy["errors_nonfatal"], red_spy["self_forfeit"]) == \
        (1, 1, 1)
    assert (red_spy["invalid_witnessed"], red_spy["teammate_invalid"]) == (2, 1)
    # Every other seat's errors are witnessed; the teammate's are also counted apart.
    assert (red_op["invalid_caused"], red_op["errors_format"], red_op["errors_nonfatal"]) == \
        (1, 1, 1)
    assert (red_op["invalid_witnessed"], red_op["teammate_invalid"]) == (3, 2)
    assert (red_op["opponent_forfeit"], red_op["teammate_forfeit"]) == (1, 1)
    assert (blue_spy["invalid_caused"], blue_spy["errors_format"], blue_spy["teammate_invalid"]) \
        == (1, 1, 0)
    assert (blue_op["invalid_witnessed"], blue_op["opponent_forfeit"],
            blue_op["teammate_forfeit"]) == (4, 1, 0)
    assert [m["seats"][s]["skipped_turns"] for s in "0123"] == [1, 1, 1, 0]
    # Seven moves before the illegal clue, of 2 x (9 + 8) = 34 expected.
    assert m["game"]["forfeit_depth"] == 7 / 34 and m["game"]["invalid_moves"] == 4


def test_the_aggregate_error_statistics_and_win_rates_by_role():
    red_sweep = new(5)
    clue(red_sweep, 9)
    for word in hidden(red_sweep, "red"):
        guess(red_sweep, word)
    assassin = new(6)
    clue(assassin, 1)
    guess(assassin, hidden(assassin, "assassin")[0])
    assert red_sweep.result.winners == (0, 1) and assassin.result.winners == (2, 3)
    void = new(7)
    void.abort("server stopped")
    agg = ENV.aggregate_metrics(
        ENV.game_metrics(g.record()) for g in (erring_game(), red_sweep, assassin, void))
    json.dumps(agg)
    overall, seats, roles = agg["overall"], agg["seats"], agg["roles"]
    assert (overall["counted"], overall["error_rate"], overall["fatal_error_rate"]) == \
        (3, 1 / 3, 1 / 3)
    assert (overall["invalid_moves"], overall["errors_fatal"], overall["errors_nonfatal"]) == \
        (4, 1, 3)
    assert (overall["errors_format"], overall["errors_rule"]) == (2, 2)
    assert overall["median_forfeit_depth"] == 7 / 34
    assert overall["error_survival_warning"] is True  # 1/3 > 0.30 and 7/34 < 1/2
    red_spy, red_op = seats["0"], seats["1"]
    assert (red_spy["games_clean"], red_spy["games_caused"], red_spy["games_witnessed"]) == \
        (2, 1, 1)
    assert (red_spy["games_self_forfeit"], red_spy["games_opponent_forfeit"]) == (1, 0)
    assert (red_op["games_self_forfeit"], red_op["games_opponent_forfeit"],
            red_op["games_teammate_forfeit"]) == (0, 1, 1)
    # Red won 1 of 3, blue 2 of 3: rates 1/3 and 2/3 around a mean of 1/2.
    assert red_spy["win_rate"] == 1 / 3
    assert (red_spy["win_rate_low"], red_spy["win_rate_high"]) == \
        pytest.approx((0.0615, 0.7923), abs=1e-4)
    assert set(roles) == {"Red Spymaster", "Red Operative", "Blue Spymaster", "Blue Operative"}
    assert roles["Red Operative"]["games"] == 3
    assert roles["Red Operative"]["role_advantage"] == pytest.approx(-1 / 6)
    assert roles["Blue Spymaster"]["role_advantage"] == pytest.approx(1 / 6)
    assert (roles["Blue Spymaster"]["win_rate_low"], roles["Blue Spymaster"]["win_rate_high"]) \
        == pytest.approx((0.2077, 0.9385), abs=1e-4)
    for key in (*overall, *red_spy, *roles["Red Spymaster"]):
        assert key in ENV.metric_labels, key
