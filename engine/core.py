"""The engine contract every environment implements.

An `Env` describes a game (id, player counts, config, presets) and starts `Game`s. A `Game` is a
pure state machine: it says whose decision is awaited (`pending`), what each seat may know (`view`)
and do (`legal`), and applies actions (`act`), emitting `Event`s with a visibility. No I/O, no wall
clock, no global randomness: a game is fully determined by (config, seed, players, actions).
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from engine.config import Config, field_names
from engine.errors import (
    ConfigError,
    EngineError,
    GameOverError,
    NotYourTurnError,
    UnknownEnvError,
    UnknownSeatError,
)
from engine.spaces import NO_ACTION, ActionSpace, Field, Option

JSON = Any
Action = str | Mapping[str, Any]
"""What `Game.act` accepts: raw text in the env's syntax, or a structured (form/choice) dict."""


# ---------------------------------------------------------------------------------------- events
Visibility = Literal["all"] | tuple[int, ...]


@dataclass(slots=True)
class Event:
    """Something that happened. `visible_to` is "all" or the seats that may see it.

    Treat as immutable (not frozen only because frozen dataclasses are 4x slower to build, and
    events are built on every move)."""

    seq: int
    step: int
    type: str
    data: Mapping[str, Any]
    visible_to: Visibility = "all"

    def visible(self, seat: int | None) -> bool:
        """Whether the recipient at `seat` (None = spectator) may see this event."""
        return self.visible_to == "all" or (seat is not None and seat in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        vis = self.visible_to if self.visible_to == "all" else list(self.visible_to)
        return {"seq": self.seq, "step": self.step, "type": self.type, "data": dict(self.data),
                "visible_to": vis}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Event:
        vis = d["visible_to"]
        return cls(d["seq"], d["step"], d["type"], d["data"], vis if vis == "all" else tuple(vis))


# ---------------------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Role:
    """What a seat plays: its role (e.g. "impostor", "Red Spymaster") and the side it wins or
    loses with. In a game where everyone plays for themselves each seat is its own side."""

    name: str
    side: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "side": self.side}


@dataclass(frozen=True)
class Result:
    """Terminal outcome. `void` games (aborted for reasons outside play) never count in ratings.
    `roles` and `sides` name each seat's role and side (seat order); seats that share a side
    won or lost together."""

    rewards: Mapping[int, float]
    winners: tuple[int, ...]
    reason: str
    teams: tuple[tuple[int, ...], ...] = ()
    void: bool = False
    roles: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()

    @property
    def draw(self) -> bool:
        return not self.void and not self.winners

    def side_groups(self) -> list[list[int]]:
        """Seats grouped by side, in order of first seat; one group per seat without sides."""
        if not self.sides:
            return [list(t) for t in self.teams] or [[s] for s in sorted(self.rewards)]
        groups: dict[str, list[int]] = {}
        for seat, side in enumerate(self.sides):
            groups.setdefault(side, []).append(seat)
        return list(groups.values())

    def to_json(self) -> dict[str, Any]:
        return {"rewards": {str(k): v for k, v in self.rewards.items()},
                "winners": list(self.winners), "reason": self.reason,
                "teams": [list(t) for t in self.teams], "void": self.void, "draw": self.draw,
                "roles": list(self.roles), "sides": list(self.sides)}

    @classmethod
    def from_json(cls, r: Mapping[str, Any]) -> Result:
        return cls({int(k): v for k, v in r["rewards"].items()}, tuple(r["winners"]),
                   r["reason"], tuple(tuple(t) for t in r.get("teams", ())), r.get("void", False),
                   tuple(r.get("roles", ())), tuple(r.get("sides", ())))


@dataclass(slots=True)
class ActionRecord:
    """One submitted action as the engine judged it. `outcome` is "ok" or "invalid".
    Treat as immutable (see Event)."""

    seat: int
    step: int
    raw: JSON
    outcome: str
    error: str | None = None
    meta: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "step": self.step, "raw": self.raw, "outcome": self.outcome,
                "error": self.error, "meta": dict(self.meta)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ActionRecord:
        return cls(d["seat"], d["step"], d["raw"], d["outcome"], d.get("error"), d.get("meta", {}))


@dataclass
class GameRecord:
    env: str
    rules_version: str
    config: dict[str, Any]
    seed: int
    players: int
    actions: list[ActionRecord]
    events: list[Event]
    result: Result | None
    aborted: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"env": self.env, "rules_version": self.rules_version, "config": self.config,
                "seed": self.seed, "players": self.players,
                "actions": [a.to_json() for a in self.actions],
                "events": [e.to_json() for e in self.events],
                "result": self.result.to_json() if self.result else None,
                "aborted": self.aborted}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> GameRecord:
        r = d.get("result")
        result = None if r is None else Result.from_json(r)
        return cls(d["env"], d["rules_version"], dict(d["config"]), d["seed"], d["players"],
                   [ActionRecord.from_json(a) for a in d["actions"]],
                   [Event.from_json(e) for e in d["events"]], result, d.get("aborted"))


