"""The AmongAgents prompt builder over the real `openai` and `anthropic` clients against the
local fake servers: what the prompts carry (role, map, persona, the step's view, numbered
actions, the reply format), the planner setting, and answers read only from what the model
wrote: a reply that names no action is asked again, then defaulted, never made a kill."""

import pytest

from bots.llm.context import build_prompt
from bots.llm.settings import parse_settings
from bots.prompts import builder_for
from bots.prompts.amongagents import PERSONAS, AmongAgentsPrompts, personas_for
from bots.registry import BotSpecError, make_bot
from tests.amongagents.helpers import ENV, act, new, turn, wait
from tests.fakes import FakeAnthropic, FakeOpenAI, Reply
from tests.fakes.seating import FAST, close_llm_bots, llm_bot, play, provider_env, user_texts

__all__ = ["close_llm_bots"]  # autouse fixture


def builder(query: str = "", seed: int = 0) -> AmongAgentsPrompts:
    b = builder_for(ENV.id)
    assert isinstance(b, AmongAgentsPrompts)
    b.configure(parse_settings(query), seed)
    return b


def prompt(game, seat, query="", memory=None, seed=0):
    built = build_prompt(builder(query, seed), game.view(seat), game.legal(seat).to_json(), 16000,
                         memory or {})
    return built.system, built.user


def reply(thought: str, action: str | None, memory: str = "All in the Cafeteria.") -> str:
    tail = f"\n[Action] {action}" if action is not None else ""
    return f"[Condensed Memory]\n{memory}\n[Thinking Process]\n{thought}{tail}"


def test_the_prompts_carry_role_map_persona_view_actions_and_format():
    game = new((0,))
    system, user = prompt(game, 0, "persona=lone-wolf")
    assert f"You are {game.name(0)}" in system and "You are an Impostor" in system
    assert "- Security: Lower Engine, Reactor, Upper Engine" in system
    assert "Vents (impostors only" in system and "Admin - Cafeteria" in system
    assert "Your personality: The Lone Wolf." in system
    assert "[Condensed Memory]" in system and "[Thinking Process]" in system
    assert "Game Time: 0/50" in user and "Current Location: Cafeteria" in user
    assert "  1. MOVE from Cafeteria to Weapons" in user and f"KILL {game.name(1)}" in user
    crew_system, crew_user = prompt(game, 1, "persona=none")
    assert "Vents (impostors only" not in crew_system and "KILL" not in crew_user
    assert "Your personality" not in crew_system and "Impostor." not in crew_user


def test_personas_are_the_eleven_archetypes_dealt_by_role_from_the_seed():
    assert len(PERSONAS) == 11
    assert len(personas_for("Crewmate")) == len(personas_for("Impostor")) == 6
    game = new((0,))
    dealt = {builder(seed=s).persona_of("Impostor") for s in range(40)}
    assert dealt == set(personas_for("Impostor"))
    assert builder(seed=7).persona_of("Crewmate") == builder(seed=7).persona_of("Crewmate")
    name = PERSONAS[builder(seed=7).persona_of("Crewmate")][0]
    assert f"Your personality: {name}." in prompt(game, 1, seed=7)[0]
    # The stamp stored with the seat names the persona played in either role.
    stamp = builder(seed=7).stamp()
    assert stamp["persona"] == "dealt"
    assert stamp["personas"] == {"Crewmate": builder(seed=7).persona_of("Crewmate"),
                                 "Impostor": builder(seed=7).persona_of("Impostor")}


