"""Env configs are type-checked when made and survive JSON exactly (equal and equally hashed)."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.config import Config, field_names
from engine.errors import ConfigError
from engine.registry import all_envs


class Mode(enum.Enum):
    FAST = "fast"
    SLOW = "slow"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclass(frozen=True)
class Board:
    width: int = 3
    scale: float = 1.0
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Limits(Config):
    """A nested part that is itself a Config, so it validates itself."""

    low: int = 0
    high: int = 10

    def validate(self) -> None:
        if self.low > self.high:
            raise ConfigError(f"limits low must not exceed high, got {self.low} > {self.high}")


@dataclass(frozen=True)
class RichConfig(Config):
    rounds: int = 3
    open_chat: bool = True
    name: str = "table"
    roles: tuple[str, ...] = ("crewmate", "impostor")
    pair: tuple[int, int] = (1, 2)
    mixed: tuple[int, str] = (0, "a")
    temperature: float = 0.7
    mode: Mode = Mode.FAST
    level: Level = Level.LOW
    rule: Literal["rank", "paper"] = "rank"
    seed: int | None = None
    weights: Optional[tuple[float, ...]] = None  # noqa: UP045 (Optional is supported too)
    maybe_mode: Mode | None = None
    board: Board = Board()
    boards: tuple[Board, ...] = ()
    limits: Limits = Limits()
    grid: tuple[tuple[int, ...], ...] = ()

    def validate(self) -> None:
        if self.rounds < 1:
            raise ConfigError(f"rounds must be at least 1, got {self.rounds}")


def roundtrip(config: Config) -> Config:
    return type(config).from_json(json.loads(json.dumps(config.to_json())))


# ------------------------------------------------------------------------------------ round trips
def test_default_rich_config_round_trips_exactly():
    config = RichConfig()
    back = roundtrip(config)
    assert back == config and hash(back) == hash(config)
    assert isinstance(back.roles, tuple) and isinstance(back.board.tags, tuple)
    assert back.mode is Mode.FAST and back.level is Level.LOW


def test_to_json_is_plain_json():
    config = RichConfig(roles=("a",), mode=Mode.SLOW, level=Level.HIGH, weights=(0.5, 2.0),
                        maybe_mode=Mode.SLOW, boards=(Board(width=4, tags=("x",)),),
                        grid=((1, 2), ()))
    data = config.to_json()
    assert data == {
        "rounds": 3, "open_chat": True, "name": "table", "roles": ["a"], "pair": [1, 2],
        "mixed": [0, "a"], "temperature": 0.7, "mode": "slow", "level": 2, "rule": "rank",
        "seed": None, "weights": [0.5, 2.0], "maybe_mode": "slow",
        "board": {"width": 3, "scale": 1.0, "tags": []},
        "boards": [{"width": 4, "scale": 1.0, "tags": ["x"]}],
        "limits": {"low": 0, "high": 10}, "grid": [[1, 2], []],
    }
    assert type(data["level"]) is int and type(data["temperature"]) is float
    assert json.loads(json.dumps(data)) == data  # nothing json would change
    assert roundtrip(config) == config


def test_round_tripped_configs_work_as_cache_keys():
    calls = []

    @lru_cache(maxsize=64)
    def setup(config: RichConfig) -> int:
        calls.append(config)
        return len(config.roles)

    config = RichConfig(roles=("a", "b", "c"), weights=(1.0,))
    assert setup(config) == 3
    assert setup(roundtrip(config)) == 3
    assert len(calls) == 1


def test_lists_become_tuples_when_made():
    config = RichConfig(roles=["a", "b"], pair=[3, 4], weights=[1, 2.5], grid=[[1], [2, 3]],
                        boards=[Board(tags=["t"])])
    assert config == RichConfig(roles=("a", "b"), pair=(3, 4), weights=(1.0, 2.5),
                                grid=((1,), (2, 3)), boards=(Board(tags=("t",)),))
    assert type(config.roles) is tuple and type(config.grid[1]) is tuple
    assert type(config.boards[0].tags) is tuple
    hash(config)  # hashable after conversion


def test_ints_become_floats_for_float_fields():
    config = RichConfig(temperature=1, weights=(1, 2), board=Board(scale=2))
    assert type(config.temperature) is float and config.temperature == 1.0
    assert [type(w) for w in config.weights] == [float, float]
    assert type(config.board.scale) is float
    assert config.to_json()["temperature"] == 1.0
    assert json.dumps(config.to_json()["temperature"]) == "1.0"
    data = json.loads('{"temperature": 2, "weights": [3]}')
    built = RichConfig.from_json(data)
    assert built == RichConfig(temperature=2.0, weights=(3.0,))
    assert type(built.temperature) is float and type(built.weights[0]) is float


def test_from_json_rebuilds_enums_and_nested_dataclasses():
    config = RichConfig.from_json({
        "mode": "slow", "level": 2, "maybe_mode": "fast", "rule": "paper",
        "board": {"width": 5, "tags": ["x", "y"]}, "boards": [{"scale": 3}],
        "limits": {"high": 4}, "grid": [[1, 2]], "seed": 7,
    })
    assert config.mode is Mode.SLOW and config.level is Level.HIGH
    assert config.maybe_mode is Mode.FAST and config.rule == "paper" and config.seed == 7
    assert config.board == Board(width=5, tags=("x", "y"))
    assert config.boards == (Board(scale=3.0),) and type(config.boards[0].scale) is float
    assert config.limits == Limits(high=4) and config.grid == ((1, 2),)


def test_from_json_accepts_values_already_in_python_form():
    # Overrides built in code (e.g. a preset's fields merged with members) are accepted.
    config = RichConfig.from_json({"mode": Mode.SLOW, "board": Board(width=2),
                                   "roles": ("a",)})
    assert config == RichConfig(mode=Mode.SLOW, board=Board(width=2), roles=("a",))


def test_missing_keys_take_their_defaults():
    assert RichConfig.from_json({}) == RichConfig()
    assert RichConfig.from_json({"rounds": 5}) == RichConfig(rounds=5)


# ---------------------------------------------------------------------------- errors when made
@pytest.mark.parametrize(("kwargs", "message"), [
    ({"rounds": "3"}, "config rounds must be an integer, got '3'"),
    ({"rounds": True}, "config rounds must be an integer, got True"),
    ({"rounds": 3.0}, "config rounds must be an integer, got 3.0"),
    ({"open_chat": 1}, "config open_chat must be true or false, got 1"),
    ({"name": 5}, "config name must be a string, got 5"),
    ({"temperature": "hot"}, "config temperature must be a number, got 'hot'"),
    ({"temperature": True}, "config temperature must be a number, got True"),
    ({"temperature": float("nan")}, "config temperature must be a finite number, got nan"),
    ({"temperature": float("inf")}, "config temperature must be a finite number, got inf"),
    ({"roles": "ab"}, "config roles must be a list of strings, got 'ab'"),
    ({"roles": ["a", 3]}, "config roles[1] must be a string, got 3"),
    ({"pair": [1]}, "config pair must be a list of 2 integers, got [1]"),
    ({"pair": (1, "2")}, "config pair[1] must be an integer, got '2'"),
    ({"mixed": (1, 2)}, "config mixed[1] must be a string, got 2"),
    ({"mixed": (1, "a", 2)},
     "config mixed must be a list of 2 items (an integer, a string), got (1, 'a', 2)"),
    ({"mode": "fast"}, "config mode must be one of fast, slow, got 'fast'"),
    ({"level": 1}, "config level must be one of 1, 2, got 1"),
    ({"rule": "best"}, "config rule must be one of rank, paper, got 'best'"),
    ({"seed": "1"}, "config seed must be an integer or null, got '1'"),
    ({"weights": "x"}, "config weights must be a list of numbers or null, got 'x'"),
    ({"weights": [1, "a"]}, "config weights[1] must be a number, got 'a'"),
    ({"maybe_mode": "slow"}, "config maybe_mode must be one of fast, slow or null, got 'slow'"),
    ({"board": {"width": 1}}, "config board must be a Board, got {'width': 1}"),
    ({"board": Board(width="1")}, "config board.width must be an integer, got '1'"),
    ({"boards": [Board(), Board(tags=("a", 1))]},
     "config boards[1].tags[1] must be a string, got 1"),
    ({"grid": [[1], ["x"]]}, "config grid[1][0] must be an integer, got 'x'"),
    ({"grid": [1]}, "config grid[0] must be a list of integers, got 1"),
])
def test_wrong_types_raise_actionable_config_errors_when_made(kwargs, message):
    with pytest.raises(ConfigError) as info:
        RichConfig(**kwargs)
    assert str(info.value) == message


def test_types_are_checked_before_validate():
    # validate() compares rounds with an int; a string must be reported as a type error first.
    with pytest.raises(ConfigError, match="config rounds must be an integer, got '0'"):
        RichConfig(rounds="0")
    with pytest.raises(ConfigError, match="rounds must be at least 1, got 0"):
        RichConfig(rounds=0)


def test_nested_config_parts_validate_themselves():
    with pytest.raises(ConfigError, match="limits low must not exceed high, got 5 > 1"):
        RichConfig.from_json({"limits": {"low": 5, "high": 1}})


# ------------------------------------------------------------------------------ errors from JSON
@pytest.mark.parametrize(("data", "message"), [
    ({"rounds": "3"}, "config rounds must be an integer, got '3'"),
    ({"open_chat": "yes"}, "config open_chat must be true or false, got 'yes'"),
    ({"name": None}, "config name must be a string, got None"),
    ({"temperature": "0.5"}, "config temperature must be a number, got '0.5'"),
    ({"roles": "a,b"}, "config roles must be a list of strings, got 'a,b'"),
    ({"pair": [1, 2, 3]}, "config pair must be a list of 2 integers, got [1, 2, 3]"),
    ({"mode": "quick"}, "config mode must be one of fast, slow, got 'quick'"),
    ({"mode": ["fast"]}, "config mode must be one of fast, slow, got ['fast']"),
    ({"level": "1"}, "config level must be one of 1, 2, got '1'"),
    ({"level": True}, "config level must be one of 1, 2, got True"),
    ({"rule": 1}, "config rule must be one of rank, paper, got 1"),
    ({"maybe_mode": "x"}, "config maybe_mode must be one of fast, slow or null, got 'x'"),
    ({"board": None}, "config board must be an object with keys width, scale, tags, got None"),
    ({"board": {"width": True}}, "config board.width must be an integer, got True"),
    ({"boards": [{"tags": "x"}]}, "config boards[0].tags must be a list of strings, got 'x'"),
])
def test_wrong_types_in_json_raise_config_errors(data, message):
    with pytest.raises(ConfigError) as info:
        RichConfig.from_json(data)
    assert str(info.value) == message


def test_unknown_keys_list_the_valid_keys():
    with pytest.raises(ConfigError) as info:
        RichConfig.from_json({"rounds": 3, "colour": "red", "blue": 1})
    valid = ", ".join(sorted(field_names(RichConfig)))
    assert str(info.value) == f"unknown config key(s) blue, colour; valid keys: {valid}"
    with pytest.raises(ConfigError) as info:
        RichConfig.from_json({"board": {"width": 2, "height": 2}})
    assert str(info.value) == ("unknown config key(s) board.height; "
                               "valid keys: board.scale, board.tags, board.width")


def test_from_json_needs_an_object():
    with pytest.raises(ConfigError, match="must be an object"):
        RichConfig.from_json([("rounds", 3)])  # type: ignore[arg-type]


def test_missing_required_keys_are_config_errors():
    @dataclass(frozen=True)
    class Needs(Config):
        size: int
        label: str = "x"

    with pytest.raises(ConfigError, match=r"^missing config key\(s\) size$"):
        Needs.from_json({"label": "y"})
    assert Needs.from_json({"size": 2}) == Needs(size=2)


def test_field_names_in_declaration_order():
    assert field_names(Limits) == ["low", "high"]
    assert field_names(RichConfig)[:3] == ["rounds", "open_chat", "name"]


# ------------------------------------------------------------------------ unsupported annotations
@dataclass(frozen=True)
class WithDict(Config):
    table: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class WithList(Config):
    items: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class WithAny(Config):
    anything: Any = None


@dataclass(frozen=True)
class WithUnion(Config):
    either: int | str = 0


@dataclass
class Mutable:
    x: int = 0


@dataclass(frozen=True)
class WithMutable(Config):
    part: Mutable = field(default_factory=Mutable)


class Shape(enum.Enum):
    SQUARE = (1, 1)


@dataclass(frozen=True)
class WithTupleEnum(Config):
    shape: Shape = Shape.SQUARE


@pytest.mark.parametrize(("cls", "needle"), [
    (WithDict, "WithDict.table: unsupported annotation dict[str, int]; configs must be hashable"),
    (WithList, "WithList.items: unsupported annotation list[int]; configs must be hashable"),
    (WithAny, "WithAny.anything: unsupported annotation"),
    (WithUnion, "WithUnion.either: unsupported annotation"),
    (WithMutable, "WithMutable.part: nested dataclass Mutable must be frozen"),
    (WithTupleEnum, "enum Shape must have string or number values"),
])
def test_unsupported_annotations_are_refused(cls, needle):
    with pytest.raises(TypeError) as info:
        cls()
    assert needle in str(info.value)
    with pytest.raises(TypeError):  # refused every time, not only the first
        cls.from_json({})


# ------------------------------------------------------------------------------------- property
boards = st.builds(Board, width=st.integers(), scale=st.floats(allow_nan=False,
                                                                allow_infinity=False),
                   tags=st.lists(st.text()).map(tuple))
rich_configs = st.builds(
    RichConfig,
    rounds=st.integers(min_value=1),
    open_chat=st.booleans(),
    name=st.text(),
    roles=st.lists(st.text()),  # lists: converted when made
    pair=st.tuples(st.integers(), st.integers()),
    mixed=st.tuples(st.integers(), st.text()),
    temperature=st.one_of(st.integers(-10**6, 10**6),
                          st.floats(allow_nan=False, allow_infinity=False)),
    mode=st.sampled_from(Mode),
    level=st.sampled_from(Level),
    rule=st.sampled_from(["rank", "paper"]),
    seed=st.none() | st.integers(),
    weights=st.none() | st.lists(st.integers(-100, 100) | st.floats(allow_nan=False,
                                                                  allow_infinity=False)),
    maybe_mode=st.none() | st.sampled_from(Mode),
    board=boards,
    boards=st.lists(boards, max_size=3),
    limits=st.tuples(st.integers(), st.integers()).map(
        lambda p: Limits(low=min(p), high=max(p))),
    grid=st.lists(st.lists(st.integers()).map(tuple), max_size=3),
)


@given(rich_configs)
def test_every_config_round_trips_through_json(config):
    back = roundtrip(config)
    assert back == config and hash(back) == hash(config)
    assert back.to_json() == config.to_json()
    assert type(back.temperature) is float and type(back.roles) is tuple


# ------------------------------------------------------------------------------- env presets
def test_every_env_preset_round_trips():
    envs = all_envs()
    assert envs
    for env in envs:
        for name, preset in env.presets.items():
            back = roundtrip(preset)
            assert back == preset and hash(back) == hash(preset), (env.id, name)
            assert type(back) is type(preset)
            assert env.config(name) == preset
            assert env.config(name, preset.to_json()) == preset
