"""AmongAgents bots: the scripted agent's crew and impostor policies in set scenes, whole games
of scripted and random seats, the random baseline over every available action, and an
attacker's test that a bot's decisions depend only on what its seat may see."""

import random
import sqlite3

from bots.llm.context import build_prompt
from bots.llm.settings import parse_settings
from bots.prompts import builder_for
from bots.random_bot import RandomBot
from bots.registry import available, make_bot
from engine.core import ActionSpace
from engine.registry import get
from engine.sampling import random_action
from server.cli import main
from tests.amongagents.helpers import act, fixed_env, ids, new, turn, wait
from tests.fakes.seating import play

ENV = get("amongagents")


async def decide(bot, game, seat, memory):
    return (await bot.decide(game.view(seat), game.legal(seat).to_json(), memory)).action


def test_the_agent_and_its_styles_are_registered_beside_random():
    assert set(available("amongagents")) == {"random", "scripted:agent", "scripted:cautious",
                                             "scripted:bold"}
    assert make_bot("scripted:bold", ENV.id, 0).identity == "scripted:bold"


async def test_styles_change_how_much_it_takes_to_act():
    """Seat 0 found a body in Admin with seat 2 beside it: the bold crewmate calls the button
    on that, the agent and the cautious one do not (they saw no kill or vent)."""
    game = new((4,))
    view, legal = game.view(0), game.legal(0).to_json()

    def memory():
        return {"among": {"last": {"2": [0, "Admin"]}, "evidence": {}, "room": "Cafeteria",
                          "bodies": {"1": ["Admin", 0, [2]]}, "goat": None}}
    chosen = {style: (await make_bot(f"scripted:{style}", ENV.id, 1).decide(
        view, legal, memory())).action for style in ("agent", "bold", "cautious")}
    assert chosen["bold"] == {"choice": "button"}
    assert chosen["agent"] != {"choice": "button"} and chosen["cautious"] != chosen["bold"]


# -- the crewmate -------------------------------------------------------------------------------
async def test_a_crewmate_reports_a_body_in_its_room():
    game = new((0,))
    act(game, "kill:1", seat=0)
    bot = make_bot("scripted:agent", ENV.id, 1)
    assert await decide(bot, game, 2, {}) == {"choice": "report"}


async def test_a_crewmate_walks_the_shortest_corridor_path_to_its_nearest_task():
    game = new((4,), seed=3)
    bot, memory = make_bot("scripted:agent", ENV.id, 1), {}
    task = game.view(0)["private"]["tasks"]
    nearest = min((t for t in task if not t["done"]), key=lambda t: len(t["path"]))
    room = "Cafeteria"
    for step in nearest["path"][1:]:
        action = await decide(bot, game, 0, memory)
        assert action == {"choice": f"move:{step}"}, (room, nearest)
        act(game, action["choice"], seat=0)
        while turn(game) != 0:
            wait(game)
        room = step
    action = await decide(bot, game, 0, memory)
    assert action["choice"].startswith("task:")


async def test_a_crewmate_calls_out_a_vent_and_votes_on_it_after_it_left_the_view():
    """Seat 1 sees the impostor (seat 0) vent, calls the button, testifies; a tie spares the
    impostor; its next observation pushes the vent out of the view (memory=1), yet the bot
    calls the second meeting and votes for the impostor from its own memory."""
    game = new((0,), memory=1)
    bot, memory = make_bot("scripted:agent", ENV.id, 1), {}
    act(game, "vent:Admin", seat=0)
    assert await decide(bot, game, 1, memory) == {"choice": "button"}
    act(game, "button", seat=1)
    said = None
    while game.round <= game.config.discussion_rounds:
        if turn(game) == 1:
            said = (await decide(bot, game, 1, memory))["text"]
            game.act(1, {"text": said})
        else:
            wait(game)
    assert "VENT from Cafeteria to Admin" in said and game.name(0) in said
    votes = {0: "vote:3", 2: "vote:0", 3: "vote:1", 4: "vote:3"}
    while game.phase == "meeting":
        seat = turn(game)
        choice = (await decide(bot, game, 1, memory))["choice"] if seat == 1 else votes[seat]
        act(game, choice, seat=seat)
    assert game.meetings[-1]["ejected"] is None  # 2-2-1: a tie
    assert game.meetings[-1]["votes"][1] == {"seat": 1, "target": 0, "skip": False}
    wait(game, 0)  # seat 1 sees it: with memory=1 the vent leaves seat 1's view
    assert all(e["verb"] != "vent" for e in game.view(1)["private"]["seen"])
    assert await decide(bot, game, 1, memory) == {"choice": "button"}
    act(game, "button", seat=1)
    while game.round <= game.config.discussion_rounds:
        wait(game)
    act(game, "vote:1", seat=0)
    assert await decide(bot, game, 1, memory) == {"choice": "vote:0"}