# ---------------------------------------------------------------------------------------- game
class Game(ABC):
    """A game in progress. Subclasses implement the rules in `_apply` and the two halves of a view.

    The base class owns bookkeeping shared by every env: turn checks, the action record, event
    sequencing and visibility, the views' envelope, and abort. `act` never raises for a player's
    bad move; bad moves become events per the env's invalid-move policy. Subclasses keep the seats
    whose decision is awaited in `self._waiting`.

    Games declare `__slots__` (every subclass lists its own state): attribute access is on the
    path of every move, and slots keep it fast however many attributes a game has.
    """

    __slots__ = ("env", "config", "seed", "players", "step", "_env_id", "_waiting", "_events",
                 "_actions", "_result", "over", "_aborted", "_public", "_rng")

    def __init__(self, env: Env, config: Config, seed: int, players: int) -> None:
        self.env = env
        self.config = config
        self.seed = seed
        self.players = players
        self.step = 0  # number of accepted act() calls; increases on every action
        self._env_id = env.id
        self._waiting: frozenset[int] = frozenset()
        self._events: list[Event] = []
        # (seat, step, raw, error, meta) per action; ActionRecords are built when asked for.
        self._actions: list[tuple[int, int, JSON, str | None, Mapping[str, Any] | None]] = []
        self._result: Result | None = None
        self.over = False  # set by finish() only; read after every move, so not a property
        self._aborted: str | None = None
        self._public: dict[str, Any] | None = None  # the public view of the current state
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The game's only source of randomness, seeded from `seed` (made on first use: seeding
        costs more than a whole move of the simplest games)."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    # -- the contract ------------------------------------------------------------------------
    def pending(self) -> frozenset[int]:
        """Seats whose decision is awaited now (several = simultaneous decision)."""
        return self._waiting

    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-serialisable dict of exactly what `seat` may know (None = spectator).
        Read-only: its parts may be shared with other views."""
        public = self._public or self._build_public()
        if seat is None:
            return {"env": self._env_id, "seat": None, "public": public, "private": {}}
        if seat.__class__ is not int or not 0 <= seat < self.players:
            self._check_seat(seat)
        return {"env": self._env_id, "seat": seat, "public": public,
                "private": self._private_state(seat)}

    @abstractmethod
    def legal(self, seat: int) -> ActionSpace:
        """What `seat` may do now (NO_ACTION when it is not pending)."""

    @abstractmethod
    def _public_state(self) -> dict[str, Any]:
        """What everyone may know now, a fresh dict (the base class adds "over" and "result")."""

    @abstractmethod
    def _private_state(self, seat: int) -> dict[str, Any]:
        """What only `seat` may know now."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> str | None:
        """Apply the rules to one action; emit events; return None, or why the move is invalid."""

    def public_view(self) -> dict[str, Any]:
        """The public part of every view of the current state."""
        return self._public or self._build_public()

    def _build_public(self) -> dict[str, Any]:
        """Built at most once per state (`act` and `abort` drop it): the env's part, then whether
        the game is over and its result, which every env's view carries."""
        public = self._public_state()
        result = self._result
        public["over"] = result is not None
        public["result"] = result.to_json() if result else None
        self._public = public
        return public

    @property
    def result(self) -> Result | None:
        return self._result

    def act(self, seat: int, action: Action, *, meta: Mapping[str, Any] | None = None
            ) -> list[Event]:
        """Submit `seat`'s action; returns the events it produced (all visibilities)."""
        if seat.__class__ is not int or seat not in self._waiting:
            self._refuse(seat)
        if action.__class__ is not str:
            if not isinstance(action, Mapping):
                raise TypeError("an action is text or a mapping of a structured action")
            action = dict(action)  # the record keeps its own copy
        events = self._events
        first = len(events)
        step = self.step
        self._public = None
        error = self._apply(seat, action)
        self._actions.append((seat, step, action, error, dict(meta) if meta else None))
        self.step = step + 1
        return events[first:]

    def _refuse(self, seat: int) -> None:
        """Raise the error that says why `seat` may not act now."""
        self._check_seat(seat)
        if self._result is not None:
            raise GameOverError("the game is over")
        raise NotYourTurnError(f"seat {seat} is not to act now "
                               f"(waiting for {sorted(self._waiting)})")

    def abort(self, reason: str) -> list[Event]:
        """End the game as void (timeouts, provider failures, disconnects): no rewards."""
        if self.over:
            raise GameOverError("the game is over")
        first = len(self._events)
        self._aborted = reason
        self._public = None
        self.emit("game_aborted", {"reason": reason})
        self.finish({s: 0.0 for s in range(self.players)}, (), reason, void=True)
        return self._events[first:]

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        """Events `seat` may see with seq >= since."""
        return [e for e in self._events[since:] if e.visible(seat)]

    @property
    def events(self) -> list[Event]:
        return list(self._events)

    @property
    def actions(self) -> list[ActionRecord]:
        return [_action_record(a) for a in self._actions]

    def last_action(self) -> ActionRecord | None:
        """The latest action's record (cheaper than `actions[-1]`, which builds every record)."""
        return _action_record(self._actions[-1]) if self._actions else None

    def record(self) -> GameRecord:
        return GameRecord(self.env.id, self.env.rules_version, self.config.to_json(), self.seed,
                          self.players, self.actions, list(self._events), self._result,
                          self._aborted)

    # -- helpers for subclasses ---------------------------------------------------------------
    def emit(self, type: str, data: Mapping[str, Any], visible_to: Visibility | Sequence[int]
             = "all") -> Event:
        events = self._events
        event = Event(len(events), self.step, type, data,  # emit owns `data`
                      "all" if visible_to == "all" else tuple(sorted(visible_to)))
        events.append(event)
        return event

    def finish(self, rewards: Mapping[int, float], winners: Sequence[int], reason: str, *,
               teams: Sequence[Sequence[int]] = (), void: bool = False) -> None:
        self._waiting = frozenset()
        self._result = Result(dict(rewards), tuple(winners), reason,
                              tuple(tuple(t) for t in teams), void)
        self.over = True
        self.emit("game_over", self._result.to_json())

    def _check_seat(self, seat: int) -> None:
        if seat.__class__ is not int or not 0 <= seat < self.players:
            raise UnknownSeatError(f"no seat {seat!r}; seats are 0..{self.players - 1}")


