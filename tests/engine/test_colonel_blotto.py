"""Colonel Blotto: rules, presets, parser, invalid-move policy, secrecy, replay, text, metrics."""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.colonel_blotto import Allocation, ColonelBlottoEnv, syntax
from engine.conformance import check_env
from engine.core import ConfigError, GameOverError, GameRecord, NotYourTurnError

ENV = ColonelBlottoEnv()
ABC = ("A", "B", "C")


def new_game(preset: str = "paper", seed: int = 0, **overrides):
    return ENV.new_game(ENV.config(preset, overrides), seed, 2)


def play_round(game, alpha, beta):
    """Both commanders allocate; returns the events of the second allocation."""
    assert game.act(0, alpha)[-1].type == "allocation_submitted"
    return game.act(1, beta)


def types(events):
    return [e.type for e in events]


def resolved(events):
    return next(e.data for e in events if e.type == "round_resolved")


WIN, LOSE, EVEN = "[A7 B7 C6]", "[A6 B6 C8]", "[A7 B7 C6]"  # WIN beats LOSE on A and B


# ------------------------------------------------------------------------------ round rules
def test_more_units_takes_the_field_and_more_fields_take_the_round():
    game = new_game()
    data = resolved(play_round(game, "[A7 B7 C6]", "[A10 B10 C0]"))
    assert data["allocations"] == [{"A": 7, "B": 7, "C": 6}, {"A": 10, "B": 10, "C": 0}]
    assert data["field_winners"] == [1, 1, 0]
    assert data["fields_won"] == [1, 2]
    assert data["winner"] == 1 and data["score"] == [0, 1]
    assert game.view(None)["public"]["score"] == [0, 1]
    assert game.view(None)["public"]["round"] == 2
    assert game.pending() == {0, 1}


def test_equal_units_take_a_field_for_nobody_and_equal_fields_score_nobody():
    game = new_game()
    data = resolved(play_round(game, "[A10 B10 C0]", "[A10 B5 C5]"))
    assert data["field_winners"] == [None, 0, 1]
    assert data["winner"] is None and data["score"] == [0, 0]
    data = resolved(play_round(game, "[A0]", "[]" + "[C0]"))  # all fields 0-0
    assert data["field_winners"] == [None, None, None] and data["winner"] is None


def test_one_field_each_and_a_tie_is_a_drawn_round():
    game = new_game(fields=2, units=10)
    data = resolved(play_round(game, "[A6 B4]", "[A4 B6]"))
    assert data["fields_won"] == [1, 1] and data["winner"] is None


def test_game_ends_early_at_a_majority_of_rounds():
    game = new_game()
    for r in range(4):
        play_round(game, WIN, LOSE)
        assert not game.over, f"over after {r + 1} rounds"
    events = play_round(game, WIN, LOSE)
    assert game.over and game.pending() == frozenset()
    assert types(events)[-2:] == ["round_resolved", "game_over"]
    assert "round_started" not in types(events)
    assert game.result.rewards == {0: 1.0, 1: -1.0} and game.result.winners == (0,)
    assert "5-0" in game.result.reason and "5 round wins" in game.result.reason


@pytest.mark.parametrize(("rounds", "win_rounds", "ends_after"),
                         [(5, 0, 3), (9, 0, 5), (10, 0, 6), (1, 0, 1), (9, 2, 2)])
def test_early_end_threshold_is_a_majority_or_explicit(rounds, win_rounds, ends_after):
    game = new_game(rounds=rounds, win_rounds=win_rounds)
    for _ in range(ends_after - 1):
        play_round(game, LOSE, WIN)
    assert not game.over
    play_round(game, LOSE, WIN)
    assert game.over and game.result.winners == (1,)
    assert game.view(None)["public"]["rounds_to_win"] == ends_after


