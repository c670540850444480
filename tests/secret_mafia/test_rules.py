"""Secret Mafia's rules: the deal, the night (Mafia vote, Doctor, Detective), dawn, the day
(discussion order, public sequential vote), tie-breaks from the seed, the invalid-move policy
(one retry then elimination, quiet at night; the paper's corrected variant), win checks and
rewards (the dead included), defaults, resigning, config errors."""

from collections import Counter

import pytest

from engine.core import ConfigError, GameRecord
from tests.secret_mafia.helpers import (
    DEALT,
    ENV,
    actor,
    day,
    discuss,
    new,
    night,
    role_seats,
    village,
    vote,
)

# At seed DEALT: Doctor 0, Mafia 1 and 2, Detective 3, Villagers 4 and 5.
DOC, MAFIA, DET, VILLAGERS = 0, (1, 2), 3, (4, 5)


def test_the_seed_dealt_deals_the_seats_these_tests_assume():
    game = new(DEALT)
    assert [r.name for r in game.roles] == ["Doctor", "Mafia", "Mafia", "Detective",
                                            "Villager", "Villager"]
    assert [r.side for r in game.roles] == ["village", "mafia", "mafia", "village", "village",
                                            "village"]


def test_the_deal_is_two_mafia_one_doctor_one_detective_two_villagers_from_the_seed():
    deals = set()
    for seed in range(30):
        roles = ENV.assign_roles(ENV.config(), seed, 6)
        assert roles == ENV.assign_roles(ENV.config(), seed, 6)
        assert Counter(r.name for r in roles) == {"Mafia": 2, "Doctor": 1, "Detective": 1,
                                                  "Villager": 2}
        assert all((r.side == "mafia") == (r.name == "Mafia") for r in roles)
        deals.add(tuple(r.name for r in roles))
    assert len(deals) > 10


def test_only_six_players():
    with pytest.raises(ConfigError, match="6 players"):
        ENV.new_game(ENV.config(), 0, 5)


def test_a_night_asks_each_mafia_member_then_the_doctor_then_the_detective_in_secret():
    game = new(DEALT)
    spectator = game.view(None)
    public_events = len(game.events_for(None))
    asked = []
    while game.phase == "night":
        seat = actor(game)
        asked.append((game.task, seat))
        assert game.view(None) == spectator  # nothing public moves while the night goes on
        game.act(seat, f"[{game.targets(seat)[0]}]")
    assert sorted(asked[:2]) == [("kill", 1), ("kill", 2)]
    assert asked[2:] == [("protect", DOC), ("investigate", DET)]
    new_public = game.events_for(None)[public_events:]
    assert new_public[0].type == "dawn"


def test_the_mafia_vote_in_an_order_drawn_from_the_seed():
    firsts = set()
    for seed in range(12):
        game = new(seed)
        twin = new(seed)
        assert game.pending() == twin.pending()
        firsts.add(actor(game) == min(game.mafia))
    assert firsts == {True, False}


def test_mafia_votes_and_the_target_reach_the_living_mafia_only():
    game = new(DEALT)
    night(game, victim=4)
    for e in game.events:
        if e.type in ("mafia_vote", "mafia_target"):
            assert e.visible_to == MAFIA
    target = next(e for e in game.events if e.type == "mafia_target")
    assert target.data["target"] == 4 and target.data["tied"] == []


def test_a_tied_mafia_vote_is_broken_by_the_seed():
    picked = set()
    for seed in range(16):
        game = new(seed)
        mafia = sorted(game.mafia)
        victims = [s for s in range(6) if s not in game.mafia][:2]
        night(game, votes=dict(zip(mafia, victims, strict=True)))
        target = next(e for e in game.events if e.type == "mafia_target").data
        assert target["tied"] == sorted(victims) and target["target"] in victims
        twin = new(seed)
        night(twin, votes=dict(zip(mafia, victims, strict=True)))
        assert twin.events == game.events
        picked.add(victims.index(target["target"]))
    assert picked == {0, 1}


def test_the_doctor_saves_the_mafias_target():
    game = new(DEALT)
    night(game, victim=4, protect=4)
    dawn = game.history[-1]
    assert dawn["killed"] is None and game.alive[4]
    resolved = next(e for e in game.events if e.type == "night_resolved")
    assert resolved.visible_to == () and resolved.data["saved"] is True


