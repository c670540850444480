"""The SDK clients LLM seats share (bots/llm/clients.py): one per provider, base URL, key and
client options per pool and event loop, made on first use, closed by the pool's owner; and a
multi-game `parlor sim` with real `openai` and `anthropic` clients builds one client per
provider for all its games and closes it at the end."""

import asyncio

import anthropic
import openai
import pytest

from bots.llm import make_llm_bot
from bots.llm.clients import ClientPool
from engine.registry import get
from server.cli import main
from tests.fakes import FakeAnthropic, FakeOpenAI
from tests.fakes.seating import FAST, example_responder, provider_env


@pytest.fixture
def built(monkeypatch):
    """Every SDK client made while the test runs, with the loop it was made on."""
    made: list[tuple[object, asyncio.AbstractEventLoop]] = []

    def counting(sdk_class):
        class Counting(sdk_class):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                made.append((self, asyncio.get_running_loop()))
        return Counting

    monkeypatch.setattr(openai, "AsyncOpenAI", counting(openai.AsyncOpenAI))
    monkeypatch.setattr(anthropic, "AsyncAnthropic", counting(anthropic.AsyncAnthropic))
    return made


async def _decide(bot, env_id="colonel-blotto"):
    env = get(env_id)
    game = env.new_game(env.config(), 0, env.default_players())
    return await bot.decide(game.view(0), game.legal(0).to_json(), {})


async def test_seats_on_one_endpoint_and_key_share_a_client(built):
    with FakeOpenAI(responder=example_responder) as fo, \
            FakeOpenAI(responder=example_responder) as other, \
            FakeAnthropic(responder=example_responder) as fa:
        environ = provider_env(fo.base_url, fa.base_url)
        pool = ClientPool()

        def bot(spec, env=environ):
            return make_llm_bot(spec, "colonel-blotto", 0, env, clients=pool)

        same = [bot(f"openai-compatible:m@{fo.base_url}?{FAST}") for _ in range(3)]
        same.append(bot(f"openai-compatible:another-model@{fo.base_url}?{FAST}&temperature=0.3"))
        elsewhere = bot(f"openai-compatible:m@{other.base_url}?{FAST}")
        keyed = bot(f"openai:gpt-4o-mini?{FAST}")
        other_key = bot(f"openai:gpt-4o-mini?{FAST}", {**environ, "OPENAI_API_KEY": "sk-other"})
        slower = bot(f"openai:gpt-4o-mini?{FAST}&timeout=9")
        claude = [bot(f"anthropic:claude-haiku-4-5?{FAST}") for _ in range(2)]
        everyone = [*same, elsewhere, keyed, other_key, slower, *claude]
        for b in everyone:
            await _decide(b)
        client = {id(b): b.model.provider.client() for b in everyone}
        assert len({id(client[id(b)]) for b in same}) == 1
        assert len({id(client[id(b)]) for b in claude}) == 1
        distinct = [client[id(b)] for b in (same[0], elsewhere, keyed, other_key, slower,
                                            claude[0])]
        assert len({id(c) for c in distinct}) == 6  # other URL, key or timeout: other client
        assert pool.made == len(built) == 6
        assert other_key.model.provider.client().api_key == "sk-other"
        # A game's end closes its bots: the shared client stays open for the other seats.
        await same[0].aclose()
        assert not client[id(same[1])].is_closed()
        assert (await _decide(same[1])).action
        await pool.aclose()
        assert all(c.is_closed() for c in distinct)
        # After its owner closed it, a call (if any) gets a new client rather than a closed one.
        assert (await _decide(same[1])).action and pool.made == 7
        await pool.aclose()


def test_each_event_loop_gets_its_own_client(built):
    pool = ClientPool()
    with FakeOpenAI(responder=example_responder) as fo:
        bot = make_llm_bot(f"openai-compatible:m@{fo.base_url}?{FAST}", "colonel-blotto", 0,
                           {}, clients=pool)

        async def once():
            await _decide(bot)
            await _decide(bot)
            await pool.aclose()

        asyncio.run(once())
        asyncio.run(once())
    assert len(built) == 2 and built[0][1] is not built[1][1]
    assert all(client.is_closed() for client, _ in built)


def test_a_sim_builds_one_client_per_provider_for_all_its_games(built, monkeypatch, capsys):
    with FakeOpenAI(responder=example_responder) as fo, \
            FakeAnthropic(responder=example_responder) as fa:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fa.base_url)
        assert main(["sim", "colonel-blotto", "--seat", f"openai-compatible:m@{fo.base_url}?{FAST}",
                     "--seat", f"anthropic:claude-haiku-4-5?{FAST}", "--games", "4",
                     "--concurrency", "2", "--preset", "small", "--quiet"]) == 0
        assert "4 games (0 void" in capsys.readouterr().out
        decisions = len(fo.completion_requests) + len(fa.completion_requests)
    # `parlor sim` checks each endpoint first on a loop of its own, then plays on another.
    loops = list(dict.fromkeys(loop for _, loop in built))
    assert len(loops) == 2
    played = [client for client, loop in built if loop is loops[1]]
    assert sorted(type(c).__mro__[1].__name__ for c in played) == ["AsyncAnthropic",
                                                                   "AsyncOpenAI"]
    assert decisions > 8 * 2  # every game called both providers, through those two clients
    assert all(client.is_closed() for client, _ in built)
