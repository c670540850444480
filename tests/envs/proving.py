"""`proving-ground`: a test env that exercises the whole contract v2 at scale.

Seven seats in two teams (red: 4 seats, blue: 3), dealt from the seed, each team with one hidden
captain. Every tick all living seats move at once: "push" (a captain's push counts twice), "hold"
(blocks one enemy push) or "scout" (does nothing). A team scores its pushes minus the enemy's
holds (never below 0). Each team hears its own moves (a "team_moves" event only its seats see);
everyone hears the tick's gains and scores ("step_resolved"). After `ticks` ticks the team with
more points wins (+1 each, -1 for the other team, 0 for everyone on a draw). Invalid answers are
retried `retries` times, then the default move ("hold") is made, or the seat is eliminated
(`invalid_policy = "eliminate"`); a team with nobody left loses at once.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.aggregate import Fold
from engine.attribution import ATTRIBUTION_LABELS, error_attribution
from engine.core import (
    NO_ACTION,
    Action,
    ActionSpace,
    Config,
    ConfigError,
    Env,
    Game,
    GameRecord,
    InvalidMovePolicy,
    Option,
    Role,
    derive_seed,
)
from engine.policy import DEFAULT, ELIMINATE, FORMAT

SIDES = ("red", "blue")
TEAM_SIZES = (4, 3)
MOVES = ("push", "hold", "scout")
DEFAULT_MOVE = {"choice": "hold"}
POLICIES = {"default": DEFAULT, "eliminate": ELIMINATE}
RECENT = 10  # resolved ticks a view holds; the rest is the event log
MAX_TICKS = 100_000

SPACE = ActionSpace(kind="choice", prompt="Choose your move for this tick.", syntax="[push]",
                    options=tuple(Option(m, m.capitalize()) for m in MOVES))


@dataclass(frozen=True)
class ProvingConfig(Config):
    ticks: int = 2500
    invalid_policy: str = "default"  # after the retries: "default" (hold) or "eliminate"
    retries: int = 1

    def validate(self) -> None:
        if not 1 <= self.ticks <= MAX_TICKS:
            raise ConfigError(f"ticks must be between 1 and {MAX_TICKS}, got {self.ticks}")
        if self.invalid_policy not in POLICIES:
            raise ConfigError(f"unknown invalid_policy {self.invalid_policy!r}; valid: "
                              f"{', '.join(POLICIES)}")
        if not 0 <= self.retries <= 10:
            raise ConfigError(f"retries must be between 0 and 10, got {self.retries}")


PRESETS: dict[str, ProvingConfig] = {
    "paper": ProvingConfig(),
    "short": ProvingConfig(ticks=40),
    "short-eliminate": ProvingConfig(ticks=40, invalid_policy="eliminate", retries=0),
}


def parse_move(action: Action) -> str | None:
    """The move in "[push]", "push" or {"choice": "push"}; None when there is none."""
    if isinstance(action, str):
        word = action.strip()
        if word[:1] == "[" and word[-1:] == "]":
            word = word[1:-1].strip()
        word = word.lower()
    else:
        word = action.get("choice")
    return word if word in MOVES else None


class ProvingGame(Game):
    __slots__ = ("tick", "scores", "history", "alive", "_moves", "_policy", "_teams",
                 "_captains", "_mates")
    config: ProvingConfig

    def __init__(self, env: Env, config: ProvingConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self._policy = InvalidMovePolicy(config.retries, POLICIES[config.invalid_policy])
        self._teams = {side: [s for s in range(players) if self.roles[s].side == side]
                       for side in SIDES}
        self._captains = frozenset(s for s in range(players) if self.roles[s].name.endswith(
            "captain"))
        self._mates = [[{"seat": m, "role": self.roles[m].name}
                        for m in self._teams[self.roles[s].side] if m != s]
                       for s in range(players)]
        self.tick = 1
        self.clock = {"tick": 1}
        self.scores = dict.fromkeys(SIDES, 0)
        self.history: list[dict[str, Any]] = []  # entries are never changed once appended
        self.alive = frozenset(range(players))
        self._moves: list[str | None] = [None] * players
        self._waiting = self.alive
        self.emit("game_started", {"ticks": config.ticks, "teams": self._teams})

    def legal(self, seat: int) -> ActionSpace:
        return SPACE if seat in self._waiting else NO_ACTION

    def _public_state(self) -> dict[str, Any]:
        return {"tick": self.tick, "ticks": self.config.ticks, "teams": self._teams,
                "scores": self.scores, "alive": [s in self.alive for s in range(self.players)],
                "submitted": [m is not None for m in self._moves],
                "recent": self.history[-RECENT:], "options": list(MOVES)}

    def _private_state(self, seat: int) -> dict[str, Any]:
        role = self.roles[seat]
        return {"role": role.name, "side": role.side, "teammates": self._mates[seat],
                "move": self._moves[seat], "alive": seat in self.alive,
                "retries_left": self.retries_left(seat), "last_error": self._last_errors[seat]}

    def default_action(self, seat: int) -> dict[str, str]:
        return DEFAULT_MOVE

    def invalid_move_policy(self, seat: int, category: str) -> InvalidMovePolicy:
        return self._policy

    def _apply(self, seat: int, action: Action) -> str | None:
        move = parse_move(action)
        if move is None:
            return self.reject(seat, "answer with one of [push], [hold] or [scout]", FORMAT,
                               tick=self.tick)
        self._moves[seat] = move
        self._waiting = self._waiting - {seat}
        self.emit("move_submitted", {"seat": seat, "tick": self.tick})
        if not self._waiting:
            self._resolve()
        return None

    def _on_eliminate(self, seat: int, why: str) -> None:
        self.alive = self.alive - {seat}
        self._waiting = self._waiting - {seat}
        side = self.roles[seat].side
        if not any(s in self.alive for s in self._teams[side]):
            other = SIDES[1 - SIDES.index(side)]
            self._end(other, f"{why}; team {side} has nobody left and team {other} wins")
        elif not self._waiting:
            self._resolve()

    def _resolve(self) -> None:
        moves = self._moves
        push = {side: sum((2 if s in self._captains else 1) for s in seats if moves[s] == "push")
                for side, seats in self._teams.items()}
        hold = {side: sum(moves[s] == "hold" for s in seats) for side, seats in self._teams.items()}
        gains = {"red": max(push["red"] - hold["blue"], 0),
                 "blue": max(push["blue"] - hold["red"], 0)}
        self.scores = {side: self.scores[side] + gains[side] for side in SIDES}
        for side, seats in self._teams.items():
            self.emit("team_moves", {"tick": self.tick, "side": side,
                                     "moves": {str(s): moves[s] for s in seats if moves[s]}},
                      seats)
        entry = {"tick": self.tick, "gains": gains, "scores": self.scores}
        self.history.append(entry)
        self.emit("step_resolved", entry)
        if self.tick >= self.config.ticks:
            red, blue = self.scores["red"], self.scores["blue"]
            top = None if red == blue else "red" if red > blue else "blue"
            self._end(top, f"final score red {red}, blue {blue}")
            return
        self.tick += 1
        self.clock = {"tick": self.tick}
        self._moves = [None] * self.players
        self._waiting = self.alive

    def _end(self, side: str | None, reason: str) -> None:
        teams = tuple(self._teams[s] for s in SIDES)
        if side is None:
            self.finish(dict.fromkeys(range(self.players), 0.0), (), f"a draw: {reason}",
                        teams=teams)
            return
        winners = tuple(self._teams[side])
        rewards = {s: 1.0 if s in winners else -1.0 for s in range(self.players)}
        self.finish(rewards, winners, reason, teams=teams)


def render(view: Mapping[str, Any]) -> str:
    pub, me = view["public"], view["private"]
    scores = pub["scores"]
    lines = [f"Proving ground, tick {pub['tick']} of {pub['ticks']}: "
             f"red {scores['red']}, blue {scores['blue']}."]
    lines += [f"Tick {e['tick']}: red +{e['gains']['red']}, blue +{e['gains']['blue']}"
              for e in pub["recent"][-3:]]
    if pub["over"]:
        lines.append(f"Game over: {pub['result']['reason']}.")
    elif me:
        mates = ", ".join(f"{m['seat']} ({m['role']})" for m in me["teammates"])
        lines.append(f"You are {me['role']} (team {me['side']}); teammates: {mates}.")
        if not me["alive"]:
            lines.append("You are out of the game.")
        else:
            lines.append(f"Your move: {me['move']}." if me["move"] else
                         "Answer with one of [push], [hold], [scout].")
    return "\n".join(lines)


class ProvingEnv(Env):
    id = "proving-ground"
    title = "Proving ground"
    description = "Two teams push, hold or scout every tick (a test env for long team games)."
    players = (7,)
    rules_version = "1"
    Config = ProvingConfig
    game_class = ProvingGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    rating = "trueskill"
    hidden_roles = True
    scripted_bots = "tests.envs.bots"
    metric_labels: ClassVar[Mapping[str, str]] = {
        "reward": "Reward", "win": "Won", "defaulted": "Moves made by default",
        "eliminated": "Eliminated", **ATTRIBUTION_LABELS, "ticks_played": "Ticks played",
        "void": "Void (aborted)"}

    def assign_roles(self, config: Config, seed: int, players: int) -> tuple[Role, ...]:
        """Seats shuffled into red (the first ceil(n/2)) and blue; one captain per team."""
        rng = random.Random(derive_seed(seed, "roles"))
        seats = list(range(players))
        rng.shuffle(seats)
        red = (players + 1) // 2
        roles = [Role("", "")] * players
        for side, team in (("red", seats[:red]), ("blue", seats[red:])):
            captain = rng.choice(team)
            for s in team:
                roles[s] = Role(f"{side} {'captain' if s == captain else 'crew'}", side)
        return tuple(roles)

    def render(self, view: Mapping[str, Any]) -> str:
        return render(view)

    def game_metrics(self, record: GameRecord) -> dict[str, Any]:
        result = record.result
        void = result is None or result.void
        attribution = error_attribution(record)
        defaulted = [0] * record.players
        for a in record.actions:
            defaulted[a.seat] += a.outcome == "defaulted"
        eliminated = [e.data["seat"] for e in record.events if e.type == "eliminated"]
        seats = {str(s): {"reward": 0.0 if void else float(result.rewards[s]),  # type: ignore[union-attr]
                          "win": int(not void and s in result.winners),  # type: ignore[union-attr]
                          "defaulted": defaulted[s], "eliminated": int(s in eliminated),
                          **attribution[str(s)]}
                 for s in range(record.players)}
        ticks = sum(e.type == "step_resolved" for e in record.events)
        return {"game": {"ticks_played": ticks, "eliminated": len(eliminated), "void": int(void)},
                "seats": seats}

    def aggregate_metrics(self, per_game: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        fold = Fold(max(self.players), skip_void=False).add_all(per_game)
        return {"overall": {"games": fold.games,
                            "mean_ticks": fold.per_counted(fold.game.total("ticks_played"))},
                "seats": fold.seat_totals()}