def test_a_lead_short_of_the_majority_plays_on_to_the_last_round():
    game = new_game()
    for _ in range(4):
        play_round(game, WIN, LOSE)
        play_round(game, EVEN, EVEN)
    assert game.view(None)["public"]["score"] == [4, 0] and not game.over
    play_round(game, LOSE, WIN)
    assert game.over and game.result.winners == (0,)
    assert "4-1 after 9 rounds" in game.result.reason


def test_equal_round_wins_after_the_last_round_is_a_draw():
    game = new_game()
    for _ in range(4):
        play_round(game, WIN, LOSE)
        play_round(game, LOSE, WIN)
    play_round(game, EVEN, EVEN)
    assert game.over and game.result.draw
    assert game.result.rewards == {0: 0.0, 1: 0.0} and game.result.winners == ()
    assert "4-4 draw after 9 rounds" in game.result.reason


# ------------------------------------------------------------------------------ presets, config
@pytest.mark.parametrize(("preset", "fields", "units", "rounds", "exact"), [
    ("paper", 3, 20, 9, False), ("small", 3, 20, 5, False), ("large", 5, 50, 15, False),
    ("extreme", 7, 75, 25, False), ("textarena-0.7.4", 3, 20, 9, True)])
def test_presets_set_up_the_board_and_play_to_the_end(preset, fields, units, rounds, exact):
    game = new_game(preset)
    space = game.legal(0)
    names = [f.name for f in space.fields]
    assert names == list("ABCDEFG"[:fields])
    assert all(f.kind == "int" and f.min == 0 and f.max == units for f in space.fields)
    assert space.constraints == ({"sum_eq": units} if exact else {"sum_max": units})
    assert syntax.parse(space.syntax, tuple(names)).total == units  # the example is valid
    every = {n: units // fields for n in names}
    every[names[0]] += units - sum(every.values())
    alpha = dict(every)  # one more on A and B, two fewer on C: alpha takes 2 fields to 1
    alpha[names[0]] += 1
    alpha[names[1]] += 1
    alpha[names[2]] -= 2
    for _ in range(rounds):
        if game.over:
            break
        play_round(game, alpha, every)
    assert game.over and game.result.winners == (0,)
    assert len([e for e in game.events if e.type == "round_resolved"]) == rounds // 2 + 1


def test_exact_units_rejects_short_allocations_that_the_paper_rule_accepts():
    paper, exact = new_game("paper"), new_game("textarena-0.7.4")
    assert types(paper.act(0, "[A4 B2 C2]")) == ["allocation_submitted"]
    events = exact.act(0, "[A4 B2 C2]")
    assert types(events) == ["invalid_move"] and "exactly 20" in events[0].data["reason"]
    assert types(exact.act(0, "[A4 B2 C14]")) == ["allocation_submitted"]
    for game in (new_game("paper"), new_game("textarena-0.7.4")):
        event = game.act(0, "[A10 B10 C1]")[0]
        assert event.type == "invalid_move" and event.data["category"] == "units"


@pytest.mark.parametrize(("overrides", "message"), [
    ({"fields": 1}, "fields must be between 2 and 9"),
    ({"fields": 10}, "fields must be between 2 and 9"),
    ({"units": 2}, "units must be between the number of fields (3)"),
    ({"units": 201}, "units must be between the number of fields (3) and 200"),
    ({"rounds": 0}, "rounds must be between 1 and 1000"),
    ({"win_rounds": 10}, "win_rounds must be between 1 and rounds (9), or 0 for a majority (5)"),
    ({"error_allowance": -1}, "error_allowance must be between 0"),
    ({"exact_units": 1}, "config exact_units must be true or false"),
    ({"units": "20"}, "config units must be an integer"),
    ({"colour": "red"}, "unknown config key(s) colour"),
])
def test_bad_configs_say_what_is_allowed(overrides, message):
    with pytest.raises(ConfigError) as info:
        ENV.config("paper", overrides)
    assert message in str(info.value)


def test_unknown_preset_and_player_count_are_config_errors():
    with pytest.raises(ConfigError, match="valid presets: paper, small, large, extreme"):
        ENV.config("huge")
    with pytest.raises(ConfigError, match="played by 2 players, not 3"):
        ENV.new_game(ENV.config(), 0, 3)


def test_env_description():
    d = ENV.describe()
    assert d["id"] == "colonel-blotto" and d["players"] == [2] and d["rules_version"] == "2"
    assert d["seat_names"] == ["Commander Alpha", "Commander Beta"]
    assert d["presets"]["textarena-0.7.4"]["exact_units"] is True


# ------------------------------------------------------------------------------ parser
@pytest.mark.parametrize(("text", "units"), [
    ("[A4 B2 C2]", (4, 2, 2)),
    ("[a4 b2 c2]", (4, 2, 2)),
    ("[A:4, B:2, C:2]", (4, 2, 2)),
    ("[A 4,B 2 ,C 2]", (4, 2, 2)),
    ("[A4B2C2]", (4, 2, 2)),
    ("[ A : 4\tB:\n2 ]", (4, 2, 0)),
    ("[C20]", (0, 0, 20)),
    ("[B1, A3]", (3, 1, 0)),
    ("A4 B2 C2", (4, 2, 2)),
    ("  a:4,b:2  ", (4, 2, 0)),
    ("I will play [A7 B7 C6] now.", (7, 7, 6)),
    ("[A7 B7 C6] and later [A1]", (7, 7, 6)),
    ("[] [A5]", (5, 0, 0)),
    ("[A007 B0]", (7, 0, 0)),
    ("[A4\u00a0B2]", (4, 2, 0)),  # non-breaking space separates, as in the reference
])
def test_parser_accepts(text, units):
    assert syntax.parse_text(text, ABC) == Allocation(units)


@pytest.mark.parametrize(("text", "message"), [
    ("", "holds no allocation"),
    ("[ ]", "holds no allocation"),
    ("pass", "no allocation found"),
    ("[A4 B2 C2 D1]", "there is no field 'D'"),
    ("[A4 A2]", "field A appears more than once"),
    ("[a4 A2]", "field A appears more than once"),
    ("[A4; B2]", "unexpected text ';'"),
    ("[A4 B2 C2 please]", "unexpected text 'please'"),
    ("My move is A4 B2 C2", "unexpected text"),
    ("[A-4 B2]", "cannot be negative"),
    ("[A:-4]", "cannot be negative"),
    ("[A4.5]", "unexpected text '.5'"),
    ("[A٣ B2]", "unexpected text"),  # Arabic-Indic digit: ASCII digits only
    ("[A" + "9" * 1500 + "]", "far too large"),
    ("[A4 B2 C2", "unexpected text '['"),
    ("[[A4]", "unexpected text '['"),
    ("x" * 3000, "longer than 2000"),
])
def test_parser_rejects_with_a_reason(text, message):
    result = syntax.parse_text(text, ABC)
    assert isinstance(result, syntax.ParseError), result
    assert message in result.message


@pytest.mark.parametrize("text", [
    "[" * 1_000_000, "]" * 1_000_000, "[" + " " * 1_000_000 + "]", "A" + " " * 1_000_000,
    "A:" * 500_000, "\x00\x01\x7f\u202e" * 1000, "\x00\x01\x7f\u202e" * 100, "[A" + "0" * 100_000 + "4]", "🙂" * 200_000,
])
def test_hostile_text_gets_a_clean_error(text):
    game = new_game()
    events = game.act(0, text)
    assert types(events) == ["invalid_move"] and events[0].data["fatal"] is False


def test_leading_zeros_do_not_count_towards_the_digit_limit():
    assert syntax.parse_text("[A" + "0" * 1500 + "4]", ABC) == Allocation((4, 0, 0))


@pytest.mark.parametrize(("action", "expected"), [
    ({"A": 4, "B": 2, "C": 2}, (4, 2, 2)),
    ({"C": 20}, (0, 0, 20)),
    ({}, (0, 0, 0)),
])
def test_structured_allocations(action, expected):
    assert syntax.parse_mapping(action, ABC) == Allocation(expected)


@pytest.mark.parametrize(("action", "message"), [
    ({"A": True}, "must be a whole number"),
    ({"A": 4.0}, "must be a whole number"),
    ({"A": "4"}, "must be a whole number"),
    ({"A": -1}, "cannot be negative"),
    ({"D": 1}, "there is no field 'D'"),
    ({"a": 1}, "there is no field 'a'"),
    ({1: 1}, "there is no field 1"),
    ({"A" * 10_000: 1}, "there is no field 'AAAA"),
])
def test_bad_structured_allocations(action, message):
    result = syntax.parse_mapping(action, ABC)
    assert isinstance(result, syntax.ParseError) and message in result.message
    assert len(result.message) < 200


def test_error_categories_follow_the_paper():
    game = new_game(error_allowance=10)
    cases = {"nonsense": "format", "[D3]": "format", "[A3 A3]": "format", "[A-3]": "units",
             "[A21]": "units", '[A9999999999999999]': "units"}
    for text, category in cases.items():
        assert game.act(0, text)[0].data["category"] == category, text
    assert game.act(0, {"A": -3})[0].data["category"] == "units"


allocations = st.lists(st.integers(0, 10**9), min_size=3, max_size=3).map(tuple)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_parses_or_errors_and_never_raises(text):
    result = syntax.parse_text(text, ABC)
    assert isinstance(result, (Allocation, syntax.ParseError))
    if isinstance(result, Allocation):
        assert len(result.units) == 3 and min(result.units) >= 0


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from("[]ABCabc:,-0123456789 xyz\n\x00٣"), max_size=60))
def test_any_answer_is_judged_and_never_raises_in_a_game(text):
    game = new_game()
    events = game.act(0, text)
    assert types(events) in (["invalid_move"], ["allocation_submitted"])


