"""Every registered environment passes the same API conformance suite, the test envs included
(`proving-ground`: long team games with hidden roles; `solo-quiz`: one seat), and the suite
catches the violations it is meant to catch."""

from typing import Any

import pytest

import tests.envs  # noqa: F401  (registers the test envs)
from engine.conformance import (
    MAX_STEPS,
    TWIN_DENSE,
    TWIN_RATIO,
    VIEW_DENSE,
    VIEW_RATIO,
    Schedule,
    check_env,
    play_random,
)
from engine.core import ConfigError, GameOverError, UnknownSeatError
from engine.registry import all_envs, get
from tests.envs.proving import ProvingConfig, ProvingEnv, ProvingGame

# (env, preset) games too long to play for three seeds: each runs once, with one seed.
LONG = {("proving-ground", "paper")}


# Envs whose random games are long: every preset at a sample of player counts, one seed each.
SAMPLED = {"socialgrid": {"league-10x10": (5, 7), "league-14x14": (5,), "navigation": (1, 3),
                          "navigation-oracle": (2,), "rooms-4": (1,), "rooms-6": (1,),
                          "rooms-9": (1,), "rooms-16": (2,), "size-10": (1,), "size-14": (1,),
                          "size-18": (1,), "people": (6,)}}


@pytest.mark.parametrize("env", [e for e in all_envs() if e.id not in SAMPLED], ids=lambda e: e.id)
def test_env_conforms(env):
    check_env(env, presets=[p for p in env.presets if (env.id, p) not in LONG])


@pytest.mark.parametrize(("env_id", "preset", "players"),
                         [(e, p, n) for e, presets in SAMPLED.items()
                          for p, n in presets.items()])
def test_long_env_conforms_on_a_sample(env_id, preset, players):
    check_env(get(env_id), seeds=range(1), presets=[preset], players=players)


@pytest.mark.parametrize(("env_id", "preset"), sorted(LONG))
def test_long_game_conforms(env_id, preset):
    """The proving ground's paper preset: 2,500 ticks of 7 simultaneous seats (~19,000 actions
    with the random garbage), checked in full within seconds."""
    check_env(get(env_id), seeds=range(1), presets=[preset])


def test_the_test_envs_are_registered():
    ids = {e.id for e in all_envs()}
    assert {"proving-ground", "solo-quiz"} <= ids
    assert get("solo-quiz").rating == "none" and get("solo-quiz").players == (1,)


def test_checks_are_sampled_so_long_games_stay_linear():
    def sampled(schedule: Schedule, steps: int) -> int:
        return sum(schedule(step) for step in range(steps))

    assert sampled(Schedule(VIEW_DENSE, VIEW_RATIO), 50) == 50
    assert sampled(Schedule(VIEW_DENSE, VIEW_RATIO), 20_000) <= 300
    assert sampled(Schedule(VIEW_DENSE, VIEW_RATIO), MAX_STEPS) <= 400
    assert sampled(Schedule(TWIN_DENSE, TWIN_RATIO), 20_000) <= TWIN_DENSE + 25


# ------------------------------------------------------------ the suite catches violations
def _broken(game_overrides: dict[str, Any], env_overrides: dict[str, Any] | None = None,
            ticks: int = 40) -> ProvingEnv:
    """A proving ground whose game (and env) methods are replaced by `*_overrides`."""
    game_class = type("BrokenGame", (ProvingGame,), {"__slots__": (), **game_overrides})
    attrs = {"game_class": game_class, "presets": {"paper": ProvingConfig(ticks=ticks)},
             **(env_overrides or {})}
    return type("BrokenEnv", (ProvingEnv,), attrs)()


def _fails(env: ProvingEnv, message: str) -> None:
    with pytest.raises(AssertionError, match=message):
        play_random(env, "paper", 7, 0)


def test_the_suite_catches_a_pending_decision_shown_to_others():
    def public(self):
        return {**ProvingGame._public_state(self), "moves": list(self._moves)}
    _fails(_broken({"_public_state": public}), "reveals seat .* pending decision")


def test_the_suite_catches_views_that_grow_with_the_game():
    def public(self):
        return {**ProvingGame._public_state(self), "recent": self.history[:]}
    _fails(_broken({"_public_state": public}, ticks=300), "views grow with the game")


