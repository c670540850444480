"""Rating schemes by side: TrueSkill (MindGames §7), Elo (SocialGrid §15), none."""

import pytest

from engine.core import GameRecord, Result
from server.store import ratings
from server.store.store import Store

CREW = ("crew",) * 5 + ("impostor",) * 2


def social(crew_won: bool) -> Result:
    """5 crewmates vs 2 impostors; the side that wins gets 1, the other 0."""
    rewards = {s: float((s < 5) == crew_won) for s in range(7)}
    return Result(rewards, tuple(s for s in range(7) if rewards[s]), "end", sides=CREW)


def test_a_one_seat_game_is_not_rated_and_does_not_raise():
    solo = Result({0: 1.0}, (0,), "solved")
    for scheme in ratings.SCHEMES:
        assert ratings.rate(scheme, solo, ["m"], {}) == {}
    assert ratings.unrated_reason("trueskill", solo, ["m"]) == "it has fewer than two sides"
    assert ratings.unrated_reason("trueskill-seats", solo, ["m"]) == "it has one seat"


@pytest.mark.parametrize("scheme", ["trueskill", "elo"])
def test_one_identity_holding_a_whole_side_is_rated_as_that_identity(scheme):
    identities = ["m1"] * 5 + ["m2"] * 2
    changes = ratings.rate(scheme, social(crew_won=False), identities, {})
    assert set(changes) == {"m1", "m2"}
    (b1, a1), (b2, a2) = changes["m1"], changes["m2"]
    assert b1 is None and b2 is None
    assert a2[0] > a1[0]
    seats = ratings.per_seat(changes, identities)
    assert seats == {s: changes[identities[s]] for s in range(7)}


def test_two_identities_on_one_side_are_a_team():
    # Codenames-like: a and b are red, c plays both blue seats; red wins.
    result = Result({0: 1.0, 1: 1.0, 2: 0.0, 3: 0.0}, (0, 1), "found", sides=("red",) * 2
                    + ("blue",) * 2)
    changes = ratings.rate("trueskill", result, ["a", "b", "c", "c"], {})
    assert set(changes) == {"a", "b", "c"}
    assert changes["a"][1][0] > ratings.MU and changes["b"][1][0] > ratings.MU
    assert changes["a"][1][0] == pytest.approx(changes["b"][1][0])
    assert changes["c"][1][0] < ratings.MU
    # Elo cannot rate it: the game is rated by TrueSkill over sides, in a league of its own.
    plan = ratings.plan("elo", result, ["a", "b", "c", "c"])
    assert plan.league == "trueskill" and plan.fallback and not plan.held
    assert "the Elo league takes one identity per side" in plan.note
    assert ratings.rate("elo", result, ["a", "b", "c", "c"], {}) == changes


def test_an_identity_on_two_sides_is_held_and_the_others_move():
    identities = ["m1"] * 6 + ["m2"]  # m1 is a crewmate and an impostor, m2 an impostor
    for scheme in ("trueskill", "elo"):
        plan = ratings.plan(scheme, social(crew_won=False), identities)
        assert plan.league == "trueskill" and plan.held == ("m1",) and plan.unrated is None
        assert "m1 sat on more than one side and keeps its rating" in plan.note
        prior = {"m1": (30.0, 1.0), "m2": (20.0, 3.0)}
        changes = ratings.rate(scheme, social(crew_won=False), identities, prior)
        assert set(changes) == {"m2"} and changes["m2"][0] == (20.0, 3.0)
        assert changes["m2"][1][0] > 20.0 and changes["m2"][1][1] < 3.0


def test_a_person_among_bots_moves_evenly_and_the_bot_keeps_its_rating():
    """A person crewmate with one bot in every other seat (SocialGrid's lobby default): each
    side is the mean of its identities, so with equal ratings a win and a loss move the person
    by the same amount (the sum would favour the side with the bot on it)."""
    identities = ["human:ada"] + ["scripted:agent"] * 6
    won = ratings.rate("trueskill", social(crew_won=True), identities, {})
    lost = ratings.rate("trueskill", social(crew_won=False), identities, {})
    assert set(won) == set(lost) == {"human:ada"}
    up, down = won["human:ada"][1][0] - ratings.MU, lost["human:ada"][1][0] - ratings.MU
    assert up > 0 and up == pytest.approx(-down)
    # As an impostor with the bot beside and against them, the same.
    impostor = ["scripted:agent"] * 6 + ["human:ada"]
    assert ratings.rate("elo", social(crew_won=False), impostor, {})["human:ada"][1][0] == \
        pytest.approx(won["human:ada"][1][0])