@settings(max_examples=200, deadline=None)
@given(allocations)
def test_a_rendered_allocation_parses_back_to_itself(units):
    assert syntax.parse_text(syntax.format_allocation(units, ABC), ABC) == Allocation(units)


@settings(max_examples=200, deadline=None)
@given(allocations, st.lists(st.booleans(), min_size=9, max_size=9),
       st.sampled_from([" ", ", ", ",", "", "\t"]), st.text(alphabet=" \n", max_size=3))
def test_case_colon_and_space_variants_parse_alike(units, flags, sep, pad):
    tokens = []
    for i, (name, n) in enumerate(zip(ABC, units, strict=True)):
        letter = name.lower() if flags[3 * i] else name
        colon = ":" if flags[3 * i + 1] else ""
        space = " " if flags[3 * i + 2] else ""
        tokens.append(f"{letter}{space}{colon}{space}{n}")
    text = f"{pad}[{pad}{sep.join(tokens)}{pad}]{pad}"  # sep "" glues tokens: "A4b:2C2"
    assert syntax.parse_text(text, ABC) == Allocation(units)


# ------------------------------------------------------------------------------ invalid moves
def test_first_invalid_move_is_retried_privately_and_the_second_forfeits():
    game = new_game()
    game.act(1, "[A5 B5 C5]")
    events = game.act(0, "[A30]")
    assert types(events) == ["invalid_move"]
    e = events[0]
    assert e.visible_to == (0,) and e.data["fatal"] is False and e.data["seat"] == 0
    assert "30 units" in e.data["reason"]
    assert game.pending() == {0} and not game.over
    assert game.events_for(1, e.seq) == [] and game.events_for(None, e.seq) == []
    me = game.view(0)["private"]
    assert me["last_error"] == e.data["reason"] and me["retries_left"] == 0
    assert me["invalid_count"] == 1
    events = game.act(0, "still wrong")
    assert types(events) == ["invalid_move", "forfeit", "game_over"]
    assert events[0].data["fatal"] is True and events[0].visible_to == "all"
    assert events[1].data == {"seat": 0, "reason": "Commander Alpha made 2 invalid moves in a row"}
    assert game.over and game.result.rewards == {0: -1.0, 1: 1.0} and game.result.winners == (1,)
    assert "forfeit" in game.result.reason
    # Beta's allocation for the unfinished round is never revealed.
    seen = json.dumps([e.to_json() for e in game.events_for(0)] + [game.view(0), game.view(None)])
    assert "A5" not in seen and '"A": 5' not in seen
    with pytest.raises(GameOverError):
        game.act(1, "[A1]")