async def test_a_crewmate_who_saw_nothing_skips_when_skips_are_allowed():
    game = new((4,), allow_skip=True)
    bot = make_bot("scripted:agent", ENV.id, 1)
    act(game, "button", seat=0)
    while game.round <= game.config.discussion_rounds:
        wait(game)
    assert await decide(bot, game, 0, {}) == {"choice": "skip"}


# -- the impostor -------------------------------------------------------------------------------
def _two_in_admin(witness: bool, **overrides):
    """Seat 0 (impostor) and seat 1 go to Admin, and seat 2 too when `witness`."""
    game = new((0,), **overrides)
    act(game, "move:Admin", seat=0)
    act(game, "move:Admin", seat=1)
    act(game, "move:Admin" if witness else "move:Weapons", seat=2)
    act(game, "move:Weapons", seat=3)
    act(game, "move:Medbay", seat=4)
    return game


async def test_an_impostor_kills_only_when_alone_with_its_target():
    bot = make_bot("scripted:agent", ENV.id, 1)
    assert not (await decide(bot, new((0,)), 0, {}))["choice"].startswith("kill")  # 4 watch
    assert not (await decide(bot, _two_in_admin(witness=True), 0, {}))["choice"].startswith(
        "kill")
    assert await decide(bot, _two_in_admin(witness=False), 0, {}) == {"choice": "kill:1"}


async def test_a_cautious_impostor_kills_only_where_a_vent_leads_out():
    cautious = make_bot("scripted:cautious", ENV.id, 1)
    assert await decide(cautious, _two_in_admin(False), 0, {}) == {"choice": "kill:1"}
    # With the released code's vents Admin has none.
    closed = _two_in_admin(False, vents="released-code")
    assert not (await decide(cautious, closed, 0, {}))["choice"].startswith("kill")
    assert await decide(make_bot("scripted:agent", ENV.id, 1), closed, 0, {}) == \
        {"choice": "kill:1"}


async def test_an_impostor_does_not_kill_when_it_last_saw_someone_in_security():
    bot = make_bot("scripted:agent", ENV.id, 1)
    memory = {}
    game = _two_in_admin(witness=False)
    await decide(bot, game, 0, memory)  # builds the memory
    memory["among"]["last"]["3"] = [0, "Security"]
    assert not (await decide(bot, game, 0, memory))["choice"].startswith("kill")


async def test_an_impostor_vents_away_from_its_kill():
    game = _two_in_admin(witness=False)
    bot, memory = make_bot("scripted:agent", ENV.id, 1), {}
    action = await decide(bot, game, 0, memory)
    act(game, action["choice"], seat=0)
    while turn(game) != 0:
        wait(game)
    assert await decide(bot, game, 0, memory) == {"choice": "vent:Cafeteria"}


async def test_an_accused_impostor_accuses_its_accuser_and_votes_for_them():
    game = new((0,))
    bot, memory = make_bot("scripted:agent", ENV.id, 1), {}
    act(game, "button", seat=0)
    game.act(0, {"text": "Let us talk."})
    game.act(1, {"text": f"I saw {game.name(0)} VENT from Cafeteria to Admin."})
    for _ in range(3):
        wait(game)
    said = (await decide(bot, game, 0, memory))["text"]
    assert game.name(1) in said and game.name(0) not in said
    game.act(0, {"text": said})
    while game.round <= game.config.discussion_rounds:
        wait(game)
    assert await decide(bot, game, 0, memory) == {"choice": "vote:1"}


# -- whole games --------------------------------------------------------------------------------
async def _games(crew: str, impostor: str, seeds, preset="paper"):
    """(ending, crew won) per game, and every game's record."""
    results = []
    for seed in seeds:
        config = ENV.config(preset)
        game = ENV.new_game(config, seed, config.players)
        bots = [make_bot(impostor if game.roles[s].side == "impostor" else crew, ENV.id,
                         seed * 100 + s) for s in range(config.players)]
        await play(game, bots, max_steps=3000)
        assert game.over and not game.result.void
        results.append((game.ending, game.ending in ("impostors_eliminated", "tasks_done"),
                        game))
    return results


