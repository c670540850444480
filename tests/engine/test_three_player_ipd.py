"""Three-player IPD rules, parser, privacy, replay and metrics."""

import copy
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import ConfigError, GameRecord, NotYourTurnError
from engine.registry import get
from engine.three_player_ipd.actions import COOPERATE, DEFECT
from engine.three_player_ipd.rules import IPDConfig, pair_payoff, terminal_rewards
from engine.three_player_ipd.syntax import parse_chat, parse_decisions

ENV = get("three-player-ipd")


def new(preset="paper", seed=0, **overrides):
    return ENV.new_game(ENV.config(preset, overrides), seed, 3)


def chat_all(game, texts=("hi", "hello", "hey")):
    for seat, text in zip((0, 1, 2), texts, strict=True):
        assert game.pending() == {seat}
        game.act(seat, text)


def play_round(game, choices):
    """choices[s] is the text seat s submits at the decision turn."""
    chat_all(game)
    assert game.pending() == {0, 1, 2}
    for seat in (2, 0, 1):
        game.act(seat, choices[seat])


def test_pair_payoffs_match_the_classic_matrix():
    c = IPDConfig()
    assert pair_payoff(COOPERATE, COOPERATE, c) == (3, 3)
    assert pair_payoff(DEFECT, DEFECT, c) == (1, 1)
    assert pair_payoff(DEFECT, COOPERATE, c) == (5, 0)
    assert pair_payoff(COOPERATE, DEFECT, c) == (0, 5)


@pytest.mark.parametrize("choices", list(itertools.product((COOPERATE, DEFECT), repeat=3)))
def test_every_combination_scores_each_pair(choices):
    """Seat s plays choices[s] against both opponents; check gains pair by pair."""
    game = new(rounds=1)
    texts = [" ".join(f"[{o} {choices[s]}]" for o in range(3) if o != s) for s in range(3)]
    play_round(game, texts)
    expected = [0, 0, 0]
    for a, b in itertools.combinations(range(3), 2):
        ga, gb = pair_payoff(choices[a], choices[b], IPDConfig())
        expected[a] += ga
        expected[b] += gb
    assert game.history[0]["gains"] == expected
    assert game.scores == expected
    assert game.over


def test_scores_accumulate_and_rank_rewards_follow_textarena():
    game = new()
    # Seat 0 defects on everyone every round; 1 and 2 cooperate.
    for _ in range(5):
        play_round(game, ["[1 defect] [2 defect]", "", ""])
    assert game.scores == [50, 15, 15]
    assert game.result.rewards == {0: 1.0, 1: -1.0, 2: -1.0}
    assert game.result.winners == (0,)


@pytest.mark.parametrize("scores,rank,paper", [
    ([10, 10, 7], {0: 1.0, 1: 1.0, 2: -1.0}, {0: 1.0, 1: 1.0, 2: -1.0}),
    ([12, 9, 7], {0: 1.0, 1: 0.0, 2: -1.0}, {0: 1.0, 1: -1.0, 2: -1.0}),
    ([7, 9, 9], {0: -1.0, 1: 1.0, 2: 1.0}, {0: -1.0, 1: 1.0, 2: 1.0}),
    ([8, 8, 8], {0: 0.0, 1: 0.0, 2: 0.0}, {0: 0.0, 1: 0.0, 2: 0.0}),
])
def test_reward_rules_with_ties(scores, rank, paper):
    assert terminal_rewards(scores, "rank") == rank
    assert terminal_rewards(scores, "paper") == paper


def test_paper_reward_preset_uses_the_paper_rule():
    game = new("paper-reward")
    for _ in range(5):
        play_round(game, ["[2 defect]", "[2 defect]", ""])
    # 0 and 1 cooperate with each other and exploit 2, who cooperates with both.
    assert game.scores == [40, 40, 0]
    assert game.result.rewards == {0: 1.0, 1: 1.0, 2: -1.0}


def test_all_tied_is_a_draw():
    game = new(rounds=2)
    for _ in range(2):
        play_round(game, ["", "", ""])
    assert game.result.rewards == {0: 0.0, 1: 0.0, 2: 0.0}
    assert game.result.draw and game.result.winners == ()


