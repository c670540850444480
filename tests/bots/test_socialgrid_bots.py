"""SocialGrid's scripted baselines play through the real engine from the JSON a seat receives:
crews finish their tasks with and without the oracle, crews and impostors both win league
games, ballots carry trust scores and thoughts, impostors never vote a teammate, and the bots
stay cheap."""

import asyncio
import json
import random
import time
from collections import Counter

import pytest

from bots.registry import available, make_bot
from bots.scripted.socialgrid import Mind, crew_ballot
from engine.registry import get
from engine.socialgrid.analysis import thought_class
from engine.spaces import ActionSpace, check_action

ENV = "socialgrid"
LEAGUE_SEEDS = range(20)


def play(preset, seed, specs=None, overrides=None, roundtrip=False):
    """One 7-player game driven through the engine. Every decision must fit the seat's legal
    space and be accepted by the rules. Returns the game and the bots' total time (s)."""
    env = get(ENV)
    game = env.new_game(env.config(preset, overrides), seed, 7)
    specs = specs or ["scripted:agent"] * 7
    bots = [make_bot(spec, ENV, seed * 10 + s) for s, spec in enumerate(specs)]
    memory = [{} for _ in specs]
    spent = 0.0
    while not game.over:
        for seat in sorted(game.pending()):
            view, space = game.view(seat), game.legal(seat)
            legal = space.to_json()
            if roundtrip:
                view, legal = json.loads(json.dumps(view)), json.loads(json.dumps(legal))
            started = time.perf_counter()
            decision = asyncio.run(bots[seat].decide(view, legal, memory[seat]))
            spent += time.perf_counter() - started
            assert check_action(ActionSpace.from_json(legal), decision.action) is None, \
                decision.action
            events = game.act(seat, decision.action)
            assert not [e for e in events if e.type == "invalid_move"], decision.action
    return game, spent


def events(game, kind):
    return [e.data for e in game.record().events if e.type == kind]


def test_registered_specs():
    specs = available(ENV)
    assert {"scripted:agent", "scripted:crew", "scripted:impostor"} <= set(specs)
    for spec in ("scripted:agent", "scripted:crew", "scripted:impostor"):
        bot = make_bot(spec, ENV, 1)
        assert bot.identity == spec and bot.never_awaits


@pytest.mark.parametrize("seed", range(4))
def test_crew_with_the_oracle_finishes_all_tasks(seed):
    game, _ = play("navigation-oracle", seed, ["scripted:crew"] * 7, roundtrip=seed == 0)
    assert game.tasks_done == game.tasks_total == 21
    assert game.result.reason.startswith("crew win")
    assert game.tick < 400  # of 2,500


@pytest.mark.parametrize("seed", range(4))
def test_crew_without_the_oracle_finds_its_own_way(seed):
    env = get(ENV)
    assert "oracle" not in env.new_game(env.config("navigation"), seed, 7).view(0)["private"]
    game, _ = play("navigation", seed, ["scripted:crew"] * 7, roundtrip=seed == 0)
    assert game.tasks_done == game.tasks_total == 21
    assert game.tick < 600


@pytest.mark.parametrize("preset", ["rooms-16", "size-18"])
def test_own_planner_on_bigger_maps(preset):
    game, _ = play(preset, 1, ["scripted:crew"] * 7)
    assert game.tasks_done == game.tasks_total


@pytest.fixture(scope="module")
def league():
    """20 league games, 5 scripted crew + 2 scripted impostors (scripted:agent everywhere)."""
    return [play("league-10x10", seed, roundtrip=seed < 2) for seed in LEAGUE_SEEDS]


# Every test of the league on one xdist worker: it is played once, not once per worker.
@pytest.mark.xdist_group("socialgrid-league")
def test_league_both_sides_win_and_impostors_kill(league):
    wins = Counter("crew" if g.result.reason.startswith("crew") else "impostors"
                   for g, _ in league)
    kills = [len(events(g, "kill")) for g, _ in league]
    reports = [m for g, _ in league for m in events(g, "meeting_called")
               if m["reason"] == "report"]
    assert wins["crew"] >= 1 and wins["impostors"] >= 1, wins
    assert sum(kills) >= len(league) and sum(1 for k in kills if k) >= len(league) // 2
    assert reports and all(m["called_by"] not in g.impostors
                           for (g, _) in league for m in events(g, "meeting_called")
                           if m["reason"] == "report")


