"""Three-player IPD: payoffs, scoring, reward rules, turn order, parser, privacy, replay, render,
metrics and config errors."""

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import ConfigError, GameRecord, NotYourTurnError
from engine.registry import get
from engine.three_player_ipd.actions import COOPERATE, DEFECT
from engine.three_player_ipd.rules import IPDConfig, payoff_table, terminal_rewards
from engine.three_player_ipd.syntax import MAX_SCAN_CHARS, parse_chat, parse_decisions

ENV = get("three-player-ipd")
C, D = COOPERATE, DEFECT


def new(preset="paper", seed=0, **overrides):
    return ENV.new_game(ENV.config(preset, overrides), seed, 3)


def chat_all(game, texts=("hi", "hello", "hey")):
    for seat, text in zip((0, 1, 2), texts, strict=True):
        assert game.pending() == {seat}
        game.act(seat, text)


def play_round(game, choices):
    """choices[s] is the text seat s submits at the decision turn (submitted in order 2, 0, 1)."""
    chat_all(game)
    assert game.pending() == {0, 1, 2}
    for seat in (2, 0, 1):
        game.act(seat, choices[seat])


def against_both(choice, seat):
    return " ".join(f"[{o} {choice}]" for o in range(3) if o != seat)


# ------------------------------------------------------------------------------- payoffs & scoring
def test_payoff_table_is_the_classic_matrix():
    assert payoff_table(IPDConfig()) == {(C, C): (3, 3), (C, D): (0, 5), (D, C): (5, 0),
                                         (D, D): (1, 1)}
    assert payoff_table(IPDConfig(R=4, T=9, S=-2, P=0))[C, D] == (-2, 9)


# Seat s plays choices[s] against both opponents. Worked by hand: a seat's gain is the sum over
# its two pairs (CC 3, DD 1, D vs C 5, C vs D 0).
@pytest.mark.parametrize("choices,gains", [
    ((C, C, C), [6, 6, 6]),
    ((D, C, C), [10, 3, 3]),
    ((C, D, C), [3, 10, 3]),
    ((C, C, D), [3, 3, 10]),
    ((D, D, C), [6, 6, 0]),
    ((D, C, D), [6, 0, 6]),
    ((C, D, D), [0, 6, 6]),
    ((D, D, D), [2, 2, 2]),
])
def test_every_combination_scores_each_pair(choices, gains):
    game = new(rounds=1)
    play_round(game, [against_both(choices[s], s) for s in range(3)])
    entry = game.history[0]
    assert entry["gains"] == gains and game.scores == gains
    for pair in entry["pairs"]:
        a, b = pair["players"]
        assert pair["choices"] == [choices[a], choices[b]]
        assert pair["gains"] == list(payoff_table(IPDConfig())[choices[a], choices[b]])
    assert game.over


def test_choices_are_per_opponent():
    game = new(rounds=1)
    # 0 defects on 1 only; 1 defects on 2 only; 2 cooperates with both.
    play_round(game, ["[1 defect] [2 cooperate]", "[2 defect]", ""])
    pairs = {tuple(p["players"]): (p["choices"], p["gains"]) for p in game.history[0]["pairs"]}
    assert pairs == {(0, 1): ([D, C], [5, 0]), (0, 2): ([C, C], [3, 3]),
                     (1, 2): ([D, C], [5, 0])}
    assert game.scores == [8, 5, 3]
    assert game.history[0]["decisions"] == {"0": {"1": D, "2": C}, "1": {"0": C, "2": D},
                                            "2": {"0": C, "1": C}}


def test_scores_accumulate_over_rounds():
    game = new()
    # Seat 0 defects on everyone every round; 1 and 2 cooperate: per round 0 gets 5 + 5, the
    # others 0 (against 0) + 3 (with each other).
    for r in range(1, 6):
        play_round(game, [against_both(D, 0), "", ""])
        assert game.scores == [10 * r, 3 * r, 3 * r]
        assert game.history[-1]["scores"] == game.scores
    assert game.result.rewards == {0: 1.0, 1: -1.0, 2: -1.0}
    assert game.result.winners == (0,)
    assert "Player 0 wins" in game.result.reason