def test_every_identity_on_two_sides_is_self_play_and_not_rated():
    for identities in (["m"] * 7, ["m1", "m2"] * 3 + ["m1"]):
        plan = ratings.plan("trueskill", social(True), identities)
        assert plan.league is None and "self-play" in plan.unrated
        assert ratings.rate("elo", social(True), identities, {}) == {}


def test_seats_scheme_ranks_every_seat_on_its_own():
    """Find the Spy: a person and three copies of one bot; the seats that named the spy (+1)
    tie above those that did not (-1). The bot sits in three places, so it is held."""
    result = Result({0: 1.0, 1: -1.0, 2: 1.0, 3: -1.0}, (0, 2), "named",
                    sides=("civilians", "spy", "civilians", "civilians"))
    identities = ["human:ada"] + ["scripted:describer"] * 3
    plan = ratings.plan("trueskill-seats", result, identities)
    assert plan.league == "trueskill" and plan.held == ("scripted:describer",)
    changes = ratings.rate("trueskill-seats", result, identities, {})
    assert set(changes) == {"human:ada"} and changes["human:ada"][1][0] > ratings.MU
    wrong = Result({0: -1.0, 1: 1.0, 2: 1.0, 3: 1.0}, (1, 2, 3), "named")
    assert ratings.rate("trueskill-seats", wrong, identities, {})["human:ada"][1][0] < \
        ratings.MU


def test_void_none_and_unknown_schemes_are_not_rated():
    void = Result({0: 0.0, 1: 0.0}, (), "aborted", void=True)
    assert ratings.rate("trueskill", void, ["a", "b"], {}) == {}
    assert ratings.unrated_reason("elo", void, ["a", "b"]) == "the game is void"
    won = Result({0: 1.0, 1: 0.0}, (0,), "won")
    assert ratings.rate("none", won, ["a", "b"], {}) == {}
    assert ratings.unrated_reason("none", won, ["a", "b"]) == \
        "it is scored by accuracy (a task, not a contest)"
    assert ratings.rate("glicko", won, ["a", "b"], {}) == {}
    assert ratings.unrated_reason("trueskill", won, ["a", "b"]) is None


def test_elo_single_update_by_hand():
    assert ratings.elo_update(1500, 1500, 1.0) == (1532.0, 1468.0)
    assert ratings.elo_update(1500, 1500, 0.5) == (1500.0, 1500.0)
    # E_A = 1/(1 + 10^(-200/400)) = 0.759747; A loses: 1600 - 64 * 0.759747 = 1551.376
    a, b = ratings.elo_update(1600, 1400, 0.0)
    assert a == pytest.approx(1551.376, abs=1e-3) and b == pytest.approx(1448.624, abs=1e-3)


def test_elo_rate_uses_sides_in_order_and_stores_sigma_zero():
    changes = ratings.rate("elo", social(crew_won=True), ["c"] * 5 + ["i"] * 2, {})
    assert changes == {"c": (None, (1532.0, 0.0)), "i": (None, (1468.0, 0.0))}
    prior = {"c": (1600.0, 0.0), "i": (1400.0, 0.0)}
    changes = ratings.rate("elo", social(crew_won=False), ["c"] * 5 + ["i"] * 2, prior)
    assert changes["c"][0] == (1600.0, 0.0)
    assert changes["c"][1][0] == pytest.approx(1551.376, abs=1e-3)
    assert changes["i"][1] == (pytest.approx(1448.624, abs=1e-3), 0.0)
    draw = Result({0: 0.0, 1: 0.0}, (), "draw", sides=("crew", "impostor"))
    assert ratings.rate("elo", draw, ["c", "i"], {}) == {"c": (None, (1500.0, 0.0)),
                                                         "i": (None, (1500.0, 0.0))}
    three = Result({0: 1.0, 1: 0.0, 2: 0.0}, (0,), "r")
    assert ratings.plan("elo", three, ["a", "b", "c"]).league == "trueskill"  # not Elo's