def test_persona_and_planner_settings_are_checked(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with pytest.raises(BotSpecError, match="unknown persona 'hero'"):
        make_bot("openai:gpt-4o-mini?persona=hero", ENV.id, 0)
    with pytest.raises(BotSpecError, match="not a setting of colonel-blotto"):
        make_bot("openai:gpt-4o-mini?planner=off", "colonel-blotto", 0)
    with pytest.raises(BotSpecError, match="persona must be"):
        make_bot("openai:gpt-4o-mini?persona=two%20words", ENV.id, 0)


def test_planner_on_feeds_back_the_last_thought_and_off_does_not():
    game = new((4,))
    memory = {"amongagents": {"memory": "Blue went to Admin.", "thought": "Go to Medbay next."}}
    _, on = prompt(game, 0, "planner=on", memory)
    _, off = prompt(game, 0, "planner=off", memory)
    assert "Blue went to Admin." in on and "Blue went to Admin." in off
    assert "Go to Medbay next." in on and "Go to Medbay next." not in off


def test_only_the_action_line_or_the_last_line_is_read():
    game = new((0,))
    b, view, legal = builder(), game.view(0), game.legal(0).to_json()
    tempted = reply(f"I could KILL {game.name(1)} but not now.", "MOVE from Cafeteria to Admin")
    assert b.extract(tempted, view, legal) == "MOVE from Cafeteria to Admin"
    assert b.check("MOVE from Cafeteria to Admin", view, legal) is None
    # Sections but no [Action]: nothing, though the last line names a kill.
    assert b.extract(reply("Maybe later.", None) + f"\nKILL {game.name(1)}", view, legal) == ""
    assert b.check("", view, legal).kind == "unparseable"
    assert b.extract(f"I think so.\nKILL {game.name(1)}", view, legal) == f"KILL {game.name(1)}"
    assert b.check("I will move to Admin.", view, legal).kind == "unparseable"
    assert b.check("2", view, legal) is None


# -- through the real clients ------------------------------------------------------------------
def _scripted(*answers):
    """A fake model giving `answers` in turn (the last one from then on)."""
    given = []

    def respond(request):
        given.append(request)
        return Reply(answers[min(len(given) - 1, len(answers) - 1)])
    return respond


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_an_unreadable_answer_is_asked_again_then_defaulted_never_a_kill(provider):
    game = new((0,))
    garbage = reply(f"KILL {game.name(1)} now, nobody will know.", None)
    fake = FakeOpenAI if provider == "openai" else FakeAnthropic
    with fake(responder=_scripted(garbage)) as server:
        environ = provider_env(server.base_url if provider == "openai" else None,
                               server.base_url if provider == "anthropic" else None)
        spec = "openai:gpt-4o-mini" if provider == "openai" else "anthropic:claude-haiku-4-5"
        bot, memory = llm_bot(f"{spec}?{FAST}", ENV.id, 0, environ), {}
        decision = await bot.decide(game.view(0), game.legal(0).to_json(), memory)
        assert decision.action == ""  # nothing after no [Action] line: nothing to play
        events = game.act(0, decision.action)
        requests = server.completion_requests
    assert len(requests) == 2  # asked, then re-asked once with the reason (spec §17)
    reask = user_texts(requests[1].messages)[-1]
    assert "could not be played" in reask and "[Action]" in reask
    assert [a.outcome for a in game.actions] == ["invalid"]  # recorded as invalid
    assert [e.data.get("then") for e in events if e.type == "invalid_move"] == ["default"]
    assert not any(e.type == "action" and e.data["verb"] == "kill" for e in events)
    assert game.location[0] == "Weapons" and game.alive[1]  # the first MOVE; nobody died


async def test_a_meeting_speech_is_the_speak_line_and_the_thinking_is_never_heard():
    game = new((4,))
    act(game, "button", seat=0)
    secret = "I am sure Player 3 is lying."
    answers = [reply(secret, "SPEAK: I was in Admin doing my wiring."),
               reply(secret, None), reply(secret, None)]
    with FakeOpenAI(responder=_scripted(*answers)) as fo:
        bot, memory = llm_bot(f"openai:gpt-4o-mini?{FAST}", ENV.id, 0, provider_env(fo.base_url)), {}
        spoken = []
        for _ in range(2):
            decision = await bot.decide(game.view(0), game.legal(0).to_json(), memory)
            game.act(0, decision.action)
            spoken.append(game.speeches[-1]["text"])
            while game.round <= game.config.discussion_rounds and turn(game) != 0:
                wait(game)
    assert spoken == ["I was in Admin doing my wiring.", ""]
    assert all(secret not in e.data.get("text", "") for e in game.events if e.type == "speech")
    assert memory["amongagents"]["thought"] == secret


async def test_a_whole_game_of_llm_seats_on_both_clients_with_memory_carried():
    game = new((2,), seed=4, max_timesteps=6)
    def respond(request):
        text = request.last_user_text()
        if "Only the words after SPEAK: are heard" in text:
            return Reply(reply("Stay calm.", "SPEAK: hello"))
        return Reply(reply("Stay calm.", "1"))

    with FakeOpenAI(responder=respond) as fo, FakeAnthropic(responder=respond) as fa:
        environ = provider_env(fo.base_url, fa.base_url)
        bots = [llm_bot(f"{'openai:gpt-4o-mini' if s % 2 else 'anthropic:claude-haiku-4-5'}"
                        f"?{FAST}&persona=observer", ENV.id, s, environ) for s in range(5)]
        memories = [{} for _ in bots]
        await play(game, bots, memories)
        later = user_texts(fo.completion_requests[-1].messages)[0]
    assert game.over and game.ending == "time_limit"
    assert all(a.outcome == "ok" for a in game.actions)
    assert "Your condensed memory from your last turn:\nAll in the Cafeteria." in later
    assert bots[0].settings()["prompt"]["persona"] == "observer"