# ------------------------------------------------------------------------------------ reward rules
@pytest.mark.parametrize("scores,rank,paper", [
    # three groups: -1, 0, +1 (rank); only the top earns +1 (paper)
    ([12, 9, 7], {0: 1.0, 1: 0.0, 2: -1.0}, {0: 1.0, 1: -1.0, 2: -1.0}),
    ([9, 7, 12], {0: 0.0, 1: -1.0, 2: 1.0}, {0: -1.0, 1: -1.0, 2: 1.0}),
    # two tied at the top: two groups, -1 and +1 under both rules
    ([10, 10, 7], {0: 1.0, 1: 1.0, 2: -1.0}, {0: 1.0, 1: 1.0, 2: -1.0}),
    # two tied at the bottom
    ([10, 7, 7], {0: 1.0, 1: -1.0, 2: -1.0}, {0: 1.0, 1: -1.0, 2: -1.0}),
    # all tied: a draw
    ([8, 8, 8], {0: 0.0, 1: 0.0, 2: 0.0}, {0: 0.0, 1: 0.0, 2: 0.0}),
])
def test_reward_rules_with_ties(scores, rank, paper):
    assert terminal_rewards(scores, "rank") == rank
    assert terminal_rewards(scores, "paper") == paper


def test_rank_rule_middle_seat_gets_zero_in_a_played_game():
    game = new(rounds=1)
    play_round(game, ["[1 defect] [2 cooperate]", "[2 defect]", ""])  # scores 8, 5, 3
    assert game.result.rewards == {0: 1.0, 1: 0.0, 2: -1.0}
    assert game.result.winners == (0,)


def test_paper_reward_preset_gives_every_top_seat_plus_one():
    game = new("paper-reward")
    for _ in range(5):
        # 0 and 1 cooperate with each other and exploit 2, who cooperates with both.
        play_round(game, ["[2 defect]", "[2 defect]", ""])
    assert game.scores == [40, 40, 0]
    assert game.result.rewards == {0: 1.0, 1: 1.0, 2: -1.0}
    assert game.result.winners == (0, 1) and "Player 0 and Player 1 win" in game.result.reason


def test_all_tied_is_a_draw():
    game = new(rounds=2)
    for _ in range(2):
        play_round(game, ["", "", ""])
    assert game.scores == [12, 12, 12]
    assert game.result.rewards == {0: 0.0, 1: 0.0, 2: 0.0}
    assert game.result.draw and game.result.winners == ()
    assert game.events[-1].type == "game_over" and game.events[-1].data["draw"] is True


# ------------------------------------------------------------------------------------ turn order
def test_turn_order_chat_then_simultaneous_decisions():
    game = new(communication_turns=2)
    for seat in (0, 1, 2, 0, 1, 2):
        assert game.pending() == {seat}
        assert game.legal(seat).kind == "text" and game.legal(seat).max_chars == 500
        assert game.legal((seat + 1) % 3).kind == "choice"  # nothing to do
        with pytest.raises(NotYourTurnError):
            game.act((seat + 1) % 3, "out of turn")
        game.act(seat, f"from {seat}")
    assert game.pending() == {0, 1, 2}
    space = game.legal(1)
    assert space.kind == "form" and space.syntax == "[0 defect] [2 cooperate]"
    assert [(f.name, f.kind, f.default, [o.id for o in f.options]) for f in space.fields] == \
        [("0", "choice", C, [C, D]), ("2", "choice", C, [C, D])]
    game.act(1, "[0 defect]")
    assert game.pending() == {0, 2}
    with pytest.raises(NotYourTurnError):
        game.act(1, "[0 cooperate]")
    game.act(0, "")
    game.act(2, "")
    assert game.pending() == {0} and game.round == 2


def test_event_sequence_of_a_round():
    game = new(rounds=1)
    play_round(game, ["", "", ""])
    types = [e.type for e in game.events]
    assert types == ["round_started", "chat", "chat", "chat", "decisions_open",
                     "decision_submitted", "decision_submitted", "decision_submitted",
                     "round_resolved", "game_over"]


def test_no_chat_turns_goes_straight_to_decisions():
    game = new(communication_turns=0, rounds=1)
    assert game.pending() == {0, 1, 2}
    for seat in range(3):
        game.act(seat, "")
    assert game.over and not game.pending()


def test_ten_decisions_per_player_in_the_paper_setup():
    game = new()
    while not game.over:
        game.act(min(game.pending()), "")
    per_seat = [sum(a.seat == s for a in game.actions) for s in range(3)]
    assert per_seat == [10, 10, 10]


# ------------------------------------------------------------------------------------------ chat
def test_chat_is_broadcast_and_cleaned():
    game = new(max_chat_chars=10)
    events = game.act(0, "  hello\x00\x07   there\n\nfriends, a long message  ")
    chat = [e for e in events if e.type == "chat"][0]
    assert chat.visible_to == "all"
    assert chat.data == {"round": 1, "turn": 0, "seat": 0, "text": "hello ther"}
    for seat in (None, 0, 1, 2):
        assert game.view(seat)["public"]["chat"][0]["text"] == "hello ther"


