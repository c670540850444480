"""Who sees what in Secret Mafia: no role, night vote, protection or investigation reaches the
wrong seat or a spectator, in events, views or rendered text, and nothing public depends on
what happened at night until dawn says so."""

import asyncio
import json
import random

from bots.registry import make_bot
from engine.conformance import play_random
from tests.secret_mafia.helpers import DEALT, ENV, actor, discuss, new, night, vote

DOC, MAFIA, DET = 0, (1, 2), 3  # seed 0
PRIVATE_KEYS = {"role", "side", "alive", "task", "targets"}
ROLE_KEYS = {"Mafia": {"teammates", "night_votes", "nights"}, "Doctor": {"protections"},
             "Detective": {"investigations"}, "Villager": set()}
OWN_EVENTS = {"mafia_vote": "Mafia", "mafia_target": "Mafia", "protected": "Doctor",
              "investigated": "Detective"}


def scripted_game(seed: int):
    game = new(seed)
    bots = [make_bot("scripted:agent", ENV.id, seed * 10 + s) for s in range(6)]
    while not game.over:
        seat = actor(game)
        decision = asyncio.run(bots[seat].decide(game.view(seat), game.legal(seat).to_json(), {}))
        game.act(seat, decision.action)
    return game


def games():
    for seed in range(6):
        yield play_random(ENV, "paper", 6, seed, checks=False)
        yield play_random(ENV, "paper-corrected", 6, seed, checks=False, garbage_rate=0.3)
        yield scripted_game(seed)


def test_every_private_event_reaches_only_the_seats_it_belongs_to():
    for game in games():
        roles = [r.name for r in game.roles]
        for e in game.events:
            if e.type in OWN_EVENTS:
                assert all(roles[s] == OWN_EVENTS[e.type] for s in e.visible_to), e
            elif e.type == "role_assigned":
                assert e.visible_to == (e.data["seat"],)
            elif e.type == "night_resolved":
                assert e.visible_to == ()
            elif e.visible_to != "all":  # a retry notice; a night's notices: the seat and team
                seat = e.data["seat"]
                team = set(game.mafia) if seat in game.mafia else {seat}
                assert set(e.visible_to) <= team, e
                assert e.visible_to == (seat,) or e.clock["phase"] == "night", e
        for e in game.events_for(None):
            assert e.visible_to == "all"


def test_no_view_shows_another_seats_role_or_night_before_the_end():
    for game in games():
        if not game.over:
            continue
        record = game.record()
        replay = ENV.new_game(ENV.Config.from_json(record.config), record.seed, 6)
        for a in record.actions[:-1]:  # every state but the last (the roles are out then)
            for seat in range(6):
                view = replay.view(seat)
                private = view["private"]
                assert set(private) <= PRIVATE_KEYS | ROLE_KEYS[private["role"]]
                others = {r.name for r in replay.roles if r.side != replay.roles[seat].side}
                text = json.dumps(view)
                assert not any(json.dumps(name) in text for name in others), (seat, text)
            spectator = replay.view(None)
            assert spectator["private"] == {} and "setup" not in spectator["public"]
            _redo(replay, a)


def _redo(game, a):
    if a.outcome == "defaulted":
        game.act_default(a.seat, a.error or "")
    elif a.outcome == "resigned":
        game.resign(a.seat, a.error or "")
    else:
        game.act(a.seat, a.raw)


def test_the_public_view_does_not_depend_on_the_doctor_or_detective():
    one, two = new(DEALT), new(DEALT)
    night(one, victim=4, protect=5, investigate=1)
    night(two, victim=4, protect=3, investigate=2)
    assert one.view(None) == two.view(None)
    for seat in (1, 2, 4, 5):  # everyone but the Doctor and the Detective
        assert one.view(seat) == two.view(seat)
        assert [e.to_json() for e in one.events_for(seat)] == \
            [e.to_json() for e in two.events_for(seat)]


def test_nobody_else_learns_who_acts_at_night():
    game = new(DEALT)
    while game.phase == "night":
        seat = actor(game)
        public = game.view(None)["public"]
        assert public["speaker"] is None and public["voter"] is None
        for other in range(6):
            if other != seat:
                assert game.view(other)["private"]["task"] is None
        game.act(seat, f"[{game.targets(seat)[0]}]")


def test_rendered_text_keeps_secrets_to_their_seats():
    game = new(DEALT)
    night(game, victim=4, protect=5, investigate=1)
    texts = {seat: ENV.render(game.view(seat)) for seat in (None, *range(6))}
    assert "Player 1 IS a Mafia member" in texts[DET]
    assert all("IS a Mafia member" not in t for s, t in texts.items() if s != DET)
    assert "Your fellow Mafia: Player 2" in texts[1]
    assert all("fellow Mafia" not in t for s, t in texts.items() if s not in MAFIA)
    assert "you protected Player 5" in texts[DOC]
    assert all("you protected" not in t for s, t in texts.items() if s != DOC)
    assert "Your role" not in texts[None] and "Your role: Villager" in texts[4]


def test_a_dead_mafia_member_leaves_the_night_channel():
    game = new(DEALT)
    night(game, victim=4, protect=4)
    discuss(game)
    vote(game, lambda seat: 1 if seat != 1 else 5)
    assert not game.alive[1] and not game.over
    night(game, victim=5, protect=5)
    tonight = [e for e in game.events if e.type == "mafia_vote" and e.data["day"] == 2]
    assert tonight and all(e.visible_to == (2,) for e in tonight)
    assert "night_votes" not in game.view(1)["private"]
    assert game.view(1)["private"]["teammates"] == [2]  # what it knew stays known


def test_views_are_json_snapshots():
    game = new(3)
    rng = random.Random(3)
    kept = []
    while not game.over:
        seat = actor(game)
        kept.append((game.view(seat), json.dumps(game.view(seat), sort_keys=True)))
        targets = game.targets(seat)
        game.act(seat, "words" if game.task == "speak" else f"[{rng.choice(targets)}]")
    assert all(json.dumps(v, sort_keys=True) == text for v, text in kept)
