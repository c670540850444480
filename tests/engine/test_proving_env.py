"""Scenario tests of the test envs: the proving ground (teams, hidden captains, simultaneous moves,
invalid-move policies, long games) and the one-seat solo quiz."""

import json

import pytest

from engine.core import EngineError
from tests.envs import PROVING, SOLO
from tests.envs.proving import ProvingConfig, parse_move
from tests.envs.solo import LETTERS

SEATS = 7


def new(ticks=40, seed=3, **options):
    return PROVING.new_game(ProvingConfig(ticks=ticks, **options), seed, SEATS)


def tick(game, move="push", **moves):
    """Every pending seat moves (`moves` by seat: {"s3": "hold"})."""
    for seat in sorted(game.pending()):
        game.act(seat, {"choice": moves.get(f"s{seat}", move)})


def team(game, side):
    return [s for s, r in enumerate(game.roles) if r.side == side]


def test_moves_are_simultaneous_every_tick_and_events_carry_the_tick():
    game = new()
    assert game.pending() == frozenset(range(SEATS)) and game.clock == {"tick": 1}
    game.act(2, "[hold]")
    assert game.pending() == frozenset(range(SEATS)) - {2}
    tick(game)
    assert game.pending() == frozenset(range(SEATS)) and game.clock == {"tick": 2}
    resolved = [e for e in game.events if e.type == "step_resolved"]
    assert len(resolved) == 1 and resolved[0].clock == {"tick": 1}
    assert game.view(None)["public"]["tick"] == 2


def test_text_and_structured_moves():
    assert parse_move("[push]") == parse_move(" PUSH ") == parse_move({"choice": "push"}) == "push"
    assert parse_move("[ scout ]") == "scout"
    for bad in ("", "[]", "push hold", "[dance]", {"choice": 3}, {"text": "push"}):
        assert parse_move(bad) is None


def test_team_events_never_reach_the_other_team():
    game = new(ticks=5)
    while not game.over:
        tick(game, "scout", s0="push", s1="hold")
    for side in ("red", "blue"):
        mine = team(game, side)
        moves = [e for e in game.events if e.type == "team_moves" and e.data["side"] == side]
        assert len(moves) == 5 and all(e.visible_to == tuple(mine) for e in moves)
        assert all(set(e.data["moves"]) == {str(s) for s in mine} for e in moves)
        for seat in range(SEATS):
            seen = [e for e in game.events_for(seat) if e.type == "team_moves"]
            assert all(e.data["side"] == game.roles[seat].side for e in seen)
            assert len(seen) == 5
    assert not [e for e in game.events_for(None) if e.type == "team_moves"]
    assert len([e for e in game.events_for(None) if e.type == "step_resolved"]) == 5


def test_a_captains_push_counts_twice_and_holds_block_pushes():
    game = new()
    red, blue = team(game, "red"), team(game, "blue")
    captain = next(s for s in red if game.roles[s].name == "red captain")
    moves = {f"s{s}": "scout" for s in red + blue}
    moves[f"s{captain}"] = "push"
    tick(game, **moves)
    assert game.scores == {"red": 2, "blue": 0}
    moves[f"s{blue[0]}"] = "hold"
    tick(game, **moves)
    assert game.scores == {"red": 3, "blue": 0}


def test_roles_are_dealt_from_the_seed_and_revealed_at_the_end():
    config = PROVING.config("short")
    deals = {seed: PROVING.assign_roles(config, seed, SEATS) for seed in range(6)}
    assert deals[0] == PROVING.assign_roles(config, 0, SEATS)
    assert len(set(deals.values())) > 1
    for roles in deals.values():
        sides = [r.side for r in roles]
        assert sides.count("red") == 4 and sides.count("blue") == 3
        names = sorted(r.name for r in roles)
        assert names.count("red captain") == names.count("blue captain") == 1
    game = new(ticks=3)
    assert game.roles == deals[3]
    for seat in range(SEATS):
        text = json.dumps(game.view(seat))
        other = "blue" if game.roles[seat].side == "red" else "red"
        assert f"{other} captain" not in text and f"{other} crew" not in text
        assert game.view(seat)["private"]["role"] == game.roles[seat].name
    assert "setup" not in game.view(None)["public"]
    while not game.over:
        tick(game)
    revealed = [r.to_json() for r in game.roles]
    assert game.view(None)["public"]["setup"] == {"roles": revealed}
    event = next(e for e in game.events if e.type == "setup_revealed")
    assert event.visible_to == "all" and event.data == {"roles": revealed}
    assert game.result.roles == tuple(r.name for r in game.roles)
    assert game.result.sides == tuple(r.side for r in game.roles)
    assert game.record().setup == {"roles": revealed}


def test_the_default_policy_makes_the_default_move_after_the_retries():
    game = new(retries=1)
    assert game.act(4, "[dance]")[0].visible_to == (4,)
    assert 4 in game.pending() and game.view(4)["private"]["retries_left"] == 0
    game.act(4, "still no")
    assert 4 not in game.pending() and game.view(4)["private"]["move"] == "hold"
    assert [a.outcome for a in game.actions] == ["invalid", "invalid"]
    assert not game.actions[-1].fatal