@pytest.mark.parametrize("action,text", [
    ("plain words", "plain words"),
    ("a\r\nb\tc\x0bd", "a b c d"),  # every whitespace run -> one space
    ("x\x1b[31mred\x1b[0m", "x[31mred[0m"),  # escape characters dropped, the rest kept
    ("\u202eevil\u202c text", "evil text"),  # bidirectional overrides dropped
    ("a\x85b", "a b"),  # NEL is whitespace (str.isspace), so a space
    ("a\x84\x86b", "ab"),  # the other C1 controls are dropped
    ("a\x1cb\x1fc", "a b c"),  # the information separators are whitespace too
    ("a\u2028b\u00a0\u3000c", "a b c"),
    ("a \x00 b", "a b"),  # dropping a control leaves one space
    ("a\ud800b", "ab"),  # lone surrogates are dropped
    ("fam\U0001f468\u200d\U0001f469", "fam\U0001f468\u200d\U0001f469"),  # joiners kept
    ("émoji 🙂 ok", "émoji 🙂 ok"),
    ({"text": "  structured  "}, "structured"),
    ({"1": "defect"}, ""),  # a decision form during chat is an empty message
    ({"text": 5}, ""),
    ("", ""),
])
def test_chat_cleaning(action, text):
    assert parse_chat(action, 500).text == text


def test_structured_and_empty_chat_in_a_game():
    game = new()
    game.act(0, {"text": "structured"})
    game.act(1, {"nope": 1})
    game.act(2, "")
    assert [m["text"] for m in game.chat] == ["structured", "", ""]
    assert "[Player 1] (said nothing)" in ENV.render(game.view(0))


# ---------------------------------------------------------------------------------------- parser
@pytest.mark.parametrize("text,expected", [
    ("[1 defect] [2 cooperate]", {1: D, 2: C}),
    ("I will [1 DEFECT] then [1 cooperate]", {1: C, 2: C}),  # last token wins
    ("[2 Defect] ... no, [2 defect]", {1: C, 2: D}),
    ("[0 defect] [7 defect] [2 defect]", {1: C, 2: D}),  # self and unknown seats ignored
    ("[ 1   defect ]", {1: D, 2: C}),  # spaces inside brackets
    ("[01 defect]", {1: D, 2: C}),  # leading zeros name the same seat
    ("[1defect] [2 betray] (1 defect) [1 defects]", {1: C, 2: C}),  # not tokens
    ("[-1 defect] [1.0 defect] [1234567 defect]", {1: C, 2: C}),
    ("", {1: C, 2: C}),
    ("[\u0661 defect] [\u0660\u0662 defect]", {1: D, 2: D}),  # other digits, as the reference
    ("[001 defect] [0 defect] [02 defect]", {1: D, 2: D}),  # leading zeros are skipped
    ("I defect against everyone", {1: C, 2: C}),  # words alone are not a decision
    ("[" * 10_000 + "2 defect]", {1: C, 2: D}),
    ("[1 defect]" + "x" * MAX_SCAN_CHARS, {1: C, 2: C}),  # too long: only the end is read
    ("x" * MAX_SCAN_CHARS + "[1 defect]", {1: D, 2: C}),
])
def test_decision_parser(text, expected):
    assert dict(parse_decisions(text, (1, 2)).choices) == expected


@pytest.mark.parametrize("action,expected", [
    ({"1": "defect", "2": "COOPERATE"}, {1: D, 2: C}),
    ({"1": " Defect "}, {1: D, 2: C}),
    ({"0": "defect", "2": 5, 1: "defect", "1": "betray"}, {1: C, 2: C}),  # all ignored
    ({"text": "[2 defect]"}, {1: C, 2: D}),  # a text answer sent as a mapping
    ({"text": "[2 defect]", "2": "cooperate"}, {1: C, 2: C}),  # fields override the text
    ({}, {1: C, 2: C}),
    ({"\u00b2": "defect", "\u0661": "defect", "9" * 5000: "defect", "": "defect"}, {1: C, 2: C}),
])
def test_structured_decisions(action, expected):
    assert dict(parse_decisions(action, (1, 2)).choices) == expected


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)


@given(st.dictionaries(st.one_of(st.text(max_size=8), st.sampled_from(["0", "1", "2", "text"])),
                       _JSON, max_size=5))
def test_any_structured_action_parses_in_either_phase(action):
    d = dict(parse_decisions(action, (0, 2)).choices)
    assert list(d) == [0, 2] and set(d.values()) <= {C, D}
    assert len(parse_chat(action, 50).text) <= 50


@given(st.text(max_size=400))
def test_any_text_parses_to_a_full_decision(text):
    for opponents in ((1, 2), (0, 2), (0, 1)):
        d = dict(parse_decisions(text, opponents).choices)
        assert list(d) == list(opponents) and set(d.values()) <= {C, D}
    assert len(parse_chat(text, 50).text) <= 50


