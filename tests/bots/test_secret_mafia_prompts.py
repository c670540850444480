"""The Secret Mafia prompt builder: what the prompts say for each role and phase (and never
another seat's secret), reading replies with the engine's own parser (the final answer, not
the reasoning before it), re-asks, history cut to a summary, and a whole game with one LLM seat
through the real openai client against the local fake server."""

import re

from bots.llm.context import CUT_MARKER, build_prompt
from bots.prompts import builder_for
from bots.prompts.secret_mafia import SecretMafiaPrompts
from bots.registry import make_bot
from tests.fakes import FakeOpenAI, Reply
from tests.fakes.seating import FAST, close_llm_bots, llm_bot, play, provider_env
from tests.secret_mafia.helpers import DEALT, ENV, actor, discuss, new, night

__all__ = ["close_llm_bots"]  # autouse fixture

BUILDER = SecretMafiaPrompts(ENV)
DOC, MAFIA, DET = 0, (1, 2), 3  # seed 0


def prompt(game, seat, budget=32_000):
    built = build_prompt(BUILDER, game.view(seat), game.legal(seat).to_json(), budget, {})
    return built.system, built.user, built


def test_the_env_names_this_builder():
    assert isinstance(builder_for(ENV.id), SecretMafiaPrompts)


def test_a_mafia_night_prompt_names_the_teammate_the_targets_and_the_format():
    game = new(DEALT)
    seat = actor(game)
    system, user, _ = prompt(game, seat)
    mate = 2 if seat == 1 else 1
    assert f"You are Player {seat}" in system and "Your role: Mafia" in system
    assert f"Your fellow Mafia: Player {mate}" in system
    assert "Valid targets: [0], [3], [4], [5]." in user
    assert user.rstrip().endswith("for example [0]")
    assert "teammate reads your reply" in user
    assert BUILDER.phase(game.view(seat), game.legal(seat).to_json()) == "night"


def test_village_prompts_keep_other_roles_secret():
    game = new(DEALT)
    night(game, victim=4, protect=4, investigate=1)
    for seat in (DOC, DET, 4, 5):
        game_view = game.view(seat)
        system = BUILDER.system(game_view, {"kind": "text"})
        assert "fellow Mafia" not in system
        assert "Player 1 IS a Mafia member" in ENV.render(game_view) or seat != DET
    system, user, _ = prompt(game, actor(game))
    assert "Discussion: write what you say to everyone (at most 500 characters" in user
    assert not re.search(r"for example \[", user)
    assert "Do not include your private reasoning" in system


def test_extraction_takes_the_final_answer_and_checks_it_with_the_engine():
    game = new(DEALT)
    night(game, victim=4, protect=4)
    discuss(game)
    seat = actor(game)
    view, legal = game.view(seat), game.legal(seat).to_json()
    reply = "<think>maybe [5]</think>I weighed [0] against [2].\nMy vote:\n[Player 2]"
    assert BUILDER.extract(reply, view, legal) == "[Player 2]"
    assert BUILDER.extract("Thinking...\n4", view, legal) == "[4]"
    assert BUILDER.check("[Player 2]", view, legal) is None
    unreadable = BUILDER.check("I vote for two", view, legal)
    assert unreadable.kind == "unparseable"
    gone = BUILDER.check("[9]", view, legal)
    assert gone.kind == "illegal" and gone.read_as == "[9]" and "valid targets" in gone.message
    assert BUILDER.phase(view, legal) == "vote"


def test_a_mafia_note_carries_only_the_final_line():
    game = new(DEALT)
    seat = actor(game)
    view, legal = game.view(seat), game.legal(seat).to_json()
    action = BUILDER.extract("Secret plan: the Doctor is 0.\nLet's take [4] tonight", view, legal)
    assert action == "Let's take [4] tonight"
    game.act(seat, action)
    assert game.night_votes[-1]["note"] == "Let's take tonight"


def test_speeches_are_never_refused_by_the_builder():
    game = new(DEALT)
    night(game)
    view, legal = game.view(actor(game)), game.legal(actor(game)).to_json()
    assert BUILDER.extract("<think>hidden</think> I trust Player 4.", view, legal) == \
        "I trust Player 4."
    assert BUILDER.check("x" * 2000, view, legal) is None
    assert BUILDER.check("", view, legal) is None
    assert BUILDER.phase(view, legal) == "speak"


def test_old_days_are_cut_to_a_summary_of_deaths_and_votes():
    game = new(DEALT)
    night(game, victim=4, protect=4)
    discuss(game, lambda seat: f"day one words of {seat} " + "x" * 400)
    while game.phase == "vote":
        game.act(actor(game), "[5]" if actor(game) != 5 else "[4]")
    night(game, victim=4, protect=4)
    seat = actor(game)
    full = BUILDER.render(game.view(seat), 1)
    assert "day one words" in full and BUILDER.history_length(game.view(seat)) == 1
    system, user, built = prompt(game, seat, budget=1200)
    assert built.cut == 1 and CUT_MARKER in user and "day one words" not in user
    assert "Day 1 vote (" in user and "out Player 5" in user
    assert "Night before day 1: killed nobody." in user


async def test_an_llm_seat_plays_a_whole_game_through_the_openai_client():
    def model(request):
        text = request.last_user_text()
        targets = re.findall(r"\[(\d)\]", text.split("Valid targets:")[-1].split("\n")[0]) \
            if "Valid targets:" in text.splitlines()[-1] else []
        if targets:
            return Reply(f"I considered [{targets[0]}] first.\nFinal answer: [{targets[-1]}]")
        return Reply("I am watching how everyone votes today.")

    game = new(5)
    seat = 0
    with FakeOpenAI(responder=model) as server:
        llm = llm_bot(f"openai:gpt-4o-mini?{FAST}", ENV.id, 0, provider_env(server.base_url))
        bots = [llm if s == seat else make_bot("scripted:agent", ENV.id, s) for s in range(6)]
        decisions = await play(game, bots)
        requests = server.completion_requests
    mine = [d for s, d in decisions if s == seat]
    assert game.over and mine and len(requests) == len(mine)  # no re-asks
    assert all(a.outcome == "ok" for a in game.actions if a.seat == seat)
    assert "Welcome to Secret Mafia. You are Player 0." in requests[0].messages[0]["content"]
    for d in mine:
        if d.action.startswith("Final answer"):
            assert "considered" not in d.action


async def test_a_bad_answer_is_reasked_once_then_left_to_the_engine():
    game = new(DEALT)
    night(game, victim=4, protect=4)
    discuss(game)
    seat = actor(game)
    with FakeOpenAI() as server:
        server.script(Reply("I vote [9]"), Reply("Still [9]."))
        llm = llm_bot(f"openai:gpt-4o-mini?{FAST}", ENV.id, 0, provider_env(server.base_url))
        decision = await llm.decide(game.view(seat), game.legal(seat).to_json(), {})
        reask = server.completion_requests[1].messages[-1]["content"]
    assert "read as [9]" in reask and "valid targets" in reask
    events = game.act(seat, decision.action)
    assert events[0].type == "invalid_move" and actor(game) == seat  # the engine's retry