@pytest.mark.xdist_group("socialgrid-league")
def test_league_ballots_have_trust_and_thoughts(league):
    crew_classes, teammate_votes, ballots = Counter(), 0, 0
    for game, _ in league:
        for meeting in events(game, "ballots"):
            for voter, ballot in meeting["ballots"].items():
                voter = int(voter)
                ballots += 1
                trust = {int(k): v for k, v in ballot["trust"].items()}
                assert trust and voter not in trust
                assert all(0.0 <= v <= 1.0 for v in trust.values())
                assert ballot["thought"]
                if voter in game.impostors:
                    mates = game.impostors - {voter}
                    teammate_votes += ballot["target"] in game.impostors
                    assert all(trust[m] > 0.7 for m in mates if m in trust)
                else:
                    crew_classes[thought_class(ballot["thought"])] += 1
    assert ballots > 0 and teammate_votes == 0
    assert set(crew_classes) <= {"strong", "heuristic", "scarcity"}
    assert crew_classes["heuristic"] + crew_classes["strong"] > 0  # some votes on evidence


@pytest.mark.xdist_group("socialgrid-league")
def test_crew_votes_on_evidence_hit_impostors_mostly(league):
    hits = total = 0
    for game, _ in league:
        for meeting in events(game, "ballots"):
            for voter, ballot in meeting["ballots"].items():
                if int(voter) in game.crew and ballot["target"] is not None:
                    total += 1
                    hits += ballot["target"] in game.impostors
    assert total and hits / total > 0.6


def test_a_crew_that_never_finishes_plays_to_the_step_limit():
    """A crew seat played by impostor logic never finishes its tasks: the game runs to the
    step limit (here 600), with crewmates done early wandering about. (What the bots cost is
    printed by benchmarks/socialgrid.py, never asserted.)"""
    specs = ["scripted:crew"] * 6 + ["scripted:impostor"]
    game, _ = play("navigation", 0, specs, overrides={"max_steps": 600})
    assert game.tick == 600 and game.tasks_done < game.tasks_total


def test_a_watched_kill_is_remembered_and_voted():
    """Two views a step apart: Player_4 stood at (5,5), then a body lies there and Player_3,
    next to it, still faces it. The crewmate saw a kill and votes Player_3 with its reasons."""
    env = get(ENV)
    game = env.new_game(env.config(), 1, 7)
    seat = min(game.crew)
    view = json.loads(json.dumps(game.view(seat)))
    mind = Mind(view)
    killer = {"pos": [4, 5], "facing": 100, "position": "R00(4,5)"}
    before = _with_sight(view, 10, {"Player_3": killer,
                                    "Player_4": {"pos": [5, 5], "facing": 102,
                                                 "position": "R00(5,5)"}}, [])
    after = _with_sight(view, 11, {"Player_3": killer},
                        [{"pos": [5, 5], "position": "R00(5,5)"}])
    mind.observe(before)
    mind.observe(after)
    assert mind.kills == {"Player_3": ("Player_4", "R00(5,5)")}
    meeting = {**after, "public": {**after["public"], "phase": "vote", "meeting": {
        "number": 1, "reason": "report", "called_by": seat, "found_dead": [4]}},
        "private": {**after["private"], "vote_targets": ["Player_3", "Player_5"]}}
    target, trust, thought = crew_ballot(mind, meeting)
    assert target == "Player_3" and trust["Player_3"] <= 0.1 and trust["Player_5"] == 0.5
    assert thought_class(thought) == "strong" and "saw Player_3 kill Player_4" in thought


