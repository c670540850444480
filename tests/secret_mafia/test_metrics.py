"""Secret Mafia metrics from a game played move by move (every number worked out by hand), an
elimination for invalid moves, and the aggregate per role and overall."""

import pytest

from engine.conformance import check_metric_labels, play_random
from tests.secret_mafia.helpers import DEALT, ENV, actor, discuss, new, night, vote


def scripted_village_win():
    """Seed 0 (Doctor 0, Mafia 1 and 2, Detective 3, Villagers 4 and 5): the Doctor saves 4 on
    night 1 and the Detective finds 1; day 1 votes 1 out (4 to 2); night 2 kills the
    Detective; day 2 votes 2 out."""
    game = new(DEALT)
    night(game, victim=4, protect=4, investigate=1)
    discuss(game, lambda seat: "" if seat == 4 else f"hello from {seat}")
    vote(game, lambda seat: 5 if seat in (1, 2) else 1)
    night(game, victim=3, protect=5, investigate=2)
    discuss(game)
    vote(game, lambda seat: 0 if seat == 2 else 2)
    assert game.over
    return game


def test_per_seat_and_game_metrics_of_a_village_win():
    metrics = ENV.game_metrics(scripted_village_win().record())
    game, seats = metrics["game"], metrics["seats"]
    assert game == {"days": 2, "kills": 1, "doctor_saves": 1, "vote_eliminations": 2,
                    "mafia_voted_out": 2, "invalid_eliminations": 0, "mafia_won": 0,
                    "village_won": 1, "void": 0, "forfeit_depth": None}
    doctor, m1, m2, detective, v4 = (seats[str(s)] for s in range(5))
    assert (doctor["role"], doctor["win"], doctor["reward"]) == ("Doctor", 1, 1.0)
    assert (doctor["protections"], doctor["saves"], doctor["survived"]) == (2, 1, 1)
    assert (doctor["votes_cast"], doctor["votes_against_mafia"], doctor["days_survived"]) == \
        (2, 2, 2)
    assert (m1["mafia"], m1["loss"], m1["voted_out"], m1["days_survived"]) == (1, 1, 1, 1)
    assert (m1["night_votes"], m1["votes_cast"], m1["votes_against_mafia"]) == (1, 1, 0)
    assert (m2["night_votes"], m2["voted_out"], m2["days_survived"]) == (2, 1, 2)
    assert (detective["investigations"], detective["mafia_found"]) == (2, 2)
    assert (detective["killed_at_night"], detective["survived"], detective["win"]) == (1, 0, 1)
    assert v4["speeches"] == 3 and seats["5"]["speeches"] == 6  # 4 kept quiet on day 1
    assert seats["5"]["chat_chars"] == 6 * len("hello from 5")
    assert all(s["clean"] == 1 and s["eliminated_by_invalid"] == 0 for s in seats.values())
    check_metric_labels(ENV, metrics)


def test_an_elimination_for_invalid_moves_is_counted():
    game = new(DEALT)
    night(game, victim=4, protect=4)
    discuss(game)
    seat = actor(game)
    game.act(seat, "?")
    game.act(seat, "??")
    metrics = ENV.game_metrics(game.record())
    mine = metrics["seats"][str(seat)]
    assert (mine["eliminated_by_invalid"], mine["invalid_caused"], mine["self_forfeit"]) == \
        (1, 2, 1)
    assert mine["survived"] == 0 and metrics["game"]["invalid_eliminations"] == 1
    other = metrics["seats"][str((seat + 1) % 6)]
    assert other["invalid_witnessed"] == 2 and other["opponent_forfeit"] == 1


def test_the_aggregate_folds_per_role_and_overall_and_skips_void_games():
    games = [scripted_village_win()] + [play_random(ENV, "paper", 6, s, checks=False)
                                        for s in range(5)]
    void = new(1)
    void.abort("server stopped")
    per_game = [ENV.game_metrics(g.record()) for g in [*games, void]]
    folded = ENV.aggregate_metrics(iter(per_game))
    overall = folded["overall"]
    assert (overall["games"], overall["counted"], overall["void"]) == (7, 6, 1)
    mafia_wins = sum(m["game"]["mafia_won"] for m in per_game[:6])
    assert overall["mafia_win_rate"] == mafia_wins / 6
    roles = folded["roles"]
    assert roles["Mafia"]["games"] == 12 and roles["Villager"]["games"] == 12
    assert roles["Doctor"]["games"] == roles["Detective"]["games"] == 6
    assert roles["Mafia"]["win_rate"] == mafia_wins / 6
    assert roles["Doctor"]["saves"] >= 1
    assert set(folded["seats"]) == {str(s) for s in range(6)}
    assert sum(folded["seats"][str(s)]["win"] for s in range(6)) == \
        sum(len(g.result.winners) for g in games)


