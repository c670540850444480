"""Scripted baselines play through the real engine, from the JSON a seat would receive."""

import asyncio
import json
import random
from collections.abc import Callable

import pytest

from bots.base import Bot, Decision
from bots.registry import available, make_bot
from bots.scripted.colonel_blotto import _draw, expected_outcomes, round_outcome
from bots.scripted.three_player_ipd import EVERYONE, threat_targets, threatens
from engine.registry import get
from engine.sampling import random_action

BLOTTO, IPD = "colonel-blotto", "three-player-ipd"


class Puppet(Bot):
    """A test opponent whose move is a function of its view (and legal space)."""

    identity = "puppet"

    def __init__(self, move: Callable[[dict, dict], object]) -> None:
        self.move = move

    async def decide(self, view, legal, memory):
        return Decision(action=self.move(view, legal))


def assert_legal(action, legal):
    """The action fits the legal space exactly as a form/text widget would demand."""
    if legal["kind"] == "text":
        text = action["text"] if isinstance(action, dict) else action
        assert isinstance(text, str) and len(text) <= legal["max_chars"]
        return
    fields = {f["name"]: f for f in legal["fields"]}
    assert set(action) == set(fields), action
    for name, value in action.items():
        f = fields[name]
        if f["kind"] == "int":
            assert isinstance(value, int) and f["min"] <= value <= f["max"], (name, value)
        else:
            assert value in {o["id"] for o in f["options"]}, (name, value)
    constraints = legal.get("constraints", {})
    total = sum(v for v in action.values() if isinstance(v, int))
    assert total <= constraints.get("sum_max", total)
    assert total == constraints.get("sum_eq", total)


def play(env_id, seats, seed, preset=None, overrides=None):
    """Play one game; each seat is a spec or a Bot and sees only its own JSON view and legal
    space, exactly as the server sends them. Scripted moves must be legal. Returns the game."""
    env = get(env_id)
    game = env.new_game(env.config(preset, overrides), seed, len(seats))
    bots = [make_bot(s, env_id, seed * 10 + i) if isinstance(s, str) else s
            for i, s in enumerate(seats)]
    memory = [{} for _ in seats]
    while not game.over:
        for seat in sorted(game.pending()):
            view = json.loads(json.dumps(game.view(seat)))
            legal = game.legal(seat).to_json()
            decision = asyncio.run(bots[seat].decide(view, legal, memory[seat]))
            if isinstance(seats[seat], str):
                assert_legal(decision.action, legal)
            events = game.act(seat, decision.action)
            assert not [e for e in events if e.type == "invalid_move"], decision.action
    return game


def rounds_won(game, seat):
    return [h["winner"] == seat for h in game.history]


# ------------------------------------------------------------------------------ Colonel Blotto
def test_adaptive_blotto_beats_random_clearly():
    paper = sum(play(BLOTTO, ["scripted:adaptive", "random"], s).result.rewards[0] > 0
                for s in range(100))
    # Under TextArena's exactly-20 rule random spends every unit, which makes it much harder.
    exact = sum(play(BLOTTO, ["random", "scripted:adaptive"], s, "textarena-0.7.4")
                .result.rewards[1] > 0 for s in range(100))
    assert paper >= 95 and exact >= 60, (paper, exact)


@pytest.mark.parametrize("preset", ["small", "large", "extreme", "textarena-0.7.4"])
def test_adaptive_blotto_handles_every_preset_and_beats_uniform(preset):
    game = play(BLOTTO, ["scripted:uniform", "scripted:adaptive"], 1, preset)
    assert game.result.winners == (1,)
    assert all(rounds_won(game, 1)[1:])  # an even split is read after one round


def test_adaptive_exploits_a_fixed_pattern():
    fixed = Puppet(lambda view, legal: "[A10 B10 C0]")
    game = play(BLOTTO, [fixed, "scripted:adaptive"], 4)
    assert all(rounds_won(game, 1)[1:]) and game.result.winners == (1,)
    for entry in game.history[1:]:  # it wins C cheaply and one of A and B by a unit or more
        mine = entry["allocations"][1]
        assert mine["C"] >= 1 and max(mine["A"], mine["B"]) >= 11


def test_adaptive_punishes_an_opponent_that_answers_its_last_move():
    def counter(view, legal):  # beat whatever the adaptive bot played last round on A and B
        if not view["public"]["history"]:
            return {"A": 7, "B": 7, "C": 6}
        last = view["public"]["history"][-1]["allocations"][1]
        a, b = min(last["A"] + 1, 20), min(last["B"] + 1, 20)
        b = min(b, 20 - a)
        return {"A": a, "B": b, "C": 20 - a - b}

    wins = sum(play(BLOTTO, [Puppet(counter), "scripted:adaptive"], s).result.winners == (1,)
               for s in range(10))
    assert wins >= 8


