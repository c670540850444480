"""LLM players of the dataset tasks through the real `openai` and `anthropic` clients against
local fake servers: the prompt states the task in our words with the paper's answer format and
the evidence; a reasoning reply is read by its last answer; garbage is a wrong answer, never a
crash or a retry."""

import json

from engine.registry import get
from tests.dataset_task.test_game import PAPER
from tests.fakes import FakeAnthropic, FakeOpenAI, Reply
from tests.fakes.seating import FAST, close_llm_bots, llm_bot, play, provider_env

__all__ = ["close_llm_bots"]  # autouse fixture

REPLIES = iter([
    "The abstract is modest. Final Decision: Accept... on reflection, Final Decision: **Reject**",
    "Reviewers are lukewarm.\n**Final Decision:** Reject",
    "I cannot decide; both outcomes are possible.",
])


async def test_an_llm_predicts_each_stage_and_is_read_as_the_paper_reads_it():
    env = get("review-decision")
    with FakeOpenAI(responder=lambda request: Reply(next(REPLIES))) as fo, \
            FakeAnthropic() as fa:
        bot = llm_bot(f"openai:gpt-4o-mini?{FAST}", env.id, 0,
                      provider_env(fo.base_url, fa.base_url))
        game = env.new_game(env.config(overrides={"instance": json.dumps(PAPER)}), 0, 1)
        decisions = await play(game, [bot])
        requests = fo.completion_requests
    assert game.over and len(decisions) == 3 and len(requests) == 3  # no retries
    scored = [e.data for e in game.record().events if e.type == "answer_scored"]
    assert [(s["answer"]["decision"], s["right"]) for s in scored] == [
        ("Reject", True), ("Reject", True), (None, False)]
    assert game.result.rewards == {0: -1.0}
    system = requests[0].messages[0]["content"]
    assert "Review Decision Prediction" in str(system) and "3 stages" in str(system)
    first = requests[0].last_user_text()
    assert "Final Decision: <Accept | Reject>" in first and "Counting Sheep Faster" in first
    assert "The idea is neat" not in first  # the reviews come at stage 2
    assert "The idea is neat" in requests[1].last_user_text()
    assert "My concerns remain." in requests[2].last_user_text()


async def test_an_anthropic_model_answers_a_user_profile_query():
    env = get("user-profile")
    reply = "Slang and student life point young. Age Group: 18 - 34 Gender: non binary"
    with FakeOpenAI() as fo, FakeAnthropic(responder=lambda request: Reply(reply)) as fa:
        bot = llm_bot(f"anthropic:claude-haiku-4-5?{FAST}", env.id, 0,
                      provider_env(fo.base_url, fa.base_url))
        game = env.new_game(env.presets["user"], 4, 1)
        await play(game, [bot])
        prompt = fa.completion_requests[0].last_user_text()
    said = next(e.data for e in game.record().events if e.type == "answer_scored")
    assert said["answer"] == {"age_group": "18-34", "gender": "Non-binary"}
    assert "Age Group: <18-34 | 35-54 | 55+> Gender: <Male | Female | Non-binary>" in prompt
    assert "Comment 1 (on " in prompt