def test_a_valid_move_resets_the_invalid_count():
    game = new_game()
    for _ in range(3):  # one error per round, every round, never forfeits
        assert game.act(0, "oops")[0].data["fatal"] is False
        play_round(game, WIN, EVEN)
        assert game.view(0)["private"]["invalid_count"] == 0
        assert game.view(0)["private"]["last_error"] is None
    assert not game.over


def test_invalid_then_valid_within_a_round_stays_in_the_round():
    game = new_game()
    game.act(0, "[A99]")
    assert types(game.act(0, "[A20]")) == ["allocation_submitted"]
    assert game.pending() == {1}
    assert types(game.act(1, "[Z1]")) == ["invalid_move"]
    events = game.act(1, "[B20]")
    assert resolved(events)["fields_won"] == [1, 1]


@pytest.mark.parametrize(("allowance", "forfeits_on"), [(0, 1), (1, 2), (3, 4)])
def test_error_allowance_sets_how_many_retries(allowance, forfeits_on):
    game = new_game(error_allowance=allowance)
    for _ in range(forfeits_on - 1):
        assert types(game.act(1, "?")) == ["invalid_move"]
    assert types(game.act(1, "?")) == ["invalid_move", "forfeit", "game_over"]
    assert game.result.winners == (0,)


def test_out_of_turn_actions_raise_and_change_nothing():
    game = new_game()
    game.act(0, WIN)
    before = [e.to_json() for e in game.events]
    with pytest.raises(NotYourTurnError):
        game.act(0, LOSE)
    assert [e.to_json() for e in game.events] == before and game.step == 1