@given(st.text(alphabet="[] 0123456789cooperatedefctCODEF\n\x00", max_size=200))
def test_bracket_soup_never_raises(text):
    assert len(parse_decisions(text, (0, 1)).choices) == 2


@given(st.lists(st.tuples(st.sampled_from([0, 1, 2, 3, 10]), st.sampled_from([C, D]),
                          st.sampled_from(["", " ", "  "]), st.booleans()), max_size=8),
       st.text(alphabet=" abc.,!\n", max_size=5))
def test_last_token_per_opponent_wins_and_self_is_ignored(tokens, filler):
    """Seat 1 answering: tokens naming 1 (itself) or 3/10 (no such opponent) change nothing."""
    text = filler.join(f"[{pad}{s} {c.upper() if up else c}{pad}]" for s, c, pad, up in tokens)
    expected = {0: C, 2: C}
    for s, c, _, _ in tokens:
        if s in expected:
            expected[s] = c
    assert dict(parse_decisions(text, (0, 2)).choices) == expected


# --------------------------------------------------------------------------------------- privacy
def test_pending_decisions_stay_private_until_the_round_resolves():
    game = new(rounds=2)
    chat_all(game)
    before = {s: game.view(s)["public"] for s in (None, 1, 2)}
    a, b = copy.deepcopy(game), copy.deepcopy(game)
    ea = a.act(0, "[1 defect] [2 defect]")
    eb = b.act(0, "[1 cooperate] [2 cooperate]")
    for seat in (None, 1, 2):
        assert a.view(seat) == b.view(seat)
        assert ENV.render(a.view(seat)) == ENV.render(b.view(seat))
        assert a.view(seat)["public"]["decided"] == [True, False, False]
        assert before[seat]["decided"] == [False, False, False]
    assert [e.to_json() for e in ea] == [e.to_json() for e in eb]
    assert a.view(0)["private"]["decisions"] == {"1": D, "2": D}
    assert "You decided [1 defect] [2 defect]" in ENV.render(a.view(0))
    assert "defect" not in json.dumps([e.to_json() for e in a.events])
    a.act(1, "")
    resolved = [e for e in a.act(2, "") if e.type == "round_resolved"][0]
    assert resolved.visible_to == "all"
    assert resolved.data["decisions"]["0"] == {"1": D, "2": D}
    assert a.view(0)["private"]["decisions"] is None  # the next round starts undecided


def test_views_are_snapshots():
    game = new()
    view = game.view(1)
    frozen = json.dumps(view, sort_keys=True)
    chat_all(game)
    game.act(1, "[0 defect]")
    assert json.dumps(view, sort_keys=True) == frozen


def test_spectator_view_has_no_private_part():
    game = new()
    view = game.view(None)
    assert view["seat"] is None and view["private"] == {}
    assert "You are watching" in ENV.render(view)
    assert ENV.render(game.view(1)).startswith("You are Player 1")


# ------------------------------------------------------------------------------ determinism/replay
def test_same_seed_and_actions_give_the_same_events():
    def play(seed):
        game = new(seed=seed)
        for r in range(5):
            play_round(game, [f"[1 defect] round {r}", "[2 defect]", "[0 cooperate]"])
        return [e.to_json() for e in game.events]
    assert play(3) == play(3)


def test_replay_reproduces_the_game():
    game = new(seed=3)
    for r in range(5):
        play_round(game, [f"[1 defect] round {r}", {"2": "defect"}, "[0 cooperate]"])
    record = GameRecord.from_json(json.loads(json.dumps(game.record().to_json())))
    again = ENV.replay(record)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]
    assert again.result == game.result
    assert record.rules_version == "3" and record.config["reward_rule"] == "rank"


# ---------------------------------------------------------------------------------------- render
def test_render_carries_the_reference_information():
    game = new()
    text0 = ENV.render(game.view(0))
    assert "Your turn to chat (round 1, chat turn 1 of 1)" in text0
    assert "Waiting for Player 0 to chat." in ENV.render(game.view(1))
    chat_all(game, ("let us all cooperate", "agreed", "fine"))
    text0 = ENV.render(game.view(0))
    for needle in ("You are Player 0", "lasting 5 rounds", "both cooperate -> 3 each",
                   "both defect -> 1 each", "you defect while they cooperate -> you 5, they 0",
                   "--- Round 1 of 5 ---", "[Player 1] agreed", "[Player 2] fine",
                   "Your decision turn (round 1)", "[1 cooperate] [2 defect]",
                   "'[<opponent-id> cooperate]'", "Scores: Player 0 0; Player 1 0; Player 2 0"):
        assert needle in text0, needle
    for seat in range(3):
        game.act(seat, "[1 defect]" if seat == 0 else "")
    text2 = ENV.render(game.view(2))
    assert "Round 1 results:" in text2
    assert "Player 0 vs Player 1: defect / cooperate (Player 0 +5, Player 1 +0)" in text2
    assert "Scores: Player 0 8; Player 1 3; Player 2 6" in text2
    assert "--- Round 2 of 5 ---" in text2
    assert "Your turn to chat" not in text2
    assert "Your turn to chat" in ENV.render(game.view(0))


