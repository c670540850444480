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


STYLES = ("scripted:cautious", "scripted:aggressive", "scripted:quiet", "scripted:loud")


def first_day(style_for):
    """Seed DEALT's first day after a quiet night (Player 4 killed, the Detective clears
    Player 5), each seat played by `style_for(seat)`: the speeches and the votes."""
    game = new(DEALT)
    night(game, victim=4, protect=5, investigate=5)
    bots = {s: make_bot(style_for(s), ENV.id, s) for s in range(6)}
    speeches, votes = {}, {}
    while game.phase == "day":
        seat = actor(game)
        speeches.setdefault(seat, []).append(decide(bots[seat], game, seat)["text"])
        game.act(seat, speeches[seat][-1])
    while game.phase == "vote":
        seat = actor(game)
        votes[seat] = decide(bots[seat], game, seat)["choice"]
        game.act(seat, {"choice": votes[seat]})
    return speeches, votes


def test_the_styled_players_are_listed_and_play_whole_games_legally():
    assert set(STYLES) <= set(available(ENV.id))
    for style in STYLES:
        for seed in range(10):
            game = play(seed, style, style)
            assert game.over and all(a.outcome == "ok" for a in game.actions)


def test_a_cautious_village_accuses_nobody_without_evidence():
    speeches, _ = first_day(lambda s: "scripted:agent" if s in MAFIA else "scripted:cautious")
    for seat in (0, 3, 5):  # the Detective only cleared Player 5: nothing to claim
        assert all("Player" not in text for text in speeches[seat]), speeches[seat]
    agents, _ = first_day(lambda s: "scripted:agent")
    assert any("suspect Player" in t for s in (0, 3, 5) for t in agents[s])  # the agent does


def test_an_aggressive_village_names_a_suspect_at_once_and_votes_for_them():
    speeches, votes = first_day(
        lambda s: "scripted:agent" if s in MAFIA else "scripted:aggressive")
    assert speeches[DET][0] == "I am the Detective. Player 5 is clear. Vote with me."
    for seat in (0, 5):
        first = speeches[seat][0]
        assert first.startswith("I suspect Player ") and "I vote for Player" in first
        named = first.split()[3].rstrip(".")
        if named != "5":  # it keeps its suspect, unless the Detective cleared them
            assert votes[seat] == named
        assert votes[seat] != "5"


def test_a_quiet_mafia_names_nobody_and_a_loud_one_claims_the_detective():
    quiet, _ = first_day(lambda s: "scripted:quiet" if s in MAFIA else "scripted:agent")
    assert all("Player" not in t and "Detective" not in t for m in MAFIA for t in quiet[m])
    loud, votes = first_day(lambda s: "scripted:loud" if s in MAFIA else "scripted:agent")
    claims = [t for m in MAFIA for t in loud[m] if t.startswith("I am the Detective.")]
    assert len(claims) == 1  # one member claims; the other backs the same villager
    pushed = claims[0].split()[5]
    assert all(f"Player {pushed} is Mafia." in t for m in MAFIA for t in loud[m])
    assert votes[1] == votes[2] == pushed