# ------------------------------------------------------------------------------ secrecy
def test_a_pending_allocation_is_hidden_from_the_other_seat_and_spectators():
    base = new_game()
    play_round(base, WIN, LOSE)
    a, b = copy.deepcopy(base), copy.deepcopy(base)
    a.act(0, "[A20]")
    b.act(0, {"B": 3, "C": 17})
    for other in (1, None):
        assert a.view(other) == b.view(other)
        assert ([e.to_json() for e in a.events_for(other, len(base.events))]
                == [e.to_json() for e in b.events_for(other, len(base.events))])
    assert a.view(None)["public"]["submitted"] == [True, False]
    assert a.view(0)["private"]["allocation"] == {"A": 20, "B": 0, "C": 0}
    assert a.view(1)["private"]["allocation"] is None and a.view(None)["private"] == {}
    assert "A20" not in ENV.render(a.view(1)) and "A20" in ENV.render(a.view(0))
    events = a.act(1, "[C20]")
    assert resolved(events)["allocations"][0] == {"A": 20, "B": 0, "C": 0}  # revealed now


# ------------------------------------------------------------------------------ replay
def scripted_game():
    game = new_game(seed=42)
    game.act(1, "[A10 B10]", meta={"latency_ms": 5})
    game.act(0, "garbage")
    game.act(0, {"A": 7, "B": 7, "C": 6})
    play_round(game, WIN, LOSE)
    play_round(game, "[A6 B6 C8]", "[a:6, b:6, c:8]")
    return game


