"""`parlor bots check SPEC` (bots.llm.check.run_bots_check) against local fake servers."""

import socket

from bots.llm.check import run_bots_check
from tests.fakes import FakeAnthropic, FakeOpenAI, Reply, Status
from tests.fakes.seating import FAST, provider_env


def check(spec, environ):
    lines: list[str] = []
    # run_bots_check runs its own event loop, as the CLI calls it from plain code.
    code = run_bots_check(spec, out=lines.append, environ=environ)
    return code, "\n".join(lines)


def test_a_working_spec_passes_every_step():
    with FakeOpenAI(model_ids=("gpt-4o-mini",)) as fo:
        fo.script(Reply("ready"), Reply("Spread evenly. [A7 B7 C6]"))
        code, text = check(f"openai:gpt-4o-mini?{FAST}", provider_env(fo.base_url))
    assert code == 0, text
    for step in ("✓ spec: openai:gpt-4o-mini", "✓ API key: OPENAI_API_KEY is set",
                 "✓ endpoint: reachable, 1 model(s)", "✓ tiny prompt: answered 'ready'",
                 "✓ sample move (colonel-blotto): read as [A7 B7 C6]"):
        assert step in text
    assert [r.path for r in fo.requests] == ["/v1/models", "/v1/chat/completions",
                                             "/v1/chat/completions"]


def test_missing_key_is_named():
    code, text = check("anthropic:claude-haiku-4-5", {})
    assert code == 1
    assert "ANTHROPIC_API_KEY is not set" in text and "export ANTHROPIC_API_KEY" in text


def test_malformed_spec_exits_2():
    code, text = check("openai:gpt-4o?temprature=0", {"OPENAI_API_KEY": "k"})
    assert code == 2 and "unknown setting 'temprature'" in text


def test_unreachable_endpoint_is_reported():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, text = check(f"openai-compatible:llama3.1@http://127.0.0.1:{port}/v1?{FAST}&retries=0",
                       {})
    assert code == 1
    assert "placeholder" in text  # no key needed for a local server
    assert "✗ endpoint" in text and "connection failed" in text


def test_model_that_cannot_answer_in_format_fails_the_check():
    with FakeAnthropic() as fa:
        fa.script(Reply("ready"), Reply("I choose the left flank."), Reply("The left flank!"))
        code, text = check(f"anthropic:claude-haiku-4-5?{FAST}",
                           provider_env(anthropic_url=fa.base_url))
    assert code == 1
    assert "note: 'claude-haiku-4-5' is not in the list" in text
    assert "✗ sample move (colonel-blotto)" in text and "even after one re-ask" in text


def test_unknown_model_is_explained():
    with FakeOpenAI() as fo:
        fo.script(Status(404, message="model 'gpt-9' does not exist"))
        code, text = check(f"openai:gpt-9?{FAST}", provider_env(fo.base_url))
    assert code == 1
    assert "✗ tiny prompt" in text and "model name or base URL" in text

