"""LLM specs, settings and prices: what users write on the command line and what it costs."""

import json

import pytest

from bots.llm import SettingsError, SpecError, parse_spec
from bots.llm.prices import Price, PriceError, find_price, load_prices
from bots.registry import BotSpecError, make_bot


def test_identity_drops_settings_and_settings_parse():
    spec = parse_spec("openai:gpt-4o-mini?temperature=0.2&max_tokens=256&vote.temperature=0"
                      "&seed=7&reask=false", {})
    assert spec.identity == "openai:gpt-4o-mini"
    s = spec.settings
    assert (s.temperature, s.max_tokens, s.seed, s.reask) == (0.2, 256, 7, False)
    assert s.for_phase("vote")["temperature"] == 0.0
    assert s.for_phase("vote")["max_tokens"] == 256  # phases inherit what they don't override
    assert s.for_phase("chat")["temperature"] == 0.2


def test_base_urls_come_from_spec_or_environment():
    spec = parse_spec("openai-compatible:qwen3:8b@http://localhost:11434/v1/?temperature=0.7", {})
    assert (spec.model, spec.base_url) == ("qwen3:8b", "http://localhost:11434/v1")
    assert spec.identity == "openai-compatible:qwen3:8b@http://localhost:11434/v1"
    assert spec.api_key({}) == "not-needed"  # local servers run without a key
    env = {"OPENAI_COMPATIBLE_BASE_URL": "http://gpu:8000/v1"}
    assert parse_spec("openai-compatible:llama", env).identity == \
        "openai-compatible:llama@http://gpu:8000/v1"
    assert parse_spec("anthropic:claude-haiku-4-5", {}).base_url == "https://api.anthropic.com"
    assert parse_spec("openai:gpt-4o", {"OPENAI_BASE_URL": "http://proxy/v1"}).base_url == \
        "http://proxy/v1"


@pytest.mark.parametrize("spec, complaint", [
    ("openai-compatible:llama", "names no server"),
    ("openai:", "no valid model"),
    ("openai:gpt-4o?temprature=1", "unknown setting 'temprature'"),
    ("openai:gpt-4o?temperature=hot", "needs a float"),
    ("openai:gpt-4o?temperature=3", "between 0 and 2"),
    ("openai:gpt-4o?vote.timeout=3", "a phase may override"),
    ("openai:gpt-4o?reasoning_effort=huge", "reasoning_effort must be one of"),
])
def test_bad_specs_say_what_is_wrong(spec, complaint):
    with pytest.raises((SpecError, SettingsError), match=complaint):
        parse_spec(spec, {})


def test_make_bot_reports_missing_key_as_spec_error(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(BotSpecError, match="ANTHROPIC_API_KEY"):
        make_bot("anthropic:claude-haiku-4-5", "colonel-blotto")
    with pytest.raises(BotSpecError, match="unknown setting"):
        make_bot("openai:gpt-4o?bogus=1", "colonel-blotto")


def test_cost_uses_cached_rate_and_snapshot_names():
    table = load_prices({})
    price = find_price(table, "openai", "gpt-4o-mini-2024-07-18", "openai:gpt-4o-mini-2024-07-18")
    assert price == table["openai:gpt-4o-mini"]
    # 1M prompt tokens of which 400k cached, 100k completion: 0.6*0.15 + 0.4*0.075 + 0.1*0.60
    assert price.cost(1_000_000, 100_000, 400_000) == pytest.approx(0.09 + 0.03 + 0.06)
    assert find_price(table, "openai", "o3-pro", "openai:o3-pro") is None  # not o3's price
    assert find_price(table, "anthropic", "claude-haiku-4-5-20251001",
                      "anthropic:claude-haiku-4-5-20251001") == table["anthropic:claude-haiku-4-5"]


def test_user_price_file_extends_and_overrides(tmp_path):
    path = tmp_path / "prices.json"
    path.write_text(json.dumps({
        "openai-compatible:llama3.1": {"input": 0.0, "output": 0.0},
        "openai:gpt-4o-mini": {"input": 1.0, "output": 2.0},
    }))
    table = load_prices({"PARLOR_PRICES": str(path)})
    assert table["openai:gpt-4o-mini"] == Price(1.0, 2.0)
    assert find_price(table, "openai-compatible", "llama3.1",
                      "openai-compatible:llama3.1@http://localhost:11434/v1") == Price(0.0, 0.0)
    assert table["openai:gpt-4o"].input == 2.5  # shipped entries stay
    path.write_text('{"x": {"input": "free"}}')
    with pytest.raises(PriceError, match="needs numbers"):
        load_prices({"PARLOR_PRICES": str(path)})