def test_same_actions_give_the_same_game_and_replay_reproduces_it():
    game = scripted_game()
    assert [e.to_json() for e in scripted_game().events] == [e.to_json() for e in game.events]
    record = GameRecord.from_json(json.loads(json.dumps(game.record().to_json())))
    again = ENV.replay(record)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]
    assert again.view(0) == game.view(0) and again.view(None) == game.view(None)
    assert [a.outcome for a in record.actions] == ["ok", "invalid", "ok", "ok", "ok", "ok", "ok"]
    assert record.actions[1].error.startswith("no allocation found")


def test_conformance_suite_passes():
    check_env(ENV, seeds=range(2))


# ------------------------------------------------------------------------------ text
def test_render_tells_a_commander_everything_the_reference_prompt_does():
    game = scripted_game()
    text = ENV.render(game.view(0))
    for needle in ("You are Commander Alpha", "playing against Commander Beta", "up to 20 units",
                   "fields A, B, C", "round 4 of 9", "ends early once a commander has won 5",
                   "Rounds won: Commander Alpha 1, Commander Beta 1", "Format: [A7 B7 C6]",
                   "Round 1: Commander Alpha [A7 B7 C6] vs Commander Beta [A10 B10 C0]",
                   "A: Commander Beta, B: Commander Beta, C: Commander Alpha",
                   "won by Commander Beta", "Round 3:", "no winner (equal fields)",
                   "Your move: allocate"):
        assert needle in text, needle
    spectator = ENV.render(game.view(None))
    assert "You are watching" in spectator and "You are Commander" not in spectator


def test_render_shows_the_retry_notice_and_the_end():
    game = new_game("textarena-0.7.4")
    game.act(0, "[A1]")
    text = ENV.render(game.view(0))
    assert "exactly 20 units" in text
    assert "Your last answer was rejected: you must allocate exactly 20 units" in text
    assert "another invalid answer in a row loses the game" in text
    assert "rejected" not in ENV.render(game.view(1))
    game.act(0, "[A1]")
    assert "Game over: Commander Alpha made 2 invalid moves in a row" in ENV.render(game.view(1))


# ------------------------------------------------------------------------------ metrics
def test_metrics_of_a_scripted_game():
    game = scripted_game()
    play_round(game, WIN, LOSE)
    game.act(1, "[B30]")
    game.act(1, "[B31]")  # Beta forfeits in round 5
    m = ENV.game_metrics(game.record())
    assert m["game"] == {"end": "forfeit", "rounds_played": 4, "rounds_max": 9, "early_end": 1,
                         "forfeit": 1, "had_error": 1, "draw": 0, "void": 0,
                         "forfeit_depth": 4 / 9}
    alpha, beta = m["seats"]["0"], m["seats"]["1"]
    assert (alpha["reward"], alpha["win"], alpha["loss"]) == (1.0, 1, 0)
    assert (beta["reward"], beta["win"], beta["loss"]) == (-1.0, 0, 1)
    assert (alpha["rounds_won"], beta["rounds_won"]) == (2, 1)
    # fields per round: 1-2, 2-1, 0-0 (all equal), 2-1
    assert (alpha["fields_won"], beta["fields_won"]) == (5, 4)
    assert alpha["invalid_format"] == 1 and beta["invalid_units"] == 2
    assert (alpha["invalid_caused"], alpha["invalid_witnessed"]) == (1, 2)
    assert (beta["self_forfeit"], alpha["opponent_forfeit"], alpha["clean"]) == (1, 1, 0)


