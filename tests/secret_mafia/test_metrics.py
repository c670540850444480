"""Secret Mafia metrics from a game played move by move (every number worked out by hand), an
elimination for invalid moves, and the aggregate per role and overall."""

from engine.conformance import check_metric_labels, play_random
from tests.secret_mafia.helpers import ENV, actor, discuss, new, night, vote


def scripted_village_win():
    """Seed 0 (Doctor 0, Mafia 1 and 2, Detective 3, Villagers 4 and 5): the Doctor saves 4 on
    night 1 and the Detective finds 1; day 1 votes 1 out (4 to 2); night 2 kills the
    Detective; day 2 votes 2 out."""
    game = new(0)
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
                    "village_won": 1, "void": 0}
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
    game = new(0)
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