def test_render_states_the_reward_rule():
    assert "the lowest loses (-1), a total in between gets 0" in ENV.render(new().view(0))
    assert "everyone else gets -1" in ENV.render(new("paper-reward").view(0))


def test_render_of_a_finished_game_and_of_a_json_view():
    game = new(rounds=2)
    play_round(game, [against_both(D, 0), "", ""])
    play_round(game, ["", "", ""])
    text = ENV.render(game.view(1))
    assert "Game over: Player 0 wins on final scores" in text
    assert "Your reward: -1" in text
    assert text.count("results:") == 2
    assert ENV.render(json.loads(json.dumps(game.view(1)))) == text  # no reliance on identity


def test_render_follows_the_history_as_it_grows():
    """The resolved-round text is extended round by round; it must equal a fresh render."""
    game = new()
    for r in range(5):
        for seat in range(3):
            game.act(seat, f"round {r} from {seat}")
            fresh = json.loads(json.dumps(game.view(seat)))
            assert ENV.render(game.view(seat)) == ENV.render(fresh)
        for seat in range(3):
            game.act(seat, "[2 defect]" if seat != 2 else "")
    assert ENV.render(game.view(0)).count("[Player 1] round 3 from 1") == 1


# --------------------------------------------------------------------------------------- metrics
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
    # Round 1: 0 gets 5+1, 1 gets 0+3, 2 gets 1+3; round 2: 0 gets 5+3, 1 gets 0+3, 2 gets 3+3.
    assert [s["score"] for s in (s0, s1, s2)] == [14, 6, 10]
    assert (s0["reward"], s1["reward"], s2["reward"]) == (1.0, -1.0, 0.0)
    # Seat 2 is in the middle (reward 0): a draw, neither a win nor a loss.
    assert (s0["win"], s1["loss"], s2["draw"], s2["loss"], s2["win"]) == (1, 1, 1, 0, 0)
    assert s0["messages"] == 2 and s0["clean"] == 1 and s0["invalid_caused"] == 0
    # Mutual cooperation: round 1 only pair (1,2); round 2 pairs (0,2) and (1,2) -> 3 of 6.
    assert m["game"]["mutual_cooperation_rate"] == 0.5 and m["game"]["rounds_played"] == 2
    agg = ENV.aggregate_metrics([m, ENV.game_metrics(game.record())])
    assert agg["overall"]["counted"] == 2 and agg["seats"]["0"]["win"] == 2
    assert agg["seats"]["0"]["cooperation_rate"] == 0.25
    assert agg["seats"]["1"]["mean_score"] == 6 and agg["overall"]["mutual_cooperation_rate"] == 0.5


def test_a_chat_turn_passed_in_silence_is_not_a_message_sent():
    game = new(rounds=1)
    chat_all(game, texts=("", "hello", "   "))
    m = ENV.game_metrics(game.record())
    assert [m["seats"][str(s)]["messages"] for s in range(3)] == [0, 1, 0]


def test_aborted_games_are_left_out_of_aggregates():
    game = new()
    chat_all(game)
    game.abort("a seat disconnected")
    m = ENV.game_metrics(game.record())
    assert m["game"]["void"] == 1 and m["seats"]["0"]["reward"] == 0.0
    assert m["seats"]["0"]["cooperation_rate"] is None and m["seats"]["0"]["messages"] == 1
    agg = ENV.aggregate_metrics([m])
    assert agg["overall"] == {
        "games": 1, "counted": 0, "void": 1, "mutual_cooperation_rate": None, "draw_rate": None,
        # the error block every MindGames env shares (engine/attribution.py): nothing counted
        "error_rate": None, "fatal_error_rate": None, "invalid_moves": 0, "errors_fatal": 0,
        "errors_nonfatal": 0, "errors_format": 0, "errors_rule": 0, "errors_turn_limit": 0,
        "errors_other": 0, "median_forfeit_depth": None, "error_survival_warning": False}