def test_the_eliminate_policy_takes_the_seat_out():
    game = new(invalid_policy="eliminate", retries=1)
    game.act(4, "[dance]")
    game.act(4, "[dance]")
    assert 4 not in game.pending()
    out = next(e for e in game.events if e.type == "eliminated")
    assert out.visible_to == "all" and out.data["seat"] == 4 and game.actions[-1].fatal
    tick(game)
    assert game.pending() == frozenset(range(SEATS)) - {4}
    assert game.view(None)["public"]["alive"][4] is False


def test_a_team_with_nobody_left_loses():
    game = new(invalid_policy="eliminate", retries=0)
    blue = team(game, "blue")
    for seat in blue:
        game.act(seat, "junk")
    assert game.over and set(game.result.winners) == set(team(game, "red"))
    assert all(game.result.rewards[s] == -1.0 for s in blue)
    assert "team blue has nobody left" in game.result.reason


def test_the_last_pending_seat_eliminated_resolves_the_tick():
    game = new(invalid_policy="eliminate", retries=0)
    for seat in range(SEATS - 1):
        game.act(seat, {"choice": "scout"})
    game.act(SEATS - 1, "junk")
    assert game.clock == {"tick": 2} and game.pending() == frozenset(range(SEATS - 1))


def test_act_default_is_recorded_as_defaulted():
    game = new()
    events = game.act_default(5, "timeout")
    assert [e.type for e in events] == ["move_defaulted", "move_submitted"]
    record = game.last_action()
    assert (record.seat, record.outcome, record.error, record.raw) == \
        (5, "defaulted", "timeout", {"choice": "hold"})
    assert game.view(5)["private"]["move"] == "hold"
    replayed = PROVING.replay(game.record())
    assert [e.to_json() for e in replayed.events] == [e.to_json() for e in game.events]


def test_views_stay_bounded_in_a_long_game():
    game = new(ticks=2500)
    sizes = {}
    while game.tick <= 2000:
        if game.tick in (20, 2000):
            sizes[game.tick] = max(len(json.dumps(game.view(s))) for s in (None, *range(SEATS)))
        tick(game)
    assert len(game.view(0)["public"]["recent"]) == 10
    assert sizes[2000] <= sizes[20] + 100  # only the digits of the numbers grow
    assert game.event_count > 2000 * SEATS  # the history is the event log


def test_the_paper_game_lasts_exactly_its_ticks():
    game = PROVING.new_game(PROVING.config("paper"), 0, SEATS)
    while not game.over:
        tick(game, "scout")
    assert len(game.actions) == 2500 * SEATS and game.clock == {"tick": 2500}
    assert game.result.draw and set(game.result.rewards.values()) == {0.0}


def test_metrics_count_rewards_wins_and_invalid_moves():
    game = new(ticks=2)
    game.act(0, "junk")
    while not game.over:
        tick(game, "scout", s0="push", s1="push", s2="push", s3="push")
    metrics = PROVING.game_metrics(game.record())
    seat0 = metrics["seats"]["0"]
    assert seat0["invalid_caused"] == 1 and metrics["seats"]["1"]["invalid_witnessed"] == 1
    assert metrics["game"]["ticks_played"] == 2
    winners = set(game.result.winners)
    assert all(metrics["seats"][str(s)]["win"] == (s in winners) for s in range(SEATS))
    assert PROVING.aggregate_metrics([metrics])["overall"]["games"] == 1


# ---------------------------------------------------------------------------------- solo quiz
def right_letter(game):
    space = game.legal(0)
    a, op, b = game.view(0)["public"]["text"].split()
    answer = int(a) + int(b) if op == "+" else int(a) * int(b)
    return next(o.id for o in space.options if o.label == str(answer))


def test_a_solo_quiz_finishes_with_its_accuracy():
    game = SOLO.new_game(SOLO.config(), 4, 1)
    assert game.pending() == frozenset((0,)) and SOLO.rating == "none"
    assert "answer_key" not in json.dumps(game.view(0))
    game.act(0, f"[{right_letter(game)}]")
    wrong = next(c for c in LETTERS if c != right_letter(game))
    game.act(0, {"choice": wrong})
    game.act(0, right_letter(game))
    assert game.over and game.result.rewards == {0: pytest.approx(2 / 3)}
    assert game.result.winners == ()
    assert game.view(0)["public"]["setup"]["answer_key"][0] in LETTERS
    assert SOLO.game_metrics(game.record())["seats"]["0"]["accuracy"] == pytest.approx(2 / 3)


def test_a_perfect_solo_quiz_wins():
    game = SOLO.new_game(SOLO.config(), 9, 1)
    while not game.over:
        game.act(0, {"choice": right_letter(game)})
    assert game.result.rewards == {0: 1.0} and game.result.winners == (0,)


def test_a_solo_quiz_defaults_to_pass_after_a_retry():
    game = SOLO.new_game(SOLO.config(), 1, 1)
    game.act(0, "banana")
    assert game.clock == {"question": 1}
    game.act(0, "banana")
    assert game.clock == {"question": 2}
    assert game.view(0)["public"]["recent"][0]["answer"] == "pass"
    with pytest.raises(EngineError):
        SOLO.new_game(SOLO.config(), 1, 2)