def test_adaptive_scores_its_plans_exactly_as_round_by_round():
    """Its fast scoring (all samples at once) gives the very sums of round_outcome, added in
    the same order, so it picks the same plans the plain loop would."""
    rng = random.Random(7)
    for fields, units in ((2, 2), (3, 20), (7, 75), (9, 200)):
        plans = [_draw(fields, units, rng) for _ in range(30)] + [(0,) * fields]
        samples = [(_draw(fields, units, rng), rng.random()) for _ in range(50)]
        samples += [(plans[0], 0.5), ((units,) + (0,) * (fields - 1), 0.25)]  # ties, extremes
        assert expected_outcomes(plans, samples) == [
            sum(w * round_outcome(plan, p) for p, w in samples) for plan in plans]


def test_adaptive_draws_the_random_plans_the_random_sampler_would():
    for fields, units, seed in ((2, 2, 1), (3, 20, 2), (9, 200, 3)):
        config = get(BLOTTO).config(None, {"fields": fields, "units": units, "exact_units": True})
        form = get(BLOTTO).new_game(config, 0, 2).legal(0)
        names = [f.name for f in form.fields]
        mine, sampler = random.Random(seed), random.Random(seed)
        for _ in range(20):  # the same plans, and the two streams stay in step
            drawn = random_action(form, sampler)
            assert _draw(fields, units, mine) == tuple(drawn[n] for n in names)


def test_adaptive_plays_the_largest_config_legally_and_beats_uniform():
    largest = {"fields": 9, "units": 200, "rounds": 30, "win_rounds": 30}
    game = play(BLOTTO, ["scripted:adaptive", "scripted:uniform"], 3, None, largest)
    assert len(game.history) == 30 and game.result.winners == (0,)


def test_adaptive_is_seeded_not_fixed():
    def first_move(seed):
        return play(BLOTTO, ["scripted:adaptive", "scripted:uniform"], seed).history[0][
            "allocations"][0]

    assert first_move(5) == first_move(5)
    assert len({tuple(first_move(s).values()) for s in range(10)}) >= 3


def test_adaptive_is_deterministic_given_the_seed():
    a = play(BLOTTO, ["scripted:adaptive", "scripted:adaptive"], 5)
    b = play(BLOTTO, ["scripted:adaptive", "scripted:adaptive"], 5)
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]


# ------------------------------------------------------------------------------ three-player IPD
def ipd_puppet(defect_rounds=(), threat_rounds=(), threat="Player 0, I will defect on you."):
    """Seat puppet: defects on seat 0 in `defect_rounds`, says `threat` in `threat_rounds`."""
    def move(view, legal):
        rnd = view["public"]["round"]
        if legal["kind"] == "text":
            return threat if rnd in threat_rounds else "Hello."
        return {f["name"]: "defect" if f["name"] == "0" and rnd in defect_rounds
                else "cooperate" for f in legal["fields"]}
    return Puppet(move)


def choices(game, seat, opponent):
    return [h["decisions"][str(seat)][str(opponent)] for h in game.history]


def test_tit_for_tat_retaliates_the_round_after_a_defection_then_forgives():
    game = play(IPD, ["scripted:tit-for-tat", ipd_puppet(defect_rounds={2}), ipd_puppet()], 1)
    assert choices(game, 0, 1) == ["cooperate", "cooperate", "defect", "cooperate", "cooperate"]
    assert choices(game, 0, 2) == ["cooperate"] * 5
    retort = [m["text"] for m in game.chat if m["seat"] == 0 and m["round"] == 3]
    assert retort and "Player 1" in retort[0]


def test_grim_never_forgives():
    game = play(IPD, ["scripted:grim", ipd_puppet(defect_rounds={2}), ipd_puppet()], 1)
    assert choices(game, 0, 1) == ["cooperate", "cooperate", "defect", "defect", "defect"]
    assert choices(game, 0, 2) == ["cooperate"] * 5


def test_tit_for_tat_defects_pre_emptively_on_a_threat_in_chat():
    # Seat 2 speaks after seat 0 but before the decisions: its threat in round 3 is answered in
    # round 3; it did cooperate, so round 4 is cooperation again.
    game = play(IPD, ["scripted:tit-for-tat", ipd_puppet(), ipd_puppet(threat_rounds={3},
                threat="Player 0, I'm going to betray you this round.")], 2)
    assert choices(game, 0, 2) == ["cooperate", "cooperate", "defect", "cooperate", "cooperate"]
    assert choices(game, 0, 1) == ["cooperate"] * 5
    everyone = ipd_puppet(threat_rounds={2}, threat="I will defect on everyone.")
    game = play(IPD, ["scripted:tit-for-tat", everyone, ipd_puppet()], 2)
    assert choices(game, 0, 1)[1] == "defect" and choices(game, 0, 2)[1] == "cooperate"