# ---------------------------------------------------------------------------------------- config
@pytest.mark.parametrize("overrides,needle", [
    ({"rounds": 0}, "rounds must be between 1 and 50, got 0"),
    ({"rounds": 51}, "rounds must be between 1 and 50, got 51"),
    ({"communication_turns": -1}, "communication_turns must be between 0 and 3"),
    ({"communication_turns": 4}, "communication_turns must be between 0 and 3, got 4"),
    ({"T": 2}, "T > R > P > S"),
    ({"S": 3}, "T=5 R=3 P=1 S=3"),
    ({"reward_rule": "best"}, "valid rules: rank, paper"),
    ({"max_chat_chars": 0}, "max_chat_chars must be between 1 and 500"),
    ({"max_chat_chars": 501}, "max_chat_chars must be between 1 and 500"),
    ({"colour": 1}, "valid keys"),
    ({"rounds": "5"}, "integer"),
])
def test_config_errors_say_what_is_allowed(overrides, needle):
    with pytest.raises(ConfigError) as err:
        ENV.config("paper", overrides)
    assert needle in str(err.value)


def test_presets_and_player_count():
    assert ENV.config("paper") == IPDConfig(rounds=5, communication_turns=1, reward_rule="rank")
    assert ENV.config("paper-reward").reward_rule == "paper"
    assert (ENV.config("long").rounds, ENV.config("long").communication_turns) == (10, 2)
    with pytest.raises(ConfigError, match="valid presets: paper, paper-reward, long"):
        ENV.config("nope")
    with pytest.raises(ConfigError, match="3"):
        ENV.new_game(ENV.config(), 0, 2)
    assert ENV.describe()["seat_names"] == ["Player 0", "Player 1", "Player 2"]


def test_chat_with_braces_renders_literally_in_past_and_current_rounds():
    game = new()
    for seat in range(3):
        game.act(seat, "{0} {} {round}")
    for seat in range(3):
        game.act(seat, "[0 cooperate] [1 cooperate] [2 cooperate]")
    game.act(0, "{1}{{}}")
    text = ENV.render(game.view(1))
    assert text.count("[Player 2] {0} {} {round}") == 1 and "[Player 0] {1}{{}}" in text
    assert ENV.render(json.loads(json.dumps(game.view(1)))) == text


# ------------------------------------------------------------------ issue 9: transcript lines
def test_the_round_line_says_what_each_pair_chose_and_scored():
    game = new(rounds=2)
    play_round(game, ["[1 defect] [2 cooperate]", "[2 defect]", ""])  # scores 8, 5, 3
    line = ENV.describe_event(next(e for e in game.events if e.type == "round_resolved"), None)
    assert line == ("Round 1: Player 0 defects on Player 1, who cooperates (Player 0 +5, "
                    "Player 1 +0); Player 0 and Player 2 cooperate (+3 each); Player 1 defects "
                    "on Player 2, who cooperates (Player 1 +5, Player 2 +0). This round: "
                    "Player 0 +8, Player 1 +5, Player 2 +3. Totals: Player 0 8, Player 1 5, "
                    "Player 2 3.")
    assert "tie" not in line


def test_the_round_line_says_level_only_when_the_totals_are_equal():
    game = new(rounds=2)
    play_round(game, ["[1 defect] [2 defect]", "[0 defect] [2 defect]", "[0 defect] [1 defect]"])
    line = ENV.describe_event(game.events[-1] if game.events[-1].type == "round_resolved" else
                              next(e for e in game.events if e.type == "round_resolved"), None)
    assert "Player 0 and Player 1 defect on each other (+1 each)" in line
    assert line.endswith("This round: Player 0 +2, Player 1 +2, Player 2 +2. "
                         "Totals: all three level on 2.")


def test_every_seat_is_named_by_the_namer_given():
    names = {0: "Ann", 1: "Player 0", 2: "P1"}  # display names that look like seat names
    game = new(rounds=1)
    game.act(0, "hello")
    game.act(1, "")
    game.act(2, "   ")
    for seat in (2, 0, 1):
        game.act(seat, "[0 defect]" if seat else "[2 defect]")
    lines = [ENV.describe_event(e, 0, name=names.__getitem__) for e in game.events]
    assert "Ann: hello" in lines and "Player 0 says nothing" in lines and "P1 says nothing" in lines
    assert "Ann has decided" in lines
    resolved = next(line for line in lines if line.startswith("Round 1:"))
    assert resolved.startswith("Round 1: Player 0 defects on Ann, who cooperates (Player 0 +5, "
                               "Ann +0)")
    # The game-over reason was written with the env's names; the line uses the display names.
    assert game.result.reason == "Player 1 wins on final scores: Player 0 1, Player 1 8, " \
        "Player 2 4"
    assert lines[-1] == "Game over: Player 0 wins on final scores: Ann 1, Player 0 8, P1 4"
    # Without a namer the env's own names are used.
    assert ENV.describe_event(game.events[-1], None) == f"Game over: {game.result.reason}"


