"""Whole games of every registered env with LLM bots on fake servers (through the engine, as the
server drives them), and context trimming in long games."""

import pytest

from bots.llm.context import CUT_MARKER
from engine.registry import all_envs, get
from tests.fakes import FakeAnthropic, FakeOpenAI, Reply
from tests.fakes.seating import (
    FAST,
    close_llm_bots,
    example_responder,
    llm_bot,
    play,
    provider_env,
    user_texts,
)

__all__ = ["close_llm_bots"]  # autouse fixture


@pytest.fixture
def servers():
    with FakeOpenAI(responder=example_responder) as fo, \
            FakeAnthropic(responder=example_responder) as fa:
        yield fo, fa


def seat_specs(players: int, compat_url: str) -> list[str]:
    """Mix the three provider kinds around the table."""
    kinds = [f"openai:gpt-4o-mini?{FAST}", f"anthropic:claude-haiku-4-5?{FAST}",
             f"openai-compatible:qwen3:8b@{compat_url}?{FAST}"]
    return [kinds[i % 3] for i in range(players)]


# SocialGrid's games run to 2,500 steps of 7 seats: its LLM bots play real steps and a meeting
# against the fake providers in tests/bots/test_socialgrid_prompts.py instead. The test envs
# (tests/envs, registered once some test imports them) are the platform's, not for LLMs.
@pytest.mark.parametrize("env", [e for e in all_envs() if e.id != "socialgrid"
                                 and not type(e).__module__.startswith("tests.")],
                         ids=lambda e: e.id)
async def test_full_game_with_llm_bots(env, servers):
    fo, fa = servers
    players = env.default_players()
    environ = provider_env(fo.base_url, fa.base_url)
    bots = [llm_bot(spec, env.id, seat, environ)
            for seat, spec in enumerate(seat_specs(players, fo.base_url))]
    game = env.new_game(env.config(), seed=11, players=players)
    decisions = await play(game, bots)
    assert game.over and not game.result.void
    assert all(a.outcome == "ok" for a in game.actions), \
        [a.error for a in game.actions if a.outcome != "ok"]
    assert len(decisions) == len(game.actions)
    assert len(fo.completion_requests) + len(fa.completion_requests) == len(decisions)
    for _, d in decisions:
        assert d.prompt_tokens > 0 and d.completion_tokens > 0 and d.latency_ms > 0
        assert d.raw_output and d.transcript[0]["role"] == "system"
    metrics = env.game_metrics(game.record())
    assert set(metrics) >= {"game", "seats"}


async def test_long_game_cuts_history_with_marker_and_summary():
    blotto = get("colonel-blotto")
    config = blotto.config("extreme")  # 7 fields, 25 rounds: a long history
    with FakeOpenAI(responder=example_responder) as fo:
        environ = provider_env(fo.base_url)
        spec = f"openai:gpt-4o-mini?{FAST}&context_tokens=1000"
        bots = [llm_bot(spec, blotto.id, s, environ) for s in range(2)]
        memories = [{}, {}]
        game = blotto.new_game(config, seed=5, players=2)
        await play(game, bots, memories)
        texts = [user_texts(r.messages)[0] for r in fo.completion_requests]
    assert game.over
    early, late = texts[0], texts[-1]
    assert CUT_MARKER not in early
    assert CUT_MARKER in late
    last_round = game.view(0)["public"]["history"][-1]["round"]
    assert f"Round {last_round - 1}:" in late  # the most recent rounds stay in full
    assert "Round 1:" not in late  # the oldest rounds are only summarised
    assert "Rounds 1-" in late and "Average allocation" in late  # the running summary
    assert all(len(t) // 4 + 1 <= 1000 for t in texts)  # within the budget (4 chars/token)
    assert memories[0]["llm"]["history_cuts"] > 0


async def test_anthropic_and_openai_bots_meet_in_blotto():
    blotto = get("colonel-blotto")

    def fixed(answer):
        return lambda request: Reply(f"Plan: go heavy.\n{answer}")

    with FakeOpenAI(responder=fixed("[A10 B10 C0]")) as fo, \
            FakeAnthropic(responder=fixed("[A7 B7 C6]")) as fa:
        environ = provider_env(fo.base_url, fa.base_url)
        bots = [llm_bot(f"openai:gpt-4o-mini?{FAST}", blotto.id, 0, environ),
                llm_bot(f"anthropic:claude-haiku-4-5?{FAST}", blotto.id, 1, environ)]
        game = blotto.new_game(blotto.config(), seed=1, players=2)
        await play(game, bots)
    # [A10 B10 C0] beats [A7 B7 C6] on A and B every round: Alpha wins 5-0.
    assert game.result.winners == (0,)
    assert game.result.rewards == {0: 1.0, 1: -1.0}
