"""Parlor's own call path (bots/llm/providers.py posts the body the SDK would build and reads
the answer's JSON) against the SDKs' own `create`, on the same local fake server: the same
request, byte for byte, and the answer read the same, garbled ones retried."""

import pytest

from bots.llm.providers import ProviderError, make_provider
from bots.llm.spec import parse_spec
from tests.fakes import Raw, Reply
from tests.fakes.seating import FAST, provider_env

SYSTEM = "You are Commander Alpha."
MESSAGES = [{"role": "user", "content": "Allocate 20 units: [A7 B7 C6]"},
            {"role": "assistant", "content": "[A30]"},
            {"role": "user", "content": "Only 20 units. Answer again."}]
PARAMS = {"max_tokens": 200, "temperature": 0.4, "top_p": 0.9, "reasoning_effort": "high"}


def provider(spec: str, server):
    parsed = parse_spec(spec + ("&" if "?" in spec else "?") + FAST, provider_env(server.base_url, server.base_url))
    return make_provider(parsed, "sk-test")


def same_request(ours, sdks) -> None:
    assert (ours.method, ours.path) == (sdks.method, sdks.path)
    assert list(ours.body.items()) == list(sdks.body.items())  # the keys in the same order too
    assert ours.headers == sdks.headers


async def test_anthropic_posts_what_messages_create_sends(fa):
    fa.script(Reply("[A7 B7 C6]"), Reply("[A7 B7 C6]"))
    ours = provider("anthropic:claude-haiku-4-5", fa)
    await ours.complete(SYSTEM, MESSAGES, PARAMS)
    await ours.client().messages.create(
        model="claude-haiku-4-5", system=SYSTEM, messages=MESSAGES, max_tokens=200,
        output_config={"effort": "high"}, extra_body={"temperature": 0.4, "top_p": 0.9})
    await ours.aclose()
    sent, create = fa.completion_requests
    same_request(sent, create)
    assert "anthropic-version" in sent.headers and sent.body["output_config"] == {"effort": "high"}


async def test_anthropic_leaves_out_what_is_unset(fa):
    fa.script(Reply("[A7 B7 C6]"), Reply("[A7 B7 C6]"))
    ours = provider("anthropic:claude-haiku-4-5", fa)
    await ours.complete(SYSTEM, MESSAGES[:1], {"max_tokens": 50, "temperature": None})
    await ours.client().messages.create(model="claude-haiku-4-5", system=SYSTEM,
                                        messages=MESSAGES[:1], max_tokens=50)
    await ours.aclose()
    same_request(*fa.completion_requests)
    assert set(fa.completion_requests[0].body) == {"max_tokens", "messages", "model", "system"}


async def test_openai_posts_what_chat_completions_create_sends(fo):
    fo.script(Reply("[A7 B7 C6]"), Reply("[A7 B7 C6]"))
    ours = provider("openai:gpt-4o-mini?seed=7", fo)
    await ours.complete(SYSTEM, MESSAGES, PARAMS)
    await ours.client().chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "system", "content": SYSTEM}, *MESSAGES],
        max_completion_tokens=200, temperature=0.4, top_p=0.9, reasoning_effort="high", seed=7)
    await ours.aclose()
    same_request(*fo.completion_requests)


async def test_anthropic_answer_is_read_from_its_blocks_and_usage(fa):
    fa.script(Raw(b'{"type": "message", "role": "assistant", "content": ['
                  b'{"type": "thinking", "thinking": "hmm", "signature": "x"},'
                  b'{"type": "text", "text": "I spread. "}, {"type": "text", "text": "[A7 B7 C6]"}],'
                  b'"stop_reason": "max_tokens", "usage": {"input_tokens": 100, "output_tokens": 9,'
                  b'"cache_read_input_tokens": 600, "cache_creation_input_tokens": 300}}'))
    ours = provider("anthropic:claude-haiku-4-5", fa)
    done = await ours.complete(SYSTEM, MESSAGES, PARAMS)
    await ours.aclose()
    assert done.text == "I spread. [A7 B7 C6]" and done.finish_reason == "max_tokens"
    # all prompt tokens: uncached, read from the cache and written to it
    assert (done.prompt_tokens, done.cached_tokens, done.completion_tokens) == (1000, 600, 9)


@pytest.mark.parametrize("body", [
    b'{"type": "message", "content": [{"type": "te',  # truncated
    b"<html>bad gateway</html>",
    b'{"type": "message", "usage": {"input_tokens": 1}}',  # no content
    b'{"type": "message", "content": "[A7 B7 C6]"}',  # content not a list of blocks
    b'{"type": "message", "content": [{"type": "text"}]}',  # a text block without text
    b"[]", b"null"])
async def test_anthropic_garbled_answer_is_a_retryable_error(fa, body):
    fa.script(Raw(body, content_type="text/html" if body.startswith(b"<") else
                  "application/json"))
    ours = provider("anthropic:claude-haiku-4-5", fa)
    with pytest.raises(ProviderError) as failed:
        await ours.complete(SYSTEM, MESSAGES, PARAMS)
    await ours.aclose()
    assert failed.value.retryable