def test_aggregate_metrics_over_games():
    draw = new_game("small")
    for _ in range(2):
        play_round(draw, WIN, LOSE)
        play_round(draw, LOSE, WIN)
    play_round(draw, EVEN, EVEN)
    sweep = new_game("small")
    for _ in range(3):
        play_round(sweep, LOSE, WIN)
    aborted = new_game("small")
    aborted.abort("server shut down")
    agg = ENV.aggregate_metrics(ENV.game_metrics(g.record()) for g in (draw, sweep, aborted))
    assert agg["overall"]["games"] == 3 and agg["overall"]["counted"] == 2
    assert agg["overall"]["void"] == 1 and agg["overall"]["draw_rate"] == 0.5
    assert agg["overall"]["early_end_rate"] == 0.5 and agg["overall"]["error_rate"] == 0
    assert agg["overall"]["mean_rounds_played"] == 4 and agg["overall"]["median_forfeit_depth"] is None
    assert agg["seats"]["1"]["win_rate"] == 0.5 and agg["seats"]["0"]["mean_reward"] == -0.5
    assert agg["seats"]["0"]["clean"] == 2


@given(st.text(alphabet="AaBbCcD0123456789 ,:[]\u00a0-x", max_size=40))
def test_the_fast_path_agrees_with_the_general_parser(text):
    fast, slow = _both_parsers(text)
    assert fast == slow


def _both_parsers(text):
    names = ("A", "B", "C")
    fast = syntax.parse_text(text, names)
    original = syntax._canonical
    syntax._canonical = lambda _names: re.compile(r"(?!x)x")  # never matches
    try:
        slow = syntax.parse_text(text, names)
    finally:
        syntax._canonical = original
    return fast, slow


@given(st.lists(st.integers(0, 10**13), min_size=3, max_size=3),
       st.sampled_from(["", " ", ",", ", ", " , "]), st.sampled_from(["", " ", "  "]),
       st.text(alphabet="x :]-", max_size=5), st.booleans(), st.booleans())
def test_the_fast_path_agrees_on_answers_shaped_like_allocations(units, sep, pad, prefix, lower,
                                                                 colon):
    """Answers near the fast path's shape (prefix text, padding, separators, case, colons, long
    and zero-padded counts) parse the same either way."""
    tokens = [(n.lower() if lower else n) + (":" if colon else "") + str(u)
              for n, u in zip("ABC", units, strict=True)]
    fast, slow = _both_parsers(f"{prefix}[{pad}{sep.join(tokens)}{pad}] and more [A1]")
    assert fast == slow


def test_render_of_a_cut_history_shows_only_the_rounds_kept():
    """Memoised round text must follow the rounds actually in the view (prompt builders cut)."""
    env = ColonelBlottoEnv()
    game = env.new_game(env.config("paper"), 0, 2)
    for _ in range(3):
        game.act(0, "[A10 B10]")
        game.act(1, "[C20]")
    view = game.view(0)
    full = env.render(view)
    assert "Round 1:" in full and "Round 3:" in full
    cut = {**view, "public": {**view["public"], "history": view["public"]["history"][-1:]}}
    text = env.render(cut)
    assert "Round 3:" in text and "Round 1:" not in text and "Round 2:" not in text
    assert env.render(view) == full


def test_round_lines_survive_braces_in_names():
    """Round lines come from a format string made per config; text from a view is literal."""
    game = new_game("paper")
    game.act(0, "[A10 B10]")
    game.act(1, "[C20]")
    view = json.loads(json.dumps(game.view(0)))
    view["public"]["commanders"] = ["{0} Alpha", "Beta {}"]
    text = ENV.render(view)
    assert ("Round 1: {0} Alpha [A10 B10 C0] vs Beta {} [A0 B0 C20]; fields: A: {0} Alpha, "
            "B: {0} Alpha, C: Beta {}; won by {0} Alpha; rounds won 1-0") in text