def test_turn_order_chat_then_simultaneous_decisions():
    game = new(communication_turns=2)
    for seat in (0, 1, 2, 0, 1, 2):
        assert game.pending() == {seat}
        assert game.legal(seat).kind == "text"
        with pytest.raises(NotYourTurnError):
            game.act((seat + 1) % 3, "out of turn")
        game.act(seat, f"from {seat}")
    assert game.pending() == {0, 1, 2}
    assert game.legal(1).kind == "form"
    assert [f.name for f in game.legal(1).fields] == ["0", "2"]
    game.act(1, "[0 defect]")
    assert game.pending() == {0, 2}
    with pytest.raises(NotYourTurnError):
        game.act(1, "[0 cooperate]")


def test_no_chat_turns_goes_straight_to_decisions():
    game = new(communication_turns=0, rounds=1)
    assert game.pending() == {0, 1, 2}
    for seat in range(3):
        game.act(seat, "")
    assert game.over


def test_chat_is_broadcast_and_cleaned():
    game = new(max_chat_chars=10)
    events = game.act(0, "  hello\x00\x07   there\n\nfriends, a long message  ")
    chat = [e for e in events if e.type == "chat"][0]
    assert chat.visible_to == "all"
    assert chat.data["text"] == "hello ther"
    assert game.view(2)["public"]["chat"][0]["text"] == "hello ther"
    game.act(1, {"text": "structured"})
    game.act(2, {"nope": 1})
    assert [m["text"] for m in game.chat] == ["hello ther", "structured", ""]


@pytest.mark.parametrize("text,expected", [
    ("[1 defect] [2 cooperate]", {1: DEFECT, 2: COOPERATE}),
    ("I will [1 DEFECT] then [1 cooperate]", {1: COOPERATE, 2: COOPERATE}),  # last wins
    ("[0 defect] [7 defect] [2 defect]", {1: COOPERATE, 2: DEFECT}),  # self/unknown ignored
    ("[ 1   defect ]", {1: DEFECT, 2: COOPERATE}),
    ("[1defect] [2 betray] (1 defect)", {1: COOPERATE, 2: COOPERATE}),
    ("", {1: COOPERATE, 2: COOPERATE}),
    ("[" * 10000 + "2 defect]", {1: COOPERATE, 2: DEFECT}),
])
def test_decision_parser(text, expected):
    assert dict(parse_decisions(text, (1, 2)).choices) == expected


def test_structured_decisions():
    assert dict(parse_decisions({"1": "defect", "2": "COOPERATE"}, (1, 2)).choices) == \
        {1: DEFECT, 2: COOPERATE}
    assert dict(parse_decisions({"0": "defect", "2": 5, 1: "defect"}, (1, 2)).choices) == \
        {1: COOPERATE, 2: COOPERATE}


@given(st.text(max_size=300))
def test_any_text_parses_to_a_full_decision(text):
    d = dict(parse_decisions(text, (0, 2)).choices)
    assert set(d) == {0, 2} and set(d.values()) <= {COOPERATE, DEFECT}
    assert len(parse_chat(text, 50).text) <= 50


@given(st.lists(st.tuples(st.sampled_from([0, 1, 2, 3]), st.sampled_from([COOPERATE, DEFECT])),
                max_size=8), st.text(alphabet=" abc.,!", max_size=5))
def test_last_token_per_opponent_wins(tokens, filler):
    text = filler.join(f"[{s} {c}]" for s, c in tokens)
    expected = {1: COOPERATE, 2: COOPERATE}
    for s, c in tokens:
        if s in expected:
            expected[s] = c
    assert dict(parse_decisions(text, (1, 2)).choices) == expected