# ---------------------------------------------------------------- issue 9: saying nothing
def test_an_empty_or_blank_chat_message_passes_the_turn():
    game = new()
    for seat, text in ((0, ""), (1, " \n\t\x85 "), (2, {"text": ""})):
        assert game.pending() == {seat}
        events = game.act(seat, text)
        assert [e.type for e in events][0] == "chat" and events[0].data["text"] == ""
        assert game.last_action().outcome == "ok"
        assert ENV.describe_event(events[0], None) == f"Player {seat} says nothing"
    assert game.pending() == {0, 1, 2} and game.phase == "decide"
    assert "[Player 1] (said nothing)" in ENV.render(game.view(0))


# -------------------------------------------------------- issue 9: Unicode decimal seat ids
@pytest.mark.parametrize("text,expected", [
    ("[\u0660\u0660\u0660\u0660\u0660\u06601 defect]", {1: D, 2: C}),  # Arabic-Indic zeros
    ("[\u0660\u0660\u0660\u0660\u0660\u0660\u0660\u0660\u0662 defect]", {1: C, 2: D}),
    ("[\U0001d7ce\U0001d7cf defect]", {1: D, 2: C}),  # mathematical bold 0 1
    ("[\uff11 defect] [\uff10\uff12 defect]", {1: D, 2: D}),  # fullwidth
    ("[\u09e6\u0967 defect]", {1: D, 2: C}),  # Bengali zero, Devanagari one: scripts may mix
    ("[" + "0" * 5000 + "2 defect]", {1: C, 2: D}),  # any number of leading zeros
    ("[\u0660 defect] [000 defect]", {1: C, 2: C}),  # zero is seat 0, not an opponent here
    ("[\u00b2 defect] [\u2462 defect]", {1: C, 2: C}),  # superscripts, circled: not decimal
    ("[12 defect] [" + "1" * 50 + " defect]", {1: C, 2: C}),  # no such seats
])
def test_seat_ids_in_any_decimal_digits(text, expected):
    assert dict(parse_decisions(text, (1, 2)).choices) == expected


def test_seat_zero_in_other_scripts():
    assert dict(parse_decisions("[\u0660\u0660 defect] [\uff10 defect]", (0, 2)).choices) == \
        {0: D, 2: C}


_DIGITS = [c for c in map(chr, range(0x110000)) if c.isdecimal()]


@given(st.lists(st.sampled_from(_DIGITS), min_size=1, max_size=12), st.sampled_from([C, D]))
def test_seat_ids_read_as_the_reference_reads_them(digits, choice):
    """The reference reads `\\d+` and compares int(): any decimal digits, zeros skipped."""
    text = "".join(digits)
    seat = int(text)
    expected = {1: C, 2: C}
    if seat in expected:
        expected[seat] = choice
    assert dict(parse_decisions(f"[{text} {choice}]", (1, 2)).choices) == expected


def test_the_patterns_read_exactly_the_characters_the_rules_name():
    """`\\d` is str.isdecimal (each with a decimal value), `\\s` is str.isspace, and chat drops
    exactly the non-whitespace controls, the surrogates and the bidirectional controls."""
    import re
    import unicodedata

    from engine.chat import DROP as _DROP
    from engine.chat import SPACE as _SPACE
    bidi = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}
    digit = re.compile(r"\d")
    for code in range(0x110000):
        c = chr(code)
        assert bool(digit.fullmatch(c)) == c.isdecimal()
        if c.isdecimal():
            assert unicodedata.decimal(c) == int(c)
        assert bool(_SPACE.fullmatch(c)) == c.isspace()
        dropped = (unicodedata.category(c) in ("Cc", "Cs") and not c.isspace()) or code in bidi
        assert bool(_DROP.fullmatch(c)) == dropped, hex(code)


# ---------------------------------------------------------------- issue 9: chat cleaning
def reference_chat(text: str, max_chars: int) -> str:
    """The documented rule, written plainly: whitespace -> space, controls, surrogates and bidi
    controls dropped, runs of spaces collapsed, ends trimmed; then cut (and a trailing space the
    cut leaves trimmed)."""
    import unicodedata
    bidi = {"\u061c", "\u200e", "\u200f", *map(chr, range(0x202a, 0x202f)),
            *map(chr, range(0x2066, 0x206a))}
    out = []
    for c in text:
        if c.isspace():
            if not out or out[-1] != " ":
                out.append(" ")
        elif unicodedata.category(c) in ("Cc", "Cs") or c in bidi:
            continue
        else:
            out.append(c)
    return "".join(out).strip(" ")[:max_chars].rstrip(" ")


_CHAT_CHARS = st.one_of(
    st.sampled_from(list(" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u2029\u202f"
                         "\u205f\u3000\x00\x07\x1b\x7f\x84\x86\x9f\u061c\u200e\u200f\u202a"
                         "\u202e\u2066\u2069\u200d\ufe0f\ud800\udfff")),
    st.characters(), st.sampled_from(list("ab é🙂")))


