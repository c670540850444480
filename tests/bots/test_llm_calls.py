"""LLM bots against local fake servers, through the real openai/anthropic clients: usage,
re-asks, retries, Retry-After, failures, request parameters and settings stamping."""

import asyncio

import pytest

from bots.base import BotError
from bots.llm.limits import RateLimiter
from engine.registry import get
from tests.fakes import Drop, Raw, Reply, Status
from tests.fakes.seating import FAST, close_llm_bots, llm_bot, provider_env, user_texts

ENV = "colonel-blotto"
__all__ = ["close_llm_bots"]  # autouse fixture




def blotto():
    env = get(ENV)
    return env.new_game(env.config(), seed=3, players=2)


async def decide(bot, game, seat=0, memory=None):
    return await bot.decide(game.view(seat), game.legal(seat).to_json(),
                            {} if memory is None else memory)


def openai_bot(server, settings=FAST, model="gpt-4o-mini"):
    return llm_bot(f"openai:{model}?{settings}", ENV, 0, provider_env(server.base_url))


async def test_illegal_answer_is_reasked_once_and_usage_is_summed(fo):
    fo.script(Reply("All in on A: [A30 B0 C0]", prompt_tokens=100, completion_tokens=10,
                    cached_tokens=40),
              Reply("Fine.\n[A10 B5 C5]", prompt_tokens=120, completion_tokens=12))
    d = await decide(openai_bot(fo), blotto())
    assert d.action == "[A10 B5 C5]" and d.raw_output == "Fine.\n[A10 B5 C5]"
    assert (d.prompt_tokens, d.completion_tokens, d.cached_tokens) == (220, 22, 40)
    # gpt-4o-mini: 0.15 $/M input, 0.075 cached, 0.60 output
    expected = (60 * 0.15 + 40 * 0.075 + 10 * 0.60 + 120 * 0.15 + 12 * 0.60) / 1e6
    assert d.cost == pytest.approx(expected)
    assert d.retries == 0
    second = fo.completion_requests[1].messages
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert second[2]["content"] == "All in on A: [A30 B0 C0]"
    reask = second[3]["content"]
    assert "read as [A30 B0 C0]" in reask and "not allowed" in reask
    assert "only 20 are available" in reask  # the engine's own rule message
    replies = [m["content"] for m in d.transcript if m.get("role") == "assistant"]
    assert replies == ["All in on A: [A30 B0 C0]", "Fine.\n[A10 B5 C5]"]
    assert [m.get("reask") for m in d.transcript if m.get("reask")] == ["illegal"]


async def test_garbage_is_reasked_once_then_handed_to_the_engine(fo):
    # Prose that mentions a split is not a move: the bot must not build [A7 B7 C6] from it.
    fo.script(Reply("I'd put 7 on A, 7 on B and 6 on C."), Reply("Still thinking..."))
    game = blotto()
    d = await decide(openai_bot(fo), game)
    assert len(fo.completion_requests) == 2  # one re-ask, never more
    reask = fo.completion_requests[1].messages[-1]["content"]
    assert "could not be read" in reask and "[A7 B7 C6]" in reask  # names the format
    assert d.action == "Still thinking..."
    game.act(0, d.action)
    assert game.actions[-1].outcome == "invalid"  # the env's invalid-move policy applies
    assert game.view(0)["private"]["last_error"]


async def test_reask_can_be_switched_off(fo):
    fo.script(Reply("no idea"))
    d = await decide(openai_bot(fo, FAST + "&reask=false"), blotto())
    assert len(fo.completion_requests) == 1 and d.action == "no idea"


async def test_transient_failures_are_retried(fo):
    fo.script(Status(500), Drop(), Raw(b'{"id": "x", "choices": [{"mess'),
              Raw(b"<html>bad gateway</html>", content_type="text/html"),
              Reply("[A7 B7 C6]"))
    d = await decide(openai_bot(fo), blotto())
    assert d.action == "[A7 B7 C6]" and d.retries == 4
    assert len(fo.completion_requests) == 5
    failed = next(m for m in d.transcript if m.get("content") == "[A7 B7 C6]")
    assert [f["status"] for f in failed["failed_attempts"]] == [500, None, None, None]
    assert d.prompt_tokens > 0  # only the successful call is billed


