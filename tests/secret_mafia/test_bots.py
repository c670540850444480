"""Secret Mafia's scripted agent, from the JSON a seat receives: whole games end with legal
moves only, both sides win over many seeds, each side beats random play, and each role does its
job (the Mafia agree and deflect, the Detective claims what it found, the Doctor protects the
claimer, villagers follow a credible claim)."""

import asyncio
import json
from collections import Counter

from bots.registry import available, make_bot
from tests.secret_mafia.helpers import DEALT, ENV, actor, discuss, new, night, vote

DOC, MAFIA, DET = 0, (1, 2), 3  # seed 0


def decide(bot, game, seat, memory=None):
    view = json.loads(json.dumps(game.view(seat)))
    legal = game.legal(seat).to_json()
    action = asyncio.run(bot.decide(view, legal, {} if memory is None else memory)).action
    if legal["kind"] == "choice":
        assert action["choice"] in {o["id"] for o in legal["options"]}
    elif legal["kind"] == "form":
        options = {o["id"] for o in legal["fields"][0]["options"]}
        assert action["target"] in options
        assert len(action.get("note", "")) <= legal["fields"][1]["max_chars"]
    else:
        assert len(action["text"]) <= legal["max_chars"]
    return action


def play(seed, mafia="scripted:agent", village="scripted:agent"):
    game = new(seed)
    bots = [make_bot(mafia if game.roles[s].side == "mafia" else village, ENV.id, seed * 10 + s)
            for s in range(6)]
    memory = [{} for _ in range(6)]
    while not game.over:
        seat = actor(game)
        game.act(seat, decide(bots[seat], game, seat, memory[seat]))
    return game


def test_the_agent_is_listed():
    assert "scripted:agent" in available(ENV.id)


def test_six_agents_play_to_the_end_legally_and_both_sides_win():
    winners = Counter()
    for seed in range(100):
        game = play(seed)
        assert game.over and all(a.outcome == "ok" for a in game.actions)
        winners[game.result.sides[game.result.winners[0]]] += 1
    assert winners["mafia"] >= 25 and winners["village"] >= 25, winners


def test_each_side_beats_random_play():
    def village_wins(mafia, village):
        results = [play(s, mafia, village).result for s in range(30)]
        return sum(r.sides[r.winners[0]] == "village" for r in results)
    assert village_wins("random", "scripted:agent") > village_wins("random", "random") + 5
    assert village_wins("scripted:agent", "random") < village_wins("random", "random")


def test_the_mafia_agree_on_one_victim_every_night():
    for seed in range(20):
        game = play(seed)
        for target in (e.data for e in game.events if e.type == "mafia_target"):
            chosen = {v["target"] for v in target["votes"]}
            assert len(chosen) == 1 and not target["tied"]


def test_the_detective_claims_a_mafia_member_it_found_and_the_village_follows():
    game = new(DEALT)
    night(game, victim=4, protect=4, investigate=1)
    bots = {s: make_bot("scripted:agent", ENV.id, s) for s in range(6)}
    speeches = {}
    while game.phase == "day":
        seat = actor(game)
        speeches.setdefault(seat, decide(bots[seat], game, seat)["text"])
        game.act(seat, speeches[seat])
    assert speeches[DET] == "I am the Detective. Player 1 is Mafia. Vote with me."
    order = game.order
    if order.index(DET) < order.index(1):  # the accused answers with a counter-claim
        assert speeches[1] == "That claim is false. I am the Detective. Player 3 is Mafia."
    while game.phase == "vote":
        seat = actor(game)
        choice = decide(bots[seat], game, seat)["choice"]
        if seat in (0, 4, 5):
            assert choice == "1"  # the village follows the first claimer
        elif seat in MAFIA:
            assert choice == "3"  # the Mafia go after the claimer
        game.act(seat, {"choice": choice})
    assert not game.alive[1]


def test_the_doctor_protects_the_claimed_detective_and_the_mafia_hunt_them():
    game = new(DEALT)
    night(game, victim=4, protect=4, investigate=1)
    discuss(game, lambda seat: "I am the Detective. Player 1 is Mafia." if seat == DET else "hm")
    vote(game, lambda seat: 5 if seat != 5 else 4)
    bots = {s: make_bot("scripted:agent", ENV.id, s) for s in range(6)}
    picks = {}
    while game.phase == "night":
        seat = actor(game)
        action = decide(bots[seat], game, seat)
        picks[game.task, seat] = action.get("choice") or action.get("target")
        game.act(seat, action)
    assert picks["protect", DOC] == "3"
    assert {picks["kill", m] for m in MAFIA} == {"3"}
    assert game.alive[DET]  # saved


def test_a_villager_keeps_its_suspicion_between_speech_and_vote():
    game = new(DEALT)
    night(game, victim=4, protect=4, investigate=5)
    bot = make_bot("scripted:agent", ENV.id, 0)
    said = None
    while game.phase == "day":
        seat = actor(game)
        if seat == 5:
            said = decide(bot, game, seat)["text"]
            game.act(seat, said)
        else:
            game.act(seat, "I suspect Player 2." if seat == 0 else "hm")
    assert said == "I suspect Player 2."
    while game.phase == "vote":
        seat = actor(game)
        game.act(seat, decide(bot, game, seat) if seat == 5 else "[4]")
    assert {"seat": 5, "target": 2} in game.history[-1]["votes"]
