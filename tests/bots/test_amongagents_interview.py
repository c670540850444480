"""The AmongAgents interviewer (spec §14.1) over the real openai and anthropic clients against
local fake servers: its questions come at their moments (self-awareness first, memory and
planning each timestep, reasoning at a meeting's first word and before the vote, reflection after
the game), each in a call of its own marked in the decision's transcript with the note that no
one else hears it; the answers change nothing in the game; off unless asked for, and refused
for other envs."""

import pytest

from bots.llm.bot import INTERVIEW_NOTE
from bots.registry import BotSpecError, make_bot
from tests.amongagents.helpers import ENV, act, new, turn, wait
from tests.fakes import FakeAnthropic, FakeOpenAI, Reply
from tests.fakes.seating import FAST, close_llm_bots, llm_bot, play, provider_env, user_texts

__all__ = ["close_llm_bots"]  # autouse fixture
ANSWER = "I am a crewmate; I keep an eye on Player 3."


def _model(request):
    """Answers an interview question in words and a decision with the first action (a word
    at a meeting's discussion)."""
    text = request.last_user_text()
    if "[Interviewer]" in text:
        return Reply(ANSWER)
    if "Only the words after SPEAK: are heard" in text:
        return Reply("[Condensed Memory]\nx\n[Thinking Process]\ny\n[Action] SPEAK: hello")
    return Reply("[Condensed Memory]\nx\n[Thinking Process]\ny\n[Action] 1")


def _asked(decision) -> list[str]:
    return [m["interview"] for m in decision.transcript
            if m.get("interview") and m.get("role") == "user"]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_questions_come_at_their_moments_in_calls_of_their_own(provider):
    game = new((4,))
    fake = FakeOpenAI if provider == "openai" else FakeAnthropic
    with fake(responder=_model) as server:
        environ = provider_env(server.base_url if provider == "openai" else None,
                               server.base_url if provider == "anthropic" else None)
        spec = "openai:gpt-4o-mini" if provider == "openai" else "anthropic:claude-haiku-4-5"
        bot, memory = llm_bot(f"{spec}?{FAST}&interview=on", ENV.id, 0, environ), {}
        first = await bot.decide(game.view(0), game.legal(0).to_json(), memory)
        requests = server.completion_requests
        assert len(requests) == 4  # three questions, then the decision
        asked = [user_texts(r.messages)[-1] for r in requests[:3]]
        game.act(0, first.action)
        while turn(game) != 0:
            wait(game)
        second = await bot.decide(game.view(0), game.legal(0).to_json(), memory)
    assert _asked(first) == ["self_awareness", "memory", "planning"]
    assert all(INTERVIEW_NOTE in q for q in asked)
    assert "What is your role in this game" in asked[0] and "Current Location" in asked[0]
    answers = [m for m in first.transcript if m.get("interview") and m["role"] == "assistant"]
    assert [m["content"] for m in answers] == [ANSWER] * 3
    assert first.action == "1"  # read from the decision's own reply, not an answer
    assert _asked(second) == ["memory", "planning"]  # a new timestep: no self-awareness
    assert first.completion_tokens > 0 and first.prompt_tokens > 0  # the interview is paid for


async def test_reasoning_at_a_meetings_first_word_and_vote_then_reflection_after_the_game():
    game = new((4,))
    act(game, "button", seat=0)
    with FakeOpenAI(responder=_model) as fo:
        bot, memory = llm_bot(f"openai:gpt-4o-mini?{FAST}&interview=on", ENV.id, 0,
                              provider_env(fo.base_url)), {"interview": {"started": True}}
        asked = []
        while not game.over and game.phase == "meeting":
            if turn(game) == 0:
                decision = await bot.decide(game.view(0), game.legal(0).to_json(), memory)
                asked.append(_asked(decision))
                game.act(0, decision.action)
            else:
                wait(game)
        # one meeting: reasoning at the first word (of three) and before the vote
        assert asked == [["reasoning"], [], [], ["reasoning"]]
        debrief = await bot.debrief(game.view(0), memory)
        assert debrief is not None and _asked(debrief) == ["reflection"]
        question = user_texts(fo.completion_requests[-1].messages)[-1]
    assert "The game is over" in question and INTERVIEW_NOTE in question


async def test_the_interview_changes_nothing_in_the_game_and_is_off_by_default():
    """The same seeded game with and without the interviewer: the same events, actions and
    result; without it, one call per decision."""
    runs = []
    for query in ("interview=on", ""):
        game = new((2,), seed=4, max_timesteps=4)
        with FakeOpenAI(responder=_model) as fo:
            bots = [llm_bot(f"openai:gpt-4o-mini?{FAST}&{query}", ENV.id, s,
                            provider_env(fo.base_url)) for s in range(5)]
            decisions = await play(game, bots)
            calls = len(fo.completion_requests)
        runs.append(([(e.type, e.data, e.visible_to) for e in game.events],
                     [a.raw for a in game.actions], game.result, len(decisions), calls))
    (events_on, actions_on, result_on, n_on, calls_on), (events, actions, result, n, calls) = runs
    assert (events_on, actions_on, result_on) == (events, actions, result)
    assert calls == n and calls_on > n


async def test_a_question_the_provider_fails_is_lost_and_the_decision_is_still_made():
    from tests.fakes import Status

    def flaky(request):
        if "[Interviewer]" in request.last_user_text():
            return Status(500)
        return _model(request)

    game = new((4,))
    with FakeOpenAI(responder=flaky) as fo:
        bot = llm_bot(f"openai:gpt-4o-mini?{FAST}&retries=0&interview=on", ENV.id, 0,
                      provider_env(fo.base_url))
        decision = await bot.decide(game.view(0), game.legal(0).to_json(), {})
    assert decision.action == "1" and _asked(decision) == ["self_awareness", "memory",
                                                           "planning"]
    failed = [m for m in decision.transcript if m.get("role") == "assistant"
              and m.get("content") is None]
    assert len(failed) == 3  # each lost question left its failure in the transcript


def test_the_interview_is_a_setting_of_amongagents_only(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with pytest.raises(BotSpecError, match="interview: not a setting of colonel-blotto"):
        make_bot("openai:gpt-4o-mini?interview=on", "colonel-blotto", 0)
    assert make_bot("openai:gpt-4o-mini?interview=on", ENV.id, 0).settings()[
        "prompt"]["interview"] is True