def test_an_unprotected_target_dies_at_dawn():
    game = new(DEALT)
    night(game, victim=4, protect=5)
    assert game.history[-1]["killed"] == 4 and not game.alive[4]
    assert game.phase == "day"


def test_the_doctor_may_not_protect_themself_unless_the_config_allows():
    game = new(DEALT)
    while game.task == "kill":
        game.act(actor(game), "[4]")
    events = game.act(DOC, f"[{DOC}]")
    assert [e.type for e in events] == ["invalid_move"] and events[0].visible_to == (DOC,)
    assert "yourself" in events[0].data["reason"] and actor(game) == DOC
    allowed = new(DEALT, doctor_self_protect=True)
    night(allowed, victim=DOC, protect=DOC)
    assert allowed.alive[DOC] and allowed.protections == [{"day": 1, "target": DOC}]


def test_the_detective_learns_privately_whether_a_player_is_mafia():
    game = new(DEALT)
    night(game, victim=4, protect=4, investigate=1)
    found = next(e for e in game.events if e.type == "investigated")
    assert found.visible_to == (DET,) and found.data == {"seat": DET, "day": 1, "target": 1,
                                                         "mafia": True}
    assert game.view(DET)["private"]["investigations"] == [{"day": 1, "target": 1,
                                                            "mafia": True}]
    assert "IS a Mafia member" in ENV.describe_event(found, DET)
    day(game, out=5)
    night(game, victim=DOC, investigate=DOC)
    assert game.findings[-1] == {"day": 2, "target": DOC, "mafia": False}


def test_the_detective_may_not_investigate_themself_nor_the_mafia_a_teammate():
    game = new(DEALT)
    seat = actor(game)
    mate = next(m for m in MAFIA if m != seat)
    events = game.act(seat, f"[{mate}]")
    assert events[0].type == "invalid_move" and events[0].data["category"] == "rule"
    assert "Mafia" not in events[0].data["reason"]
    while game.task != "investigate":
        game.act(actor(game), "[4]")
    assert game.act(DET, f"[{DET}]")[0].data["reason"].startswith("you cannot choose yourself")


def test_discussion_follows_one_order_drawn_for_each_day():
    orders = set()
    for seed in range(6):
        game = new(seed)
        night(game)
        order = game.order[:]
        assert sorted(order) == game.living()
        assert discuss(game) == order * 3  # every living player once per round, same order
        assert [e.data["round"] for e in game.events if e.type == "discussion_round"] == [2, 3]
        orders.add(tuple(order))
    assert len(orders) > 1


def test_the_day_vote_is_public_and_sequential_in_a_fresh_random_order():
    game = new(DEALT)
    night(game, victim=4)
    discuss(game)
    order = game.vote_order[:]
    assert sorted(order) == game.living()
    voters = vote(game, lambda seat: 5)
    assert voters == order
    votes = [e for e in game.events if e.type == "vote"]
    assert all(e.visible_to == "all" for e in votes)
    result = game.history[-1]
    assert result["eliminated"] == 5 and [v["seat"] for v in result["votes"]] == order


def test_a_tied_day_vote_is_broken_by_the_seed():
    out = set()
    for seed in range(16):
        game = new(seed)
        night(game, victim=None, protect=None)
        discuss(game)
        living = game.living()
        a, b = living[0], living[1]
        order = game.vote_order[:]
        vote(game, lambda seat, a=a, b=b, order=order: a if order.index(seat) % 2 else b)
        result = game.history[-1]
        if len(living) % 2 == 0:
            assert result["tied"] == sorted([a, b]) and result["eliminated"] in (a, b)
            out.add(result["eliminated"] == a)
    assert out == {True, False}


def test_a_vote_of_passes_eliminates_nobody():
    game = new(DEALT)
    night(game, victim=4)
    discuss(game)
    while game.phase == "vote":
        game.act_default(actor(game), "timeout")
    assert game.history[-1]["eliminated"] is None and game.phase == "night"
    assert game.living() == [0, 1, 2, 3, 5]


def test_two_invalid_votes_in_a_row_eliminate_the_voter_and_the_game_goes_on():
    game = new(DEALT)
    night(game, victim=4, protect=4)  # nobody dies: one more death cannot end the game
    discuss(game)
    seat = actor(game)
    first = game.act(seat, "I abstain")
    assert [e.type for e in first] == ["invalid_move"] and first[0].visible_to == (seat,)
    assert actor(game) == seat
    second = game.act(seat, "still no")
    assert [e.type for e in second][:2] == ["invalid_move", "eliminated"]
    assert all(e.visible_to == "all" for e in second[:2])
    assert not game.alive[seat] and seat not in game.pending()
    record = game.last_action()
    assert record.outcome == "invalid" and record.fatal and record.category == "format"
    assert not game.over and game.phase in ("vote", "night")


