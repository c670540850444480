"""Bots with memory: a prompt builder condenses notes after each decision and the next prompt
carries them (what AmongAgents' planner needs), through the real openai client and a fake."""


from bots.llm.context import build_prompt
from bots.prompts.colonel_blotto import BlottoPrompts
from engine.registry import get
from tests.fakes import Reply
from tests.fakes.seating import FAST, close_llm_bots, llm_bot, provider_env, user_texts

ENV = "colonel-blotto"
__all__ = ["close_llm_bots"]  # autouse fixture


class NotingPrompts(BlottoPrompts):
    """Keeps the last answer's reasoning line as its notes."""

    def remember(self, view, legal, reply, action, memory):
        first_line = reply.splitlines()[0]
        memory["notes"] = f"Round {view['public']['round']}: {first_line}"



async def test_notes_written_after_a_decision_reach_the_next_prompt(fo):
    env = get(ENV)
    game = env.new_game(env.config(), 3, 2)
    bot = llm_bot(f"openai:gpt-4o-mini?{FAST}", ENV, 0, provider_env(fo.base_url))
    bot.builder = NotingPrompts(env)
    memory: dict = {}
    fo.script(Reply("Plan: they like field A.\n[A2 B9 C9]"), Reply("[A7 B7 C6]"))
    first = await bot.decide(game.view(0), game.legal(0).to_json(), memory)
    assert memory["notes"] == "Round 1: Plan: they like field A."
    game.act(0, first.action)
    game.act(1, "[A10 B5 C5]")
    view, legal = game.view(0), game.legal(0).to_json()
    await bot.decide(view, legal, memory)
    before, after = (user_texts(r.messages)[0] for r in fo.completion_requests)
    assert "notes" not in before
    notes = "Your notes from earlier turns:\nRound 1: Plan: they like field A."
    assert after.endswith(f"{notes}\n\n{bot.builder.instruction(view, legal)}")


def test_notes_are_kept_whole_when_history_is_cut():
    env = get(ENV)
    game = env.new_game(env.config("extreme"), 1, 2)
    for _ in range(12):
        game.act(0, "[A20 B20 C20 D5 E5 F5 G0]")
        game.act(1, "[A0 B0 C0 D25 E25 F25 G0]")
    view, legal = game.view(0), game.legal(0).to_json()
    builder = BlottoPrompts(env)
    memory = {"notes": "They never defend A, B or C."}
    prompt = build_prompt(builder, view, legal, 700, memory)
    assert prompt.cut > 0 and "They never defend A, B or C." in prompt.user
    assert "notes" not in build_prompt(builder, view, legal, 700, {}).user

