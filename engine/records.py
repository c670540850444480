"""What a game leaves behind: events, roles, the result, the action record and the game record.

All of it is plain data with a JSON form; a record replays exactly (see `Env.replay`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

JSON = Any
Visibility = Literal["all"] | tuple[int, ...]
NO_CLOCK: Mapping[str, Any] = MappingProxyType({})


@dataclass(slots=True)
class Event:
    """Something that happened. `visible_to` is "all" or the seats that may see it; `clock` is
    the env's clock when it happened (round, phase, tick...), beside the action `step`.

    Treat as immutable (not frozen only because frozen dataclasses are 4x slower to build, and
    events are built on every move)."""

    seq: int
    step: int
    type: str
    data: Mapping[str, Any]
    visible_to: Visibility = "all"
    clock: Mapping[str, Any] = dataclasses.field(default_factory=lambda: NO_CLOCK)

    def visible(self, seat: int | None) -> bool:
        """Whether the recipient at `seat` (None = spectator) may see this event."""
        return self.visible_to == "all" or (seat is not None and seat in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        vis = self.visible_to if self.visible_to == "all" else list(self.visible_to)
        return {"seq": self.seq, "step": self.step, "clock": dict(self.clock), "type": self.type,
                "data": dict(self.data), "visible_to": vis}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Event:
        vis = d["visible_to"]
        return cls(d["seq"], d["step"], d["type"], d["data"], vis if vis == "all" else tuple(vis),
                   d.get("clock") or NO_CLOCK)


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
        """Nobody won a game between several sides (a one-seat task is never a draw)."""
        return not self.void and not self.winners and len(self.side_groups()) > 1

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


OUTCOMES = ("ok", "invalid", "defaulted", "resigned")


@dataclass(slots=True)
class ActionRecord:
    """One submitted action as the engine judged it. `outcome`: "ok", "invalid" (rejected;
    `category` is its MindGames error class, `fatal` whether it forfeited or eliminated the seat),
    "defaulted" (the env's default move made for the seat; `error` says why, e.g. a timeout)
    or "resigned" (the seat gave up: `Game.resign`; `error` is the reason, `raw` empty).
    Treat as immutable (see Event)."""

    seat: int
    step: int
    raw: JSON
    outcome: str
    error: str | None = None
    meta: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    category: str | None = None
    fatal: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "step": self.step, "raw": self.raw, "outcome": self.outcome,
                "error": self.error, "meta": dict(self.meta), "category": self.category,
                "fatal": self.fatal}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ActionRecord:
        return cls(d["seat"], d["step"], d["raw"], d["outcome"], d.get("error"), d.get("meta", {}),
                   d.get("category"), d.get("fatal", False))


@dataclass
class GameRecord:
    """Everything needed to replay and score a game. `setup` is its hidden setup (roles, map,
    word pair, dataset instance...), revealed to everyone when the game ends."""

    env: str
    rules_version: str
    config: dict[str, Any]
    seed: int
    players: int
    actions: list[ActionRecord]
    events: list[Event]
    result: Result | None
    aborted: str | None = None
    setup: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"env": self.env, "rules_version": self.rules_version, "config": self.config,
                "seed": self.seed, "players": self.players,
                "actions": [a.to_json() for a in self.actions],
                "events": [e.to_json() for e in self.events],
                "result": self.result.to_json() if self.result else None,
                "aborted": self.aborted, "setup": self.setup}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> GameRecord:
        r = d.get("result")
        return cls(d["env"], d["rules_version"], dict(d["config"]), d["seed"], d["players"],
                   [ActionRecord.from_json(a) for a in d["actions"]],
                   [Event.from_json(e) for e in d["events"]],
                   None if r is None else Result.from_json(r), d.get("aborted"),
                   dict(d.get("setup") or {}))