def test_a_valid_move_in_between_resets_the_count():
    game = new(DEALT)
    while game.task == "kill":
        game.act(actor(game), "[4]")
    game.act(DOC, "nonsense")
    game.act(DOC, "[4]")  # the retry, valid: the count starts again
    night(game, investigate=1)
    day(game, out=5)
    while game.task == "kill":
        game.act(actor(game), "[4]")
    events = game.act(DOC, "nonsense")
    assert [e.type for e in events] == ["invalid_move"] and game.alive[DOC]


def test_a_night_elimination_stays_quiet_until_dawn():
    game = new(DEALT)
    while game.task == "kill":
        game.act_default(actor(game), "timeout")  # no victim tonight
    game.act(DOC, "x")
    events = game.act(DOC, "y")
    assert {e.type for e in events} >= {"invalid_move", "eliminated"}
    for e in events:
        if e.type in ("invalid_move", "eliminated"):
            assert e.visible_to == (DOC,)
    assert actor(game) == DET and "phase" in game.clock and game.phase == "night"
    night(game)
    dawn = game.history[-1]
    assert dawn["overnight"] == [DOC] and dawn["killed"] is None and not game.over
    line = ENV.describe_event(next(e for e in game.events if e.type == "dawn"), None)
    assert line == "Dawn: nobody was killed in the night; out for invalid moves: Player 0"


def test_a_mafia_members_night_elimination_is_told_to_the_teammate():
    game = new(DEALT)
    seat = actor(game)
    game.act(seat, "[1x]")
    events = game.act(seat, "[9]")
    out = next(e for e in events if e.type == "eliminated")
    assert out.visible_to == MAFIA
    assert seat in game.unannounced


def test_the_last_mafia_member_out_for_invalid_moves_ends_the_game_at_once():
    game = new(DEALT)
    night(game, victim=4, protect=4)
    day(game, out=1)
    assert not game.alive[1] and not game.over
    assert actor(game) == 2
    game.act(2, "?")
    game.act(2, "??")
    assert game.over and set(game.result.winners) == {0, 3, 4, 5}
    assert game.result.reason == "the village wins: no Mafia member is left"
    told = next(e for e in game.events if e.type == "left_overnight")  # no dawn will say it
    assert told.visible_to == "all" and told.data == {"day": 2, "seats": [2]}


def test_the_mafia_win_at_parity_and_the_dead_share_their_sides_result():
    game = new(DEALT)
    night(game, victim=4, protect=5)
    day(game, out=5)
    night(game, victim=DOC, protect=DET)
    assert game.over and game.result.winners == (1, 2)
    assert game.result.reason == "the Mafia win: the Mafia are 2 of the 4 players left" \
        or game.result.reason.startswith("the Mafia win")
    assert game.result.rewards == {0: -1.0, 1: 1.0, 2: 1.0, 3: -1.0, 4: -1.0, 5: -1.0}
    assert not game.pending() and game.view(None)["public"]["phase"] == "over"


def test_parity_is_checked_right_after_the_day_vote():
    game = new(DEALT)
    night(game, victim=4, protect=5)
    day(game, out=5)  # 2 Mafia of 4 living: parity
    assert game.over and game.result.winners == (1, 2)


def test_the_village_wins_when_no_mafia_is_left_and_the_dead_win_too():
    game = new(DEALT)
    night(game, victim=4, protect=DET)
    day(game, out=1)
    night(game, victim=DET, protect=DET)
    day(game, out=2)
    assert game.over and game.result.winners == (0, 3, 4, 5)
    assert game.result.rewards[4] == 1.0 and not game.alive[4]  # killed on night 1, still wins
    assert game.result.rewards[1] == game.result.rewards[2] == -1.0