# ---------------------------------------------------------------------------- issue 9
@pytest.mark.parametrize("letter", [
    "\uff21",  # fullwidth A
    "\u0410",  # Cyrillic A
    "\u0391",  # Greek Alpha
    "\uff41",  # fullwidth a
    "\u212a",  # Kelvin sign (a case-insensitive [A-Za-z] would read it as k)
    "\u017f",  # long s
    "\u0131",  # dotless i
    "\u0130",  # I with a dot
])
def test_only_ascii_letters_name_fields(letter):
    names = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for text in (f"[{letter}20]", f"{letter}:20", f"[A1 {letter}5]"):
        for fields in (ABC, names):
            result = syntax.parse_text(text, fields)
            assert isinstance(result, syntax.ParseError) and result.category == "format", text
    assert isinstance(syntax.parse_mapping({letter: 5}, ABC), syntax.ParseError)
    game = new_game()
    events = game.act(0, f"[{letter}20]")
    assert types(events) == ["invalid_move"] and events[0].data["category"] == "format"


def test_transcript_lines_use_the_display_names_given():
    names = {0: "Ada", 1: "Commander Alpha"}.__getitem__  # a display name that is a seat name
    game = new_game("small")
    for _ in range(3):
        play_round(game, WIN, LOSE)
    lines = [ENV.describe_event(e, None, name=names) for e in game.events]
    assert "Ada has allocated" in lines
    assert any(line.startswith("Round 1: Ada A7 B7 C6  vs  Commander Alpha A6 B6 C8 → Ada "
                               "wins the round") for line in lines)
    assert game.result.reason.startswith("Commander Alpha wins 3-0")
    assert lines[-1].startswith("Game over: Ada wins 3-0")
    forfeit = new_game()
    forfeit.act(1, "nonsense")
    events = forfeit.act(1, "nonsense")
    lines = [ENV.describe_event(e, None, name=names) for e in events]
    assert lines[1] == "Commander Alpha forfeits: Commander Alpha made 2 invalid moves in a row"
    assert lines[2] == "Game over: Commander Alpha made 2 invalid moves in a row; Ada wins by " \
        "forfeit"
    assert ENV.describe_event(events[1], None) == \
        "Commander Beta forfeits: Commander Beta made 2 invalid moves in a row"


def test_win_draw_loss_read_as_before():
    win = new_game("small")
    for _ in range(3):
        play_round(win, WIN, LOSE)
    draw = new_game("small", rounds=1)
    play_round(draw, EVEN, EVEN)
    forfeit = new_game()
    forfeit.act(0, "x")
    forfeit.act(0, "x")
    for game, outcomes in ((win, ("win", "loss")), (draw, ("draw", "draw")),
                           (forfeit, ("loss", "win"))):
        seats = ENV.game_metrics(game.record())["seats"]
        for s, outcome in enumerate(outcomes):
            assert {k: seats[str(s)][k] for k in ("win", "draw", "loss")} == \
                {k: int(k == outcome) for k in ("win", "draw", "loss")}


def test_every_metric_has_a_plain_label():
    games = []
    for actions in ((WIN, LOSE), ("x", "x")):
        game = new_game("small")
        while not game.over:
            game.act(0, actions[0])
            if not game.over:
                game.act(1, actions[1])
        games.append(ENV.game_metrics(game.record()))
    keys = set().union(*(set(m["game"]).union(*m["seats"].values()) for m in games))
    agg = ENV.aggregate_metrics(games)
    keys |= set(agg["overall"]).union(*agg["seats"].values())
    labels = ENV.describe()["metric_labels"]
    assert keys <= set(labels), keys - set(labels)
    assert all(isinstance(v, str) and v for v in labels.values())


def test_help_for_people_states_the_numbers_of_the_default_preset():
    help_text = ENV.describe()["help"]
    config = ENV.config()
    assert help_text.startswith("# Colonel Blotto")
    assert f"**{config.units} units**" in help_text and f"**{config.rounds} rounds**" in help_text
    assert f"**{config.rounds_to_win} rounds**" in help_text
    assert "**+1**" in help_text and "**-1**" in help_text and "**0**" in help_text
    assert "**one**" in help_text and "void" in help_text and "## Example" in help_text
    for key in ("ctrl", "Ctrl", "press "):
        assert key not in help_text  # the TUI adds its own keys