async def test_exhausted_retries_raise_bot_error(fo):
    fo.script(Status(503), Status(502), Status(500))
    with pytest.raises(BotError, match="failed after 3 attempt") as err:
        await decide(openai_bot(fo, FAST + "&retries=2"), blotto())
    assert len(fo.completion_requests) == 3
    assert len(err.value.transcript[-1]["failed_attempts"]) == 3


async def test_refused_key_fails_at_once(fo):
    fo.script(Status(401, message="invalid api key"))
    with pytest.raises(BotError, match="API key"):
        await decide(openai_bot(fo), blotto())
    assert len(fo.completion_requests) == 1


async def test_retry_after_is_honoured(fo):
    fo.script(Status(429, retry_after="1"), Reply("[A7 B7 C6]"))
    d = await decide(openai_bot(fo), blotto())  # backoff alone would wait ~0.01 s
    first, second = fo.completion_requests
    assert second.at - first.at >= 1.0
    failed = next(m for m in d.transcript if m.get("failed_attempts"))["failed_attempts"]
    assert failed[0]["retry_after"] == 1.0 and failed[0]["wait"] >= 1.0
    assert d.retries == 1


async def test_retry_after_beyond_max_wait_fails_at_once(fo):
    fo.script(Status(429, retry_after="600"))
    with pytest.raises(BotError, match="asked to wait 600 s"):
        await decide(openai_bot(fo, FAST + "&max_wait=10"), blotto())
    assert len(fo.completion_requests) == 1


async def test_slow_answer_times_out_and_is_retried(fo):
    fo.script(Reply("[A20 B0 C0]", delay=1.5), Reply("[A7 B7 C6]"))
    d = await decide(openai_bot(fo, "backoff=0.01&timeout=0.3"), blotto())
    assert d.action == "[A7 B7 C6]" and d.retries == 1
    failed = next(m for m in d.transcript if m.get("failed_attempts"))["failed_attempts"]
    assert "timed out" in failed[0]["error"]


async def test_openai_request_carries_settings_and_phase_overrides(fo):
    fo.script(Reply("[A7 B7 C6]"))
    bot = openai_bot(fo, FAST + "&temperature=0.9&allocate.temperature=0.1&max_tokens=300"
                           "&seed=42&reasoning_effort=low&top_p=0.5")
    await decide(bot, blotto())
    body = fo.completion_requests[0].body
    assert body["model"] == "gpt-4o-mini"
    assert body["temperature"] == 0.1  # Blotto's decision phase is "allocate"
    assert (body["max_completion_tokens"], body["seed"], body["reasoning_effort"],
            body["top_p"]) == (300, 42, "low", 0.5)
    assert body["messages"][0]["role"] == "system"
    assert "Commander Alpha" in body["messages"][0]["content"]
    assert fo.completion_requests[0].headers["authorization"] == "Bearer sk-test"


async def test_compatible_server_gets_max_tokens_and_placeholder_key(fo):
    fo.script(Reply("[A7 B7 C6]"))
    bot = llm_bot(f"openai-compatible:llama3.1:8b@{fo.base_url}?max_tokens=64", ENV, 0, {})
    assert bot.identity == f"openai-compatible:llama3.1:8b@{fo.base_url}"
    await decide(bot, blotto())
    body = fo.completion_requests[0].body
    assert body["max_tokens"] == 64 and "max_completion_tokens" not in body
    assert body["model"] == "llama3.1:8b"
    assert fo.completion_requests[0].headers["authorization"] == "Bearer not-needed"