def test_the_paper_corrected_variant_replaces_bad_doctor_and_detective_actions():
    game = new(DEALT, "paper-corrected")
    while game.task == "kill":
        game.act(actor(game), "[4]")
    events = game.act(DOC, "protect the quiet one")
    assert [e.type for e in events] == ["invalid_move", "protected"]
    assert events[0].data["then"] == "default" and not events[0].data["fatal"]
    assert all(e.visible_to == (DOC,) for e in events)
    assert game.protected is None and actor(game) == DET and game.alive[DOC]
    game.act(DET, f"[{DET}]")  # a rule error, corrected too: nobody investigated
    assert game.findings == [{"day": 1, "target": None, "mafia": None}]
    assert game.history[-1]["killed"] == 4  # the Doctor's pass saved nobody
    discuss(game)
    seat = actor(game)
    game.act(seat, "x")
    game.act(seat, "y")  # day votes keep retry-then-eliminate
    assert not game.alive[seat]


def test_open_roles_name_the_role_of_each_death():
    game = new(DEALT, "open-roles")
    assert game.revealed_roles() == frozenset()
    night(game, victim=4, protect=5)
    assert game.history[-1]["roles"] == {"4": "Villager"}
    assert game.revealed_roles() == {"Villager"}
    day(game, out=1)
    assert game.history[-1]["roles"] == {"1": "Mafia"}
    assert {"seat": 1, "name": "Player 1", "alive": False, "role": "Mafia"} in \
        game.view(None)["public"]["players"]
    plain = new(DEALT)
    night(plain, victim=4, protect=5)
    assert "roles" not in plain.history[-1]
    assert all("role" not in p for p in plain.view(None)["public"]["players"])


def test_default_moves_keep_quiet_or_pass():
    game = new(DEALT)
    seat = actor(game)
    assert game.default_action(seat) == {"pass": True}
    game.act_default(seat, "timeout")
    assert game.night_votes[-1] == {"day": 1, "seat": seat, "target": None, "note": ""}
    assert game.last_action().outcome == "defaulted"
    defaulted = next(e for e in game.events if e.type == "move_defaulted")
    assert defaulted.visible_to == MAFIA  # a night default stays among the Mafia
    night(game)
    assert game.default_action(actor(game)) == {"text": ""}
    game.act_default(actor(game), "timeout")
    assert game.chat[-1]["text"] == ""


def test_the_dead_are_never_asked_again():
    game = new(DEALT)
    night(game, victim=4)
    seen = set()
    while not game.over:
        seat = actor(game)
        seen.add(seat)
        assert game.alive[seat]
        game.act(seat, f"[{game.targets(seat)[0]}]" if game.task != "speak" else "hi")
    assert 4 not in seen


def test_resigning_loses_for_the_whole_side():
    game = new(DEALT)
    events = game.resign(4, "left the game")
    assert events[0].type == "forfeit" and game.over
    assert game.result.winners == (1, 2) and game.result.rewards[DOC] == -1.0


def test_replay_reproduces_every_event():
    game = new(7)
    while not game.over:
        seat = actor(game)
        targets = game.targets(seat)
        game.act(seat, "chat" if game.task == "speak" else f"[{targets[-1]}]")
    again = ENV.replay(GameRecord.from_json(game.record().to_json()))
    assert again.events == game.events and again.result == game.result


def test_invalid_configs_are_refused_with_a_message():
    with pytest.raises(ConfigError, match="discussion_rounds"):
        ENV.config(overrides={"discussion_rounds": 0})
    with pytest.raises(ConfigError, match="night_errors"):
        ENV.config(overrides={"night_errors": "ignore"})
    with pytest.raises(ConfigError, match="max_chat_chars"):
        ENV.config(overrides={"max_chat_chars": 5000})


def test_helpers_find_roles():
    game = new(DEALT)
    assert role_seats(game, "Mafia") == [1, 2] and village(game) == [0, 3, 4, 5]


def test_a_tied_night_vote_leaves_the_public_day_orders_unchanged():
    """An attacker who knows the seed must not read a secret tie (or the Mafia's voting order)
    back from the public speaking and voting orders: two games with the same seed and the same
    public history, one whose night vote tied, draw the same public orders."""
    for seed in range(16):
        tied = new(seed)
        mafia = sorted(tied.mafia)
        victims = village(tied)[:2]
        night(tied, votes=dict(zip(mafia, victims, strict=True)))
        chosen = tied.mafia_log[-1]
        assert chosen["tied"] == sorted(victims)
        agreed = new(seed)
        night(agreed, victim=chosen["target"])
        assert agreed.mafia_log[-1]["tied"] == [] and agreed.alive == tied.alive
        for game in (tied, agreed):
            discuss(game)
        assert agreed.order == tied.order and agreed.vote_order == tied.vote_order
        assert agreed.events_for(None)[-6:] == tied.events_for(None)[-6:]
