"""Scripted baselines play through the real engine, from the JSON a seat would receive."""

import asyncio
import json

import pytest

from bots.registry import available, make_bot
from engine.registry import get


def play(env_id, specs, seed, preset=None):
    """Play one game; bots see only their own JSON view and legal space. Returns the game."""
    env = get(env_id)
    game = env.new_game(env.config(preset), seed, len(specs))
    bots = [make_bot(spec, env_id, seed * 10 + i) for i, spec in enumerate(specs)]
    memory = [{} for _ in specs]
    while not game.over:
        for seat in sorted(game.pending()):
            view = json.loads(json.dumps(game.view(seat)))
            legal = game.legal(seat).to_json()
            decision = asyncio.run(bots[seat].decide(view, legal, memory[seat]))
            events = game.act(seat, decision.action)
            assert not [e for e in events if e.type == "invalid_move"], decision.action
            if game.over:
                break
    return game


def test_adaptive_blotto_beats_random_clearly():
    wins = sum(play("colonel-blotto", ["scripted:adaptive", "random"], s).result.rewards[0] > 0
               for s in range(60))
    assert wins >= 50


@pytest.mark.parametrize("preset", ["large", "extreme", "textarena-0.7.4"])
def test_adaptive_blotto_handles_every_preset_and_beats_uniform(preset):
    game = play("colonel-blotto", ["scripted:uniform", "scripted:adaptive"], 1, preset)
    assert game.result.winners == (1,)


def test_adaptive_exploits_a_fixed_pattern():
    bot = make_bot("scripted:adaptive", "colonel-blotto", 3)
    fixed = {"A": 10, "B": 10, "C": 0}
    history = [{"allocations": [dict(fixed), {"A": 0, "B": 0, "C": 0}]} for _ in range(3)]
    plan = bot.allocate(["A", "B", "C"], 20, history, 0)
    # To take two of three fields it must beat 10 on A or B and win C.
    wins = sum(plan[f] > fixed[f] for f in "ABC")
    assert wins >= 2 and sum(plan.values()) == 20


def test_adaptive_is_deterministic_given_the_seed():
    a = play("colonel-blotto", ["scripted:adaptive", "scripted:adaptive"], 5)
    b = play("colonel-blotto", ["scripted:adaptive", "scripted:adaptive"], 5)
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]


def ipd_view(seat, history, chat=(), round_=None):
    return {"seat": seat, "public": {"history": history, "chat": list(chat),
                                     "round": round_ or len(history) + 1}}


def decisions(d):
    return {"decisions": {s: dict(v) for s, v in d.items()}}


DECIDE = {"kind": "form", "fields": [{"name": "1"}, {"name": "2"}]}


def decide(spec, view):
    return asyncio.run(make_bot(spec, "three-player-ipd").decide(view, DECIDE, {})).action


def test_tit_for_tat_retaliates_then_forgives():
    coop = {"0": {"1": "cooperate", "2": "cooperate"}, "1": {"0": "cooperate", "2": "cooperate"},
            "2": {"0": "cooperate", "1": "cooperate"}}
    betrayal = json.loads(json.dumps(coop))
    betrayal["1"]["0"] = "defect"
    assert decide("scripted:tit-for-tat", ipd_view(0, [])) == {"1": "cooperate",
                                                               "2": "cooperate"}
    assert decide("scripted:tit-for-tat", ipd_view(0, [decisions(betrayal)])) == \
        {"1": "defect", "2": "cooperate"}
    assert decide("scripted:tit-for-tat", ipd_view(0, [decisions(betrayal), decisions(coop)])) \
        == {"1": "cooperate", "2": "cooperate"}
    # Grim never forgives.
    assert decide("scripted:grim", ipd_view(0, [decisions(betrayal), decisions(coop)])) == \
        {"1": "defect", "2": "cooperate"}


def test_tit_for_tat_defects_on_a_threat_in_chat():
    chat = [{"round": 1, "seat": 2, "text": "Player 0, I am going to defect on you."},
            {"round": 1, "seat": 1, "text": "Let us all cooperate."}]
    assert decide("scripted:tit-for-tat", ipd_view(0, [], chat)) == {"1": "cooperate",
                                                                     "2": "defect"}
    everyone = [{"round": 1, "seat": 1, "text": "I'll betray everyone this round"}]
    assert decide("scripted:tit-for-tat", ipd_view(0, [], everyone))["1"] == "defect"
    old = [{"round": 1, "seat": 1, "text": "I'll betray everyone"}]
    assert decide("scripted:tit-for-tat", ipd_view(0, [], old, round_=2))["1"] == "cooperate"


def test_tit_for_tat_punishes_always_defect_over_a_full_game():
    game = play("three-player-ipd", ["scripted:tit-for-tat", "scripted:always-defect",
                                     "scripted:grim"], 2)
    last = game.history[-1]["decisions"]
    assert last["0"]["1"] == "defect" and last["0"]["2"] == "cooperate"
    assert game.result.rewards[1] == -1.0
    assert game.chat[0]["text"].startswith("I play tit-for-tat")


def test_every_env_lists_its_scripted_bots():
    assert set(available("colonel-blotto")) >= {"random", "scripted:adaptive", "scripted:uniform"}
    assert set(available("three-player-ipd")) >= {"scripted:tit-for-tat", "scripted:grim",
                                                  "scripted:always-defect"}