def test_pending_decisions_stay_private_until_the_round_resolves():
    game = new(rounds=2)
    chat_all(game)
    before = {s: game.view(s)["public"] for s in (None, 1, 2)}
    a, b = copy.deepcopy(game), copy.deepcopy(game)
    ea = a.act(0, "[1 defect] [2 defect]")
    eb = b.act(0, "[1 cooperate] [2 cooperate]")
    for seat in (None, 1, 2):
        assert a.view(seat) == b.view(seat)
        assert a.view(seat)["public"]["decided"] == [True, False, False]
        assert before[seat]["decided"] == [False, False, False]
    assert [e.to_json() for e in ea] == [e.to_json() for e in eb]
    assert a.view(0)["private"]["decisions"] == {"1": DEFECT, "2": DEFECT}
    a.act(1, "")
    resolved = [e for e in a.act(2, "") if e.type == "round_resolved"][0]
    assert resolved.visible_to == "all" and resolved.data["decisions"]["0"] == {"1": DEFECT,
                                                                              "2": DEFECT}


def test_replay_reproduces_the_game():
    game = new(seed=3)
    for r in range(5):
        play_round(game, [f"[1 defect] round {r}", "[2 defect]", "[0 cooperate]"])
    again = ENV.replay(GameRecord.from_json(game.record().to_json()))
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]
    assert again.result == game.result


def test_render_carries_the_reference_information():
    game = new()
    chat_all(game, ("let us all cooperate", "agreed", "fine"))
    text0 = ENV.render(game.view(0))
    for needle in ("You are Player 0", "5 rounds", "both cooperate -> 3", "both defect -> 1",
                   "you 5, they 0", "[Player 1] agreed", "Your decision turn", "[1 cooperate]"):
        assert needle in text0, needle
    for seat in range(3):
        game.act(seat, "[1 defect]" if seat == 0 else "")
    text2 = ENV.render(game.view(2))
    assert "Round 1 results:" in text2
    assert "Player 0 vs Player 1: defect / cooperate (Player 0 +5, Player 1 +0)" in text2
    assert "Scores: Player 0 8; Player 1 3; Player 2 6" in text2
    assert "Your turn to chat" not in ENV.render(game.view(2))
    assert "Your turn to chat" in ENV.render(game.view(0))


def test_metrics_report_cooperation_rates():
    game = new(rounds=2)
    play_round(game, ["[1 defect] [2 defect]", "", "[0 defect]"])
    play_round(game, ["[1 defect]", "", ""])
    m = ENV.game_metrics(game.record())
    s0, s1, s2 = (m["seats"][str(s)] for s in range(3))
    assert s0["cooperation_rate_vs_1"] == 0.0 and s0["cooperation_rate_vs_2"] == 0.5
    assert s0["cooperation_rate"] == 0.25
    assert s2["cooperation_rate_vs_0"] == 0.5 and s2["cooperation_rate_vs_1"] == 1.0
    assert s1["cooperation_rate"] == 1.0
    assert s0["messages"] == 2 and s0["clean"] == 1 and s0["invalid_caused"] == 0
    # Mutual cooperation: round 1 only pair (1,2); round 2 pairs (0,2) and (1,2) -> 3 of 6.
    assert m["game"]["mutual_cooperation_rate"] == 0.5
    agg = ENV.aggregate_metrics([game.record(), game.record()])
    assert agg["overall"]["counted"] == 2 and agg["seats"]["0"]["win"] == 2


@pytest.mark.parametrize("overrides,needle", [
    ({"rounds": 0}, "rounds"), ({"T": 2}, "T > R > P > S"), ({"reward_rule": "best"}, "rank, paper"),
    ({"max_chat_chars": 0}, "max_chat_chars"), ({"colour": 1}, "valid keys"),
    ({"rounds": "5"}, "integer"),
])
def test_config_errors_say_what_is_allowed(overrides, needle):
    with pytest.raises(ConfigError, match=needle.replace("(", r"\(")) as err:
        ENV.config("paper", overrides)
    assert needle in str(err.value)


def test_presets_and_player_count():
    assert ENV.config("paper") == IPDConfig()
    assert ENV.config("textarena-0.7.4").communication_turns == 3
    with pytest.raises(ConfigError, match="3"):
        ENV.new_game(ENV.config(), 0, 2)