# ------------------------------------------------------------------------------ errors (§10)
def erring_village_win():
    """Seed 0 again. Night 1: Mafia 2's first vote is unreadable (format, retried), then it
    votes 4 (saved). Day 1: Mafia 2 votes for a player who does not exist (rule, retried), then
    answers unreadably (format): out for two invalid moves in a row, in the second phase. The
    others vote Mafia 1 out: the village wins."""
    game = new(DEALT)
    while game.task == "kill":
        seat = actor(game)
        if seat == 2:
            game.act(2, "?")
        game.act(seat, "[4]")
    night(game, victim=4, protect=4, investigate=1)
    discuss(game)
    while game.phase == "vote":
        seat = actor(game)
        if seat == 2:
            game.act(2, "[9]")
            game.act(2, "??")
        else:
            game.act(seat, "[0]" if seat == 1 else "[1]")
    assert game.over and game.result.winners == (0, 3, 4, 5)
    return game


def corrected_mafia_win():
    """Seed 0, paper-corrected: the Doctor's unreadable protection is silently corrected (no
    retry: a non-fatal error); the Mafia kill 4, day 1 votes 5 out, and the Mafia have parity."""
    game = new(DEALT, "paper-corrected")
    while game.phase == "night":
        seat = actor(game)
        game.act(seat, {"kill": "[4]", "protect": "?"}.get(game.task, "[1]"))
    discuss(game)
    vote(game, lambda seat: 0 if seat == 5 else 5)
    assert game.over and game.result.winners == (1, 2)
    return game


def test_a_retried_error_then_a_fatal_one_and_the_depth_in_phases():
    metrics = ENV.game_metrics(erring_village_win().record())
    check_metric_labels(ENV, metrics)
    seats = metrics["seats"]
    m2, m1, doctor = seats["2"], seats["1"], seats["0"]
    assert (m2["invalid_caused"], m2["errors_format"], m2["errors_rule"]) == (3, 2, 1)
    assert (m2["errors_fatal"], m2["errors_nonfatal"], m2["self_forfeit"]) == (1, 2, 1)
    assert (m2["eliminated_by_invalid"], m2["clean"]) == (1, 0)
    # The other Mafia member's teammate erred; the village saw an opponent go out.
    assert (m1["invalid_witnessed"], m1["teammate_invalid"], m1["teammate_forfeit"]) == (3, 3, 1)
    assert (doctor["opponent_forfeit"], doctor["teammate_invalid"]) == (1, 0)
    # Out on day 1: one phase (night 1) was over, of the 4 expected.
    assert metrics["game"]["forfeit_depth"] == 1 / 4


def test_a_corrected_night_action_is_a_non_fatal_error():
    metrics = ENV.game_metrics(corrected_mafia_win().record())
    doctor = metrics["seats"]["0"]
    assert (doctor["invalid_caused"], doctor["errors_format"], doctor["errors_nonfatal"]) == \
        (1, 1, 1)
    assert doctor["errors_fatal"] == doctor["self_forfeit"] == 0 and doctor["survived"] == 1
    assert metrics["game"]["forfeit_depth"] is None


def test_the_aggregate_error_statistics_and_role_advantage():
    void = new(1)
    void.abort("server stopped")
    games = [scripted_village_win(), erring_village_win(), corrected_mafia_win(), void]
    folded = ENV.aggregate_metrics(ENV.game_metrics(g.record()) for g in games)
    overall, seats, roles = folded["overall"], folded["seats"], folded["roles"]
    assert overall["counted"] == 3
    assert (overall["error_rate"], overall["fatal_error_rate"]) == (2 / 3, 1 / 3)
    assert (overall["invalid_moves"], overall["errors_fatal"], overall["errors_nonfatal"]) == \
        (4, 1, 3)
    assert (overall["errors_format"], overall["errors_rule"]) == (3, 1)
    assert overall["median_forfeit_depth"] == 1 / 4
    assert overall["error_survival_warning"] is True  # 2/3 > 0.30 and 1/4 < 1/2
    m2, m1, doctor = seats["2"], seats["1"], seats["0"]
    assert (m2["games_clean"], m2["games_caused"], m2["games_witnessed"]) == (1, 1, 1)
    assert (m2["games_self_forfeit"], m2["games_opponent_forfeit"]) == (1, 0)
    assert (m1["games_witnessed"], m1["games_teammate_invalid"], m1["games_teammate_forfeit"]) \
        == (2, 1, 1)
    assert (doctor["games_caused"], doctor["games_opponent_forfeit"]) == (1, 1)
    # The Doctor won 2 of 3: Wilson (0.2077, 0.9385).
    assert doctor["win_rate"] == 2 / 3
    assert (doctor["win_rate_low"], doctor["win_rate_high"]) == \
        pytest.approx((0.2077, 0.9385), abs=1e-4)
    # Per role: the Mafia won 2 of 6 seat-games, every village role 2/3; mean over the four
    # roles (1/3 + 3 x 2/3) / 4 = 7/12.
    assert roles["Mafia"]["games"] == 6 and roles["Villager"]["games"] == 6
    assert roles["Mafia"]["win_rate"] == 1 / 3
    assert roles["Mafia"]["role_advantage"] == pytest.approx(1 / 3 - 7 / 12)
    assert roles["Doctor"]["role_advantage"] == pytest.approx(2 / 3 - 7 / 12)
    assert (roles["Mafia"]["win_rate_low"], roles["Mafia"]["win_rate_high"]) == \
        pytest.approx((0.0968, 0.7000), abs=1e-4)
    assert roles["Mafia"]["games_caused"] == 1
    for key in (*overall, *m2, *roles["Mafia"]):
        assert key in ENV.metric_labels, key
