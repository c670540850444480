"""Every registered environment passes the same API conformance suite."""

import pytest

from engine.conformance import check_env
from engine.core import ConfigError, GameOverError, UnknownSeatError
from engine.registry import all_envs


@pytest.mark.parametrize("env", all_envs(), ids=lambda e: e.id)
def test_env_conforms(env):
    check_env(env)


# -------------------------------------------------------------------- the base Game's bookkeeping
@pytest.fixture(params=all_envs(), ids=lambda e: e.id)
def game(request):
    env = request.param
    return env.new_game(env.config(), 5, env.default_players())


def test_configs_are_checked_when_made():
    for env in all_envs():
        data = env.config().to_json()
        key = next(k for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool))
        with pytest.raises(ConfigError):
            env.Config(**{**data, key: -10**9})


def test_records_are_built_on_demand_and_keep_their_own_copy(game):
    assert game.last_action() is None and game.actions == []
    seat = min(game.pending())
    action = {"text": "hello"}
    game.act(seat, action, meta={"latency_ms": 12.5})
    action["text"] = "changed"
    record = game.last_action()
    assert record == game.actions[-1] and record.seat == seat and record.step == 0
    assert record.raw == {"text": "hello"} and record.meta == {"latency_ms": 12.5}
    assert record.outcome in ("ok", "invalid") and (record.error is None) == (record.outcome == "ok")


def test_a_bool_is_not_a_seat(game):
    with pytest.raises(UnknownSeatError):
        game.act(True, "x")
    with pytest.raises(UnknownSeatError):
        game.view(False)


def test_the_game_rng_is_seeded_and_made_once(game):
    twin = game.env.new_game(game.config, game.seed, game.players)
    assert game.rng is game.rng
    assert [game.rng.random() for _ in range(3)] == [twin.rng.random() for _ in range(3)]


def test_an_aborted_game_awaits_nobody(game):
    game.abort("server shut down")
    assert game.over and game.result.void and not game.pending()
    with pytest.raises(GameOverError):
        game.act(0, "x")