def _with_sight(view, step, players, corpses):
    private = {**view["private"], "observation": {**view["private"]["observation"],
                                                  "players": players, "corpses": corpses}}
    return {**view, "public": {**view["public"], "step": step}, "private": private}


def test_the_unassisted_agent_never_reads_the_oracle():
    """`scripted:unassisted` plays as `scripted:agent` would at a table without the oracle: the
    same decisions on the `navigation-oracle` table as the agent on `navigation` (the same game
    without hints)."""
    from bots.registry import make_bot

    env = get(ENV)
    games = []
    for preset, spec in (("navigation-oracle", "scripted:unassisted"),
                         ("navigation", "scripted:agent")):
        game = env.new_game(env.config(preset, {"max_steps": 150}), 4, 3)
        bots = [make_bot(spec, ENV, 40 + s) for s in range(3)]
        memory = [{} for _ in range(3)]
        while not game.over:
            for seat in sorted(game.pending()):
                decision = asyncio.run(bots[seat].decide(game.view(seat),
                                                         game.legal(seat).to_json(),
                                                         memory[seat]))
                game.act(seat, decision.action)
        games.append([a.raw for a in game.actions])
    assert games[0] == games[1]


def test_the_cautious_crewmate_votes_only_on_a_kill_it_saw():
    """Standing next to a body is weak evidence: `scripted:agent` votes on it, the cautious
    crewmate skips and says why; a kill it saw it votes on all the same."""
    env = get(ENV)
    game = env.new_game(env.config(), 1, 7)
    view = json.loads(json.dumps(game.view(min(game.crew))))
    meeting = {**view, "public": {**view["public"], "phase": "vote", "meeting": {
        "number": 1, "reason": "report", "called_by": 0, "found_dead": []}},
        "private": {**view["private"], "vote_targets": ["Player_3", "Player_5"]}}
    mind = Mind(view)
    mind.near_body["Player_3"] = (1, "R00(5,5)")
    assert crew_ballot(mind, meeting)[0] == "Player_3"
    target, _, thought = crew_ballot(mind, meeting, cautious=True)
    assert target is None and "Player_3 was near the body" in thought
    mind.kills["Player_5"] = ("Player_4", "R00(5,5)")
    assert crew_ballot(mind, meeting, cautious=True)[0] == "Player_5"


def test_the_cautious_impostor_frames_nobody_and_kills_unwatched():
    """The cautious impostor skips where the agent frames the reporter, and holds a kill while
    another crewmate was within two tiles in the last LOOKOUT steps."""
    from bots.scripted.socialgrid import impostor_ballot, impostor_step
    from bots.scripted.socialgrid.impostor import LOOKOUT
    from engine.socialgrid.moves import KILL

    env = get(ENV)
    game = env.new_game(env.config(), 1, 7)
    seat = min(game.impostors)
    view = json.loads(json.dumps(game.view(seat)))
    mates = set(view["private"].get("teammates") or ())
    crew = [f"Player_{s}" for s in range(7) if s != seat and f"Player_{s}" not in mates]
    meeting = {**view, "public": {**view["public"], "phase": "vote", "meeting": {
        "number": 1, "reason": "report", "called_by": int(crew[0].split("_")[1]),
        "found_dead": []}}, "private": {**view["private"], "vote_targets": crew}}
    mind = Mind(view)
    assert impostor_ballot(mind, meeting)[0] == crew[0]
    assert impostor_ballot(mind, meeting, cautious=True)[0] is None
    x, y, _ = view["private"]["pose"]
    alone = _with_sight(view, 50, {crew[1]: {"pos": [x + 1, y], "facing": 100,
                                             "position": "here"}}, [])
    mind.potential_witness[crew[2]] = 50 - LOOKOUT  # came close LOOKOUT steps ago
    rng = random.Random(0)
    assert impostor_step(mind, alone, {KILL}, rng) == KILL
    assert impostor_step(mind, alone, {KILL}, rng, cautious=True) != KILL
    mind.potential_witness[crew[2]] = 50 - LOOKOUT - 1
    assert impostor_step(mind, alone, {KILL}, rng, cautious=True) == KILL