def _action_record(a: tuple[int, int, JSON, str | None, Mapping[str, Any] | None]
                   ) -> ActionRecord:
    seat, step, raw, error, meta = a
    return ActionRecord(seat, step, raw, "ok" if error is None else "invalid", error, meta or {})


# ---------------------------------------------------------------------------------------- env
class Env(ABC):
    """Static description of an environment and the factory of its games."""

    id: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]  # one line, shown in lobbies and `parlor envs`
    players: ClassVar[tuple[int, ...]]
    rules_version: ClassVar[str]
    Config: ClassVar[type[Config]]
    presets: ClassVar[Mapping[str, Config]]
    game_class: ClassVar[type[Game]]
    default_preset: ClassVar[str] = "paper"
    seat_names: ClassVar[tuple[str, ...]] = ()

    def new_game(self, config: Config, seed: int, players: int) -> Game:
        """Start a game after checking the player count and the config's type (configs are
        validated when they are made)."""
        if players not in self.players:
            self.check_players(players)
        if config.__class__ is not self.Config and not isinstance(config, self.Config):
            raise ConfigError(f"{self.id} needs a {self.Config.__name__}, got "
                              f"{type(config).__name__}")
        return self.game_class(self, config, seed, players)

    @abstractmethod
    def render(self, view: Mapping[str, Any]) -> str:
        """The text an LLM or a transcript pane reads for this view (engine/<env>/text.py)."""

    @abstractmethod
    def game_metrics(self, record: GameRecord) -> dict[str, Any]:
        """The paper's metrics for one game (engine/<env>/metrics.py):
        {"game": {name: value}, "seats": {"0": {name: value}, ...}} with JSON values."""

    @abstractmethod
    def aggregate_metrics(self, records: Sequence[GameRecord]) -> dict[str, Any]:
        """Metrics across games (per seat index and overall), e.g. for `parlor sim` summaries."""

    def seat_name(self, seat: int) -> str:
        return self.seat_names[seat] if seat < len(self.seat_names) else f"Player {seat}"

    def check_players(self, players: int) -> None:
        if players not in self.players:
            allowed = ", ".join(map(str, self.players))
            raise ConfigError(f"{self.id} is played by {allowed} players, not {players}")

    def config(self, preset: str | None = None, overrides: Mapping[str, Any] | None = None
               ) -> Config:
        """Resolve a preset name plus overrides into a validated config."""
        name = preset or self.default_preset
        if name not in self.presets:
            raise ConfigError(f"unknown preset {name!r} for {self.id}; "
                              f"valid presets: {', '.join(self.presets)}")
        data = self.presets[name].to_json()
        data.update(overrides or {})
        return self.Config.from_json(data)

    def default_players(self) -> int:
        return self.players[0]

    def replay(self, record: GameRecord) -> Game:
        """Rebuild a game from its record by replaying every action from the seed."""
        game = self.new_game(self.Config.from_json(record.config), record.seed, record.players)
        for a in record.actions:
            game.act(a.seat, a.raw, meta=a.meta)
        if record.aborted is not None and not game.over:
            game.abort(record.aborted)
        return game

    def describe(self) -> dict[str, Any]:
        """JSON description for lobbies: id, title, players, presets with their configs."""
        return {"id": self.id, "title": self.title, "description": self.description,
                "players": list(self.players), "rules_version": self.rules_version,
                "default_preset": self.default_preset,
                "presets": {k: v.to_json() for k, v in self.presets.items()},
                "seat_names": list(self.seat_names)}


__all__ = [
    "JSON", "Action", "EngineError", "ConfigError", "UnknownEnvError", "NotYourTurnError",
    "UnknownSeatError", "GameOverError", "Event", "Visibility", "Option", "Field", "ActionSpace",
    "NO_ACTION", "Role", "Result", "ActionRecord", "GameRecord", "Config", "Game", "Env", "field_names",
]