async def test_scripted_crew_beats_random_impostors_more_often_than_random_crew_does():
    seeds = range(20)
    scripted = await _games("scripted:agent", "random", seeds)
    baseline = await _games("random", "random", seeds)
    assert all(a.outcome == "ok" for *_, g in scripted for a in g.actions
               if g.roles[a.seat].side == "crew")
    won = sum(w for _, w, _ in scripted)
    assert won > sum(w for _, w, _ in baseline) + 5
    assert {e for e, _, _ in scripted} & {"tasks_done", "impostors_eliminated"}


async def test_scripted_impostors_beat_random_crews_and_never_vote_for_each_other():
    results = await _games("random", "scripted:agent", range(12), preset="seven")
    assert sum(not w for _, w, _ in results) >= 8
    for *_, game in results:
        for e in game.events:
            if e.type == "vote" and e.data["seat"] in game.impostors:
                assert e.data["target"] not in game.impostors


async def test_scripted_games_on_every_preset_end_without_a_single_invalid_move():
    for preset in ENV.presets:
        for style in ("agent", "cautious", "bold"):
            spec = f"scripted:{style}"
            for _, _, game in await _games(spec, spec, range(2), preset):
                assert all(a.outcome == "ok" for a in game.actions)


# -- random -------------------------------------------------------------------------------------
async def test_random_is_uniform_over_every_available_action_kills_and_votes_included():
    game = new((0,))
    legal = game.legal(0)
    assert any(o.id.startswith("kill:") for o in legal.options)
    rng = random.Random(5)
    drawn = [random_action(legal, rng)["choice"] for _ in range(2000)]
    share = {o.id: drawn.count(o.id) / len(drawn) for o in legal.options}
    assert set(share) == set(ids(game))
    assert all(abs(s - 1 / len(share)) < 0.03 for s in share.values()), share
    bot = RandomBot(3)
    seen = {(await bot.decide(game.view(0), legal.to_json(), {})).action["choice"]
            for _ in range(300)}
    assert seen == set(ids(game))
    act(game, "button", seat=0)
    while game.round <= game.config.discussion_rounds:
        wait(game)
    votes = ActionSpace.from_json(game.legal(0).to_json())
    picked = {random_action(votes, rng)["choice"] for _ in range(200)}
    assert picked == {"vote:1", "vote:2", "vote:3", "vote:4"}


# -- no hidden state ----------------------------------------------------------------------------
async def _observer_run(impostor: int):
    """Seat 0 played by the scripted agent (and prompted as an LLM would be) in a game whose
    only impostor sits at `impostor`; every other seat always takes its first offer (a move,
    the same whatever its role) and says "..." in meetings."""
    config = ENV.config("paper")
    game = fixed_env({impostor}).new_game(config, 9, config.players)
    bot, memory = make_bot("scripted:agent", ENV.id, 4), {}
    builder = builder_for(ENV.id)
    builder.configure(parse_settings(""), 4)
    seen = []
    while not game.over:
        seat = turn(game)
        if seat == 0:
            view, legal = game.view(0), game.legal(0).to_json()
            action = (await bot.decide(view, legal, memory)).action
            prompt = build_prompt(builder, view, legal, 16000, {})
            seen.append((view, action, prompt.system, prompt.user))
            game.act(0, action)
        elif game.phase == "meeting" and game.round <= game.config.discussion_rounds:
            game.act(seat, {"text": "..."})
        else:
            game.act(seat, {"choice": ids(game)[0]})
    return seen


async def test_a_crewmates_decisions_do_not_depend_on_who_the_unseen_impostor_is():
    a, b = await _observer_run(2), await _observer_run(3)
    assert len(a) == len(b) > 20
    for (view_a, act_a, sys_a, user_a), (view_b, act_b, sys_b, user_b) in zip(a, b,
                                                                               strict=True):
        view_a["public"].pop("result", None), view_b["public"].pop("result", None)
        assert view_a == view_b
        assert act_a == act_b and sys_a == sys_b and user_a == user_b


def test_parlor_sim_plays_scripted_crews_against_random_impostors(tmp_path, capsys):
    db = tmp_path / "among.db"
    assert main(["sim", "amongagents", "--seat", "crew=scripted:agent", "--seat",
                 "impostor=random", "--games", "4", "--seed", "2", "--db", str(db),
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "AmongAgents: 4 games (0 void" in out and "scripted:agent" in out
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM games WHERE status='finished'"
                            ).fetchone()[0] == 4