@given(st.text(alphabet=_CHAT_CHARS, max_size=300), st.integers(1, 60))
def test_chat_cleaning_follows_the_documented_rule(text, max_chars):
    assert parse_chat(text, max_chars).text == reference_chat(text, max_chars)


@given(st.integers(0, 20_000), st.sampled_from([" ", "\n", "\x00", "\x85", "\u202e", " \x07"]),
       st.integers(1, 600))
def test_long_runs_before_the_text_never_cut_it(run, junk, max_chars):
    text = junk * run + "  hello   there " + "x" * 700
    expected = reference_chat(text, max_chars)
    assert parse_chat(text, max_chars).text == expected
    assert expected.startswith("hello"[:max_chars])


@given(st.text(alphabet=_CHAT_CHARS, max_size=120), st.integers(1, 30))
def test_cleaning_in_small_pieces_gives_the_same_text(text, max_chars):
    """Pieces may cut a run of spaces or controls anywhere: the result never changes."""
    from engine import chat
    expected = reference_chat(text, max_chars)
    saved = chat.CHAT_PIECE
    try:
        for piece in (1, 2, 3, 7):
            chat.CHAT_PIECE = piece
            assert chat.clean_chat(text, max_chars) == expected, piece
    finally:
        chat.CHAT_PIECE = saved


def test_chat_after_a_long_blank_start_is_kept():
    """The issue: 2,064 whitespace characters, then text (the raw text was cut first)."""
    assert parse_chat(" " * 2064 + "I cooperate", 500).text == "I cooperate"
    assert parse_chat("\x00" * 10_000 + "hi\n\nthere", 500).text == "hi there"


def test_a_cut_drops_the_space_it_leaves_at_the_end():
    assert parse_chat("hello world", 6).text == "hello"


def test_huge_chat_is_read_only_as_far_as_needed():
    text = "word " * 2_000_000  # 10 MB
    assert parse_chat(text, 500).text == ("word " * 100).strip()


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80))
def test_the_fast_path_agrees_with_the_cleaning(text):
    from engine.chat import clean_chat
    for max_chars in (5, 80):
        assert parse_chat(text, max_chars).text == clean_chat(text, max_chars) \
            == reference_chat(text, max_chars)


# --------------------------------------------------------------- issue 9: outcome and labels
@pytest.mark.parametrize("rule,choices,outcomes", [
    # scores 8, 5, 3 under the rank rule: +1, 0, -1 -> win, draw (middle place), loss
    ("rank", ["[1 defect] [2 cooperate]", "[2 defect]", ""], ("win", "draw", "loss")),
    ("paper", ["[1 defect] [2 cooperate]", "[2 defect]", ""], ("win", "loss", "loss")),
    ("rank", ["", "", ""], ("draw", "draw", "draw")),  # all tied
    ("rank", ["[2 defect]", "[2 defect]", ""], ("win", "win", "loss")),  # two tied on top
])
def test_win_draw_loss(rule, choices, outcomes):
    game = new(rounds=1, reward_rule=rule)
    play_round(game, choices)
    seats = ENV.game_metrics(game.record())["seats"]
    for s, outcome in enumerate(outcomes):
        got = {k: seats[str(s)][k] for k in ("win", "draw", "loss")}
        assert got == {k: int(k == outcome) for k in ("win", "draw", "loss")}, (s, got)
    agg = ENV.aggregate_metrics([ENV.game_metrics(game.record())])
    assert [agg["seats"][str(s)]["draw"] for s in range(3)] == \
        [int(o == "draw") for o in outcomes]


def test_every_metric_has_a_plain_label():
    game = new(rounds=2)
    play_round(game, ["[1 defect]", "", ""])
    play_round(game, ["", "[0 defect]", ""])
    m = ENV.game_metrics(game.record())
    keys = set(m["game"]).union(*m["seats"].values())
    agg = ENV.aggregate_metrics([m])
    keys |= set(agg["overall"]).union(*agg["seats"].values())
    labels = ENV.describe()["metric_labels"]
    assert keys <= set(labels), keys - set(labels)
    assert labels["draw"] and labels["cooperation_rate_vs_2"].startswith("Cooperation with")


def test_help_for_people_states_the_numbers_of_the_default_preset():
    help_text = ENV.describe()["help"]
    assert help_text == ENV.help and help_text.startswith("# Three-player")
    config = ENV.config()
    assert f"**{config.rounds} rounds**" in help_text
    for payoff in ("you 3, they 3", "you 0, they 5", "you 5, they 0", "you 1, they 1"):
        assert payoff in help_text
    assert "**+1**" in help_text and "**-1**" in help_text and "**0**" in help_text
    assert "void" in help_text and "## Example" in help_text
    assert "[1 defect] [2 cooperate]" in help_text