async def test_anthropic_request_usage_and_cost(fa):
    fa.script(Reply("[A7 B7 C6]", prompt_tokens=1000, completion_tokens=50, cached_tokens=600))
    bot = llm_bot("anthropic:claude-haiku-4-5?temperature=0.4&reasoning_effort=high"
                       "&max_tokens=200&" + FAST, ENV, 0, provider_env(anthropic_url=fa.base_url))
    d = await decide(bot, blotto(), seat=1)
    body = fa.completion_requests[0].body
    assert "Commander Beta" in body["system"]
    assert [m["role"] for m in body["messages"]] == ["user"]
    assert (body["temperature"], body["max_tokens"]) == (0.4, 200)
    assert body["output_config"] == {"effort": "high"}
    headers = fa.completion_requests[0].headers
    assert "sk-ant-test" in (headers.get("x-api-key") or headers["authorization"])
    # Anthropic reports cache reads apart from input tokens; the decision counts all prompt tokens.
    assert (d.prompt_tokens, d.cached_tokens, d.completion_tokens) == (1000, 600, 50)
    assert d.cost == pytest.approx((400 * 1.0 + 600 * 0.10 + 50 * 5.0) / 1e6)


async def test_anthropic_overload_is_retried(fa):
    fa.script(Status(529), Reply("[A7 B7 C6]"))
    bot = llm_bot("anthropic:claude-haiku-4-5?" + FAST, ENV, 0,
                       provider_env(anthropic_url=fa.base_url))
    d = await decide(bot, blotto())
    assert d.retries == 1 and d.action == "[A7 B7 C6]"


async def test_settings_are_stamped_apart_from_identity(fo):
    bot = openai_bot(fo, "temperature=0.3&vote.temperature=0&rpm=30", model="gpt-4.1-mini")
    stamp = bot.settings()
    assert bot.identity == stamp["identity"] == "openai:gpt-4.1-mini"
    assert stamp["provider"] == "openai" and stamp["model"] == "gpt-4.1-mini"
    assert stamp["base_url"] == fo.base_url and stamp["base_url_from"] == "OPENAI_BASE_URL"
    assert stamp["sampling"]["temperature"] == 0.3 and stamp["sampling"]["rpm"] == 30
    assert stamp["sampling"]["phases"] == {"vote": {"temperature": 0.0}}
    assert stamp["prompt"]["builder"] == "BlottoPrompts" and len(stamp["prompt"]["hash"]) == 16
    assert stamp["price_per_mtok"]["output"] == 1.60
    assert "sk-test" not in repr(stamp)  # keys are never stamped
    other = openai_bot(fo, "temperature=1.0", model="gpt-4.1-mini")
    assert other.identity == bot.identity
    assert other.settings()["prompt"] == stamp["prompt"]


async def test_concurrency_limit_serialises_calls(fo):
    fo.script(Reply("[A7 B7 C6]", delay=0.3), Reply("[A7 B7 C6]", delay=0.3))
    bots = [openai_bot(fo, FAST + "&concurrency=1") for _ in range(2)]
    game = blotto()
    await asyncio.gather(decide(bots[0], game, 0), decide(bots[1], game, 1))
    first, second = fo.completion_requests
    assert second.at - first.at >= 0.3  # the second call started after the first finished


async def test_rate_limiter_spaces_requests_per_minute():
    now, slept = [0.0], []

    async def fake_sleep(seconds):
        slept.append(seconds)
        now[0] += seconds

    limiter = RateLimiter(2, clock=lambda: now[0], sleep=fake_sleep)
    await limiter.wait()
    now[0] += 10
    await limiter.wait()
    assert slept == []
    await limiter.wait()  # a third start within the minute waits for the first to age out
    assert slept == [50.0]


async def test_user_text_is_the_rendered_view(fo):
    fo.script(Reply("[A7 B7 C6]"))
    game = blotto()
    await decide(openai_bot(fo), game)
    (text,) = user_texts(fo.completion_requests[0].messages)
    assert get(ENV).render(game.view(0)) in text
