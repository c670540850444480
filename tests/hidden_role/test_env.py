"""`hidden-role` as a game: statements revealed a round at a time, an answer after each round
(form or typed reply, read like the paper reads a model's), nothing about the answer's worth
or the deal visible before the end, the per-round scores and the deduction revealed after it,
imported puzzles played as they are, and the metrics worked by hand."""

from __future__ import annotations

import asyncio
import json

import pytest

from bots.registry import make_bot
from engine.hidden_role.dataset import to_record
from engine.registry import get
from tests.hidden_role.helpers import FIG6, FIG14

ENV = get("hidden-role")


def imported(instance) -> object:
    return ENV.new_game(ENV.config(overrides={"instance": json.dumps(to_record(instance))}),
                        seed=1, players=1)


def play(game, spec: str) -> None:
    bot, memory = make_bot(spec, ENV.id, 0), {}
    while not game.over:
        decision = asyncio.run(bot.decide(game.view(0), game.legal(0).to_json(), memory))
        game.act(0, decision.action)


@pytest.mark.parametrize("preset", ["paper", "released-easy", "released-hard", "original"])
def test_the_solver_bot_solves_every_generated_puzzle(preset):
    for seed in range(8):
        game = ENV.new_game(ENV.config(preset), seed, 1)
        play(game, "scripted:solver")
        assert game.result.winners == (0,) and game.result.rewards == {0: 1.0}


def test_statements_arrive_a_round_at_a_time_and_answers_move_the_game_on():
    game = imported(FIG6)
    assert [len(e.data["statements"]) for e in game.events if e.type == "statements"] == [6]
    assert game.view(0)["public"]["round"] == 1
    game.act(0, {"criminal": "3", "role": "Unknown"})
    assert game.view(0)["public"]["round"] == 2
    assert len(game.view(0)["public"]["statements"]) == 12
    assert game.view(0)["private"]["my_answers"] == [{"round": 1, "criminal": 3,
                                                      "role": "Unknown"}]


def test_a_typed_reply_is_read_by_its_last_answer_and_garbage_scores_wrong():
    game = imported(FIG14)  # criminal 1, Player 1 the Criminal
    game.act(0, "I am lost.")  # no answer at all: wrong, not an invalid move
    game.act(0, "Maybe **Final Criminal Is Player 4.** My role is lunatic")
    game.act(0, "Player 4 looked guilty, but no.\nFinal Criminal Is Player 1.\nMy Role Is "
                "Criminal")
    assert all(a.outcome == "ok" for a in game.actions)
    scored = [e.data for e in game.events if e.type == "answer_scored"]
    assert [(s["crim"], s["self"], s["both"]) for s in scored] == [
        (False, False, False), (False, False, False), (True, True, True)]
    assert game.result.winners == (0,)


def test_nothing_of_the_answer_shows_before_the_end():
    """Before the end the seat and a spectator see the statements and the seat its answers,
    never the deal, the answer or whether an answer was right; at the end the deal, the scores
    by round and the explanation are revealed."""
    game = imported(FIG6)  # truth: 1 I, 2 C, 3 L, 4 R, 5 I, 6 I
    for _ in range(2):
        game.act(0, {"criminal": "2", "role": "Investigator"})
        for who in (0, None):
            text = json.dumps(game.view(who))
            assert json.dumps([r.value for r in FIG6.roles]) not in text  # the deal
            for secret in ('"true_roles"', '"answer"', '"crim"', '"both"', "explanation"):
                assert secret not in text, (who, secret)
        assert not any(e.type == "answer_scored" for e in game.events_for(0))
    game.act(0, {"criminal": "2", "role": "Investigator"})
    assert game.over and game.result.winners == (0,)
    scores = [e.data for e in game.events_for(0) if e.type == "scores"]
    assert scores[0]["rounds"][0] == {"round": 1, "crim": True, "self": True, "both": True}
    setup = game.record().setup
    assert setup["answer"] == {"criminal": 2, "role": "Investigator"}
    assert "Conclusion: the criminal is Player 2" in setup["explanation"]


def test_a_timed_out_round_is_a_wrong_answer_and_the_game_goes_on():
    game = imported(FIG6)
    game.act_default(0, "time is up")
    assert game.view(0)["public"]["round"] == 2 and not game.over
    assert [e.data["crim"] for e in game.events if e.type == "answer_scored"] == [False]


def test_an_imported_puzzle_replays_from_its_record():
    game = imported(FIG14)
    play(game, "scripted:deceived")
    again = ENV.replay(game.record())
    assert again.result == game.result and again.record().setup == game.record().setup


def test_a_bad_imported_instance_is_a_config_error_naming_the_field():
    from engine.core import ConfigError

    record = to_record(FIG6)
    del record["composition"]
    with pytest.raises(ConfigError, match="instance: composition"):
        ENV.config(overrides={"instance": json.dumps(record)})


def test_metrics_by_round_worked_by_hand():
    """Answers: round 1 wrong, round 2 criminal only, round 3 both: Crim 0/1/1, Self 0/0/1,
    Both 0/0/1. With a second game (criminal right every round, own role never): Both 1 of 2,
    Crim 2 of 2, Self 1 of 2; Crim after round 1 1 of 2; by Player 1's role as dealt."""
    game = imported(FIG6)
    game.act(0, {"criminal": "4", "role": "Unknown"})
    game.act(0, {"criminal": "2", "role": "Rumormonger"})
    game.act(0, {"criminal": "2", "role": "Investigator"})
    m = ENV.game_metrics(game.record())
    seat = m["seats"]["0"]
    assert [seat[f"crim_r{t}"] for t in (1, 2, 3)] == [0, 1, 1]
    assert [seat[f"self_r{t}"] for t in (1, 2, 3)] == [0, 0, 1]
    assert (seat["both"], seat["reward"], m["game"]["p1_role"], m["game"]["deceived"]) == \
        (1, 1.0, "Investigator", 0)
    lost = imported(FIG14)
    for _ in range(3):
        lost.act(0, {"criminal": "1", "role": "Lunatic"})  # criminal right, role wrong
    agg = ENV.aggregate_metrics([m, ENV.game_metrics(lost.record())])
    overall = agg["overall"]
    assert (overall["both"], overall["crim"], overall["self"]) == (0.5, 1.0, 0.5)
    assert overall["crim_r1"] == 0.5 and overall["deceived_baseline"] == 0.0
    assert overall["both_low"] == pytest.approx(0.0945, abs=1e-4)
    assert agg["roles"]["Criminal"] == {"games": 1, "crim": 1.0, "self": 0.0, "both": 0.0,
                                        **{f"{s}_r{t}": v for t in (1, 2, 3) for s, v in
                                           (("crim", 1.0), ("self", 0.0), ("both", 0.0))}}
