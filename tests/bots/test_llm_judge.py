"""The LLM judge over the real openai and anthropic clients against local fake servers: a score
read from JSON in any wrapping, an unreadable reply asked again once and then left unscored
(never a made-up number), labels matched to the categories' names, greedy sampling, usage."""

import pytest

from bots.llm.judge import Judge
from tests.fakes import Reply
from tests.fakes.seating import FAST, provider_env

CATEGORIES = {"Deception": "lying, feigning innocence", "Truth-telling": "alibis, facts",
              "Other": "anything else"}




async def test_a_score_is_read_from_fenced_json_and_sampling_is_greedy(fo):
    fo.script(Reply('Here:\n```json\n{"score": 8, "reason": "Names who was where."}\n```',
                    prompt_tokens=50, completion_tokens=9))
    judge = Judge(f"openai:gpt-4o-mini?{FAST}", environ=provider_env(fo.base_url))
    try:
        judged = await judge.score("Memory", "recalls what the player saw", "Timestep 4 ...",
                                   "Where was Blue last?", "Blue was in Admin at timestep 3.")
    finally:
        await judge.aclose()
    assert (judged.score, judged.reason) == (8, "Names who was where.")
    body = fo.completion_requests[0].body
    assert body["temperature"] == 0.0 and body["model"] == "gpt-4o-mini"
    sent = body["messages"][1]["content"]
    assert "Category: Memory" in sent and "Blue was in Admin at timestep 3." in sent
    assert "0-3" in body["messages"][0]["content"]  # the rubric
    assert judged.tally.prompt_tokens == 50 and judged.to_json()["usage"]["completion_tokens"] == 9


async def test_an_unreadable_score_is_asked_again_then_left_unscored(fa):
    fa.script(Reply("I would say it is pretty good."), Reply('{"score": 11}'))
    judge = Judge(f"anthropic:claude-3-5-haiku-latest?{FAST}",
                  environ=provider_env(anthropic_url=fa.base_url))
    try:
        judged = await judge.score("Planning", "plans ahead", "...", "What next?", "Go to O2.")
    finally:
        await judge.aclose()
    assert judged.score is None and "not a whole number from 0 to 10" in judged.reason
    assert len(fa.completion_requests) == 2  # one re-ask, no more
    second = fa.completion_requests[1].body["messages"]
    assert second[1]["content"] == "I would say it is pretty good."
    assert "could not be read: no JSON object in it" in second[2]["content"]


async def test_a_reask_that_answers_is_taken(fo):
    fo.script(Reply('{"score": "seven"}'), Reply('{"score": "7", "reason": "ok"}'))
    judge = Judge(f"openai:gpt-4o-mini?{FAST}", environ=provider_env(fo.base_url))
    try:
        judged = await judge.score("Reasoning", "explains a vote", "...", "Why?", "Because.")
    finally:
        await judge.aclose()
    assert judged.score == 7 and judged.tally.transcript[-1]["content"] == \
        '{"score": "7", "reason": "ok"}'


async def test_labels_are_matched_to_the_categories_and_unknown_ones_dropped(fo):
    fo.script(Reply('{"labels": ["deception", "TRUTH TELLING", "sarcasm"]}'),
              Reply('{"labels": ["sarcasm"]}'), Reply('{"labels": []}'))
    judge = Judge(f"openai:gpt-4o-mini?{FAST}", environ=provider_env(fo.base_url))
    try:
        first = await judge.label(CATEGORIES, "I was in Medbay the whole time.")
        second = await judge.label(CATEGORIES, "Hm.")
    finally:
        await judge.aclose()
    assert first.labels == ("Deception", "Truth-telling")
    assert second.labels == () and "none of its labels" in second.reason


def test_a_judge_without_its_key_is_refused():
    with pytest.raises(ValueError, match="needs an API key: set ANTHROPIC_API_KEY"):
        Judge("anthropic:claude-3-5-haiku-latest", environ={})