def test_elo_league_replays_the_list_several_times():
    # Pass 1: a beats b -> 1532 / 1468; b beats a: E_b = 1/(1 + 10^(64/400)) = 0.408925,
    # b = 1468 + 64 * 0.591075 = 1505.829, a = 1532 - 37.829 = 1494.171.
    matches = [("a", "b", 1.0), ("b", "a", 1.0)]
    one = ratings.elo_league(matches, iterations=1)
    assert one["a"] == pytest.approx(1494.171, abs=1e-3)
    assert one["b"] == pytest.approx(1505.829, abs=1e-3)
    # Two passes of a single win: 1532 / 1468, then E_a = 0.591075 -> a += 26.171.
    two = ratings.elo_league([("a", "b", 1.0)], iterations=2)
    assert two["a"] == pytest.approx(1558.171, abs=1e-3)
    assert two["b"] == pytest.approx(1441.829, abs=1e-3)
    # Self-play leaves ratings alone, everyone starts at base, the league is zero-sum.
    ten = ratings.elo_league([("a", "b", 1.0), ("c", "c", 1.0), ("b", "c", 0.5)])
    assert ten["a"] > ten["b"] and sum(ten.values()) == pytest.approx(3 * 1500)
    assert ratings.elo_league([("a", "a", 1.0)]) == {"a": 1500.0}


def test_ipd_three_singletons_are_ranked_by_reward_and_draws_tie():
    ipd = Result({0: 12.0, 1: 30.0, 2: 20.0}, (1,), "rounds")
    changes = ratings.rate("trueskill", ipd, ["a", "b", "c"], {})
    assert changes["b"][1][0] > changes["c"][1][0] > changes["a"][1][0]
    draw = Result({0: 5.0, 1: 5.0}, (), "draw")
    tied = ratings.rate("trueskill", draw, ["a", "b"], {})
    assert tied["a"][1][0] == pytest.approx(ratings.MU) == pytest.approx(tied["b"][1][0])
    assert tied["a"][1][1] < ratings.SIGMA


async def test_store_rates_by_identity_and_orders_the_leaderboard(tmp_path):
    store = await Store.open(tmp_path / "x.db")

    async def play(env: str, scheme: str, result: Result, identities: list[str]):
        seats = [{"identity": i, "name": i, "kind": "bot", "settings": {}} for i in identities]
        game_id = await store.create_game(table_id="t", env=env, rules_version="1", preset=None,
                                          config={}, seed=0, seats=seats)
        record = GameRecord(env, "1", {}, 0, len(identities), [], [], result)
        statuses = {s: "done" for s in range(len(identities))}
        changes = await store.finish_game(
            game_id, record=record, statuses=statuses, metrics={}, identities=identities,
            rate=lambda current: ratings.rate(scheme, result, identities, current),
            scheme=ratings.plan(scheme, result, identities).league or "trueskill")
        return game_id, changes

    try:
        crew_imp = ["m1"] * 5 + ["m2"] * 2
        _, first = await play("socialgrid", "elo", social(crew_won=False), crew_imp)
        assert first == {"m1": (None, (1468.0, 0.0)), "m2": (None, (1532.0, 0.0))}
        _, second = await play("socialgrid", "elo", social(crew_won=True), crew_imp)
        # The underdog's win moves it past the favourite: 1468 + 64 * 0.591075 = 1505.829.
        assert second["m1"][0] == (1468.0, 0.0)
        assert second["m1"][1][0] == pytest.approx(1505.829, abs=1e-3)
        board = await store.leaderboard("socialgrid", "elo")
        assert [r["identity"] for r in board] == ["m1", "m2"]
        assert [r["games"] for r in board] == [2, 2]
        assert board[0]["conservative"] == board[0]["mu"]
        history = await store.fetch("SELECT identity, mu_before, mu_after FROM rating_history "
                                    "WHERE env = 'socialgrid' ORDER BY game_id, identity")
        assert len(history) == 4 and history[0]["mu_before"] is None

        solo_id, solo = await play("solo-task", "none", Result({0: 1.0}, (0,), "ok"), ["m1"])
        assert solo == {}
        game = await store.game(solo_id)
        assert game["status"] == "finished"
        _, one_seat = await play("solo-task", "trueskill", Result({0: 1.0}, (0,), "ok"), ["m1"])
        assert one_seat == {} and await store.leaderboard("solo-task") == []

        ipd = Result({0: 1.0, 1: 3.0, 2: 2.0}, (1,), "rounds")
        await play("three-player-ipd", "trueskill", ipd, ["a", "b", "c"])
        board = await store.leaderboard("three-player-ipd")
        assert [r["identity"] for r in board] == ["b", "c", "a"]
    finally:
        await store.close()