def test_the_suite_catches_a_hidden_role_shown_to_the_other_side():
    def private(self, seat):
        return {**ProvingGame._private_state(self, seat), "all": [r.name for r in self.roles]}
    _fails(_broken({"_private_state": private}), "names role")


def test_the_suite_catches_a_hidden_role_in_an_event():
    def resolve(self):
        self.emit("gossip", {"captains": [self.roles[s].name for s in sorted(self._captains)]})
        ProvingGame._resolve(self)
    _fails(_broken({"_resolve": resolve}), "shows seat .* the role")


def test_the_suite_catches_a_refused_default_move():
    _fails(_broken({"default_action": lambda self, seat: {"choice": "dance"}}),
           "default move .* was refused")


def test_the_suite_catches_roles_that_are_not_deterministic():
    dealt = iter(range(10**6))

    def assign_roles(self, config, seed, players):
        return ProvingEnv.assign_roles(self, config, seed + next(dealt), players)
    _fails(_broken({}, {"assign_roles": assign_roles}), "not deterministic")


def test_the_suite_catches_a_view_that_changes_after_later_moves():
    def resolve(self):
        if self.history:
            self.history[-1]["gains"]["red"] += 100  # an entry views already hold
        ProvingGame._resolve(self)
    _fails(_broken({"_resolve": resolve}), "view changed after later moves")


def test_the_suite_catches_a_clock_that_is_not_a_dict():
    def init(self, *args):
        ProvingGame.__init__(self, *args)
        self.clock = ["tick", 1]
    _fails(_broken({"__init__": init}), "dict clock")


def test_the_suite_catches_a_metric_without_a_label():
    env = _broken({}, {"metric_labels": {k: v for k, v in ProvingEnv.metric_labels.items()
                                         if k != "ticks_played"}})
    with pytest.raises(AssertionError, match=r"without a label in metric_labels: \['ticks_played'\]"):
        check_env(env, seeds=range(1))


def test_the_suite_catches_a_transcript_line_that_ignores_the_namer():
    def describe_event(self, event, seat, name=None):
        line = ProvingEnv.describe_event(self, event, seat, name)
        return f"{line} (by {self.seat_name(0)})" if event.type == "game_over" else line
    with pytest.raises(AssertionError, match="names a seat 'Player 0' despite the namer"):
        check_env(_broken({}, {"describe_event": describe_event}), seeds=range(1))


def test_describe_sends_help_and_metric_labels_of_every_env():
    for env in all_envs():
        d = env.describe()
        assert isinstance(d["help"], str) and d["help"].startswith("# ")
        assert d["metric_labels"] == dict(env.metric_labels) and d["metric_labels"]


def test_an_env_without_a_help_file_gets_one_made_from_its_title_and_description():
    solo = get("solo-quiz")
    assert solo.help == ("# Solo quiz\n\nOne player answers a few arithmetic questions (a test "
                         "env without ratings).\n\nPlayed by 1 player.\nSeats: Solver.\n\n"
                         "This game has no help page of its own yet: the text shown at each turn "
                         "says what you may do and how to answer.\n")
    assert get("proving-ground").help.startswith("# Proving ground\n\nTwo teams")
    assert "Played by 7 players." in get("proving-ground").help


def test_env_help_files_are_read_from_their_packages():
    for env_id, package in (("colonel-blotto", "engine.colonel_blotto"),
                            ("three-player-ipd", "engine.three_player_ipd")):
        from importlib import resources
        text = resources.files(package).joinpath("help.md").read_text("utf-8")
        assert get(env_id).help == text


def test_unknown_presets_are_refused():
    with pytest.raises(AssertionError, match="no preset"):
        check_env(get("solo-quiz"), presets=["nope"])


# -------------------------------------------------------------------- the base Game's bookkeeping
@pytest.fixture(params=all_envs(), ids=lambda e: e.id)
def game(request):
    env = request.param
    return env.new_game(env.config(), 5, env.default_players())


def test_configs_are_checked_when_made():
    for env in all_envs():
        data = env.config().to_json()
        numbers = [k for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)]
        words = [k for k, v in data.items() if isinstance(v, str)]  # a config of choices only
        key, bad = (numbers[0], -10**9) if numbers else (words[0], "no-such-choice")
        with pytest.raises(ConfigError):
            env.Config(**{**data, key: bad})


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