@pytest.mark.parametrize(("text", "me", "threat"), [
    ("Player 0, I am going to defect on you.", 0, True),
    ("I'll betray everyone this round!", 1, True),
    ("[2 defect] [0 cooperate]", 2, True),
    ("Don't worry. I will defect on P0", 0, True),
    ("I defect on player 1.", 0, False),  # aimed at someone else
    ("I will not defect on player 0.", 0, False),
    ("I won't ever betray you both", 0, False),
    ("If you defect, I defect on everyone.", 0, False),  # a policy, not an announcement
    ("Player 0 defected on me last round.", 0, False),  # the past announces nothing
    ("In round 2 I defect.", 2, False),  # a bare number is not a player
])
def test_threat_reading(text, me, threat):
    assert threatens(text, me) is threat


@pytest.mark.parametrize(("text", "targets"), [
    # the issue: cooperating with P1 is no threat to P1
    ("round 3: cooperating with P1, defecting on P2", {2}),
    ("Cooperating with P1 and defecting on P2.", {2}),
    ("I will cooperate with Player 1 while I defect on Player 2", {2}),
    ("I cooperate with p1 but betray p2", {2}),
    ("Defecting on P2 - cooperating with P1.", {2}),
    ("I'll cooperate with P0 then defect on P2", {2}),
    # a threat to me (seat 0) or to the other
    ("Player 0, I will defect on you.", {0}),
    ("P0: I'm going to backstab you this round", {0}),
    ("Player 2 I will betray.", {2}),
    ("I defect on P1 and P2", {1, 2}),
    ("I defect on P0, P1 and P2 this time", {0, 1, 2}),
    ("[1 defect] [2 cooperate]", {1}),
    ("I'll betray everyone!", {EVERYONE}),
    # negations, clause by clause
    ("I won't defect on P1", set()),
    ("I won’t defect on P1.", set()),
    ("I will never betray Player 1, but I will defect on Player 2", {2}),
    ("I won't defect on P1; I will defect on P2", {2}),
    ("I am not going to cheat P0 and I am not going to cheat P2", set()),
    ("Don't worry P1, I won't defect on you", set()),
    # policies and the past announce nothing
    ("If P2 defects, I defect on P2", set()),
    ("P2 defected on me last round, P1 cooperated", set()),
    ("Cooperating with Player 0 and Player 1, defecting on nobody.", set()),
])
def test_threats_are_aimed_clause_by_clause(text, targets):
    assert threat_targets(text) == targets
    for me in (0, 1, 2):
        assert threatens(text, me) is (me in targets or EVERYONE in targets)


def test_tit_for_tat_keeps_cooperating_with_the_player_a_split_announcement_spares():
    """Seat 1 announces cooperation with seat 0 and a defection on seat 2: tit-for-tat at seat 0
    cooperates with seat 1 (it was named, but not as a target)."""
    announcer = ipd_puppet(threat_rounds={3}, threat="round 3: cooperating with P0, defecting on P2")
    game = play(IPD, ["scripted:tit-for-tat", announcer, ipd_puppet()], 2)
    assert choices(game, 0, 1) == ["cooperate"] * 5
    assert choices(game, 0, 2) == ["cooperate"] * 5


def test_scripted_chat_lines_threaten_nobody():
    # Their own announcements must not set off each other's pre-emptive defection.
    game = play(IPD, ["scripted:tit-for-tat", "scripted:grim", "scripted:always-defect"], 3,
                "long")
    assert game.chat[0]["text"].startswith("I play tit-for-tat")
    assert not [m for m in game.chat for s in range(3) if threatens(m["text"], s)]


def test_tit_for_tat_punishes_always_defect_over_a_full_game():
    game = play(IPD, ["scripted:tit-for-tat", "scripted:always-defect", "scripted:grim"], 2)
    assert choices(game, 0, 1) == ["cooperate"] + ["defect"] * 4
    assert choices(game, 0, 2) == ["cooperate"] * 5
    assert game.result.rewards[1] == -1.0


# ------------------------------------------------------------------------------ every bot
def test_scripted_bots_never_make_an_illegal_move():
    for preset in get(BLOTTO).presets:
        for seed in range(3):
            play(BLOTTO, ["scripted:adaptive", "random"], seed, preset)
            play(BLOTTO, ["scripted:uniform", "scripted:adaptive"], seed, preset)
    specs = [s for s in available(IPD) if s.startswith("scripted:")]
    for preset in get(IPD).presets:
        play(IPD, specs, 0, preset)
        play(IPD, ["random", *specs[:2]], 1, preset)


def test_every_env_lists_its_scripted_bots():
    assert set(available(BLOTTO)) >= {"random", "scripted:adaptive", "scripted:uniform"}
    assert set(available(IPD)) >= {"scripted:tit-for-tat", "scripted:grim",
                                   "scripted:always-defect"}
