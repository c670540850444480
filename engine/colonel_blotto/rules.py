"""Colonel Blotto (MindGames §2): two commanders split their units over fields, round by round.

Each round both commanders allocate at once; a field goes to whoever sends more units (a tie takes
it for nobody) and the round to whoever takes more fields. The game ends after `rounds` rounds or
as soon as one commander has won `rounds_to_win` rounds (a majority, rounds // 2 + 1, by default).
Invalid answers follow the MindGames policy: `error_allowance` retries, then a forfeit.
docs/rules/colonel-blotto.md states every decision where the paper and TextArena differ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.colonel_blotto import metrics, syntax, text
from engine.colonel_blotto.allocation import Allocation, field_names
from engine.core import (
    NO_ACTION,
    Action,
    ActionSpace,
    Config,
    ConfigError,
    Env,
    Field,
    Game,
    GameRecord,
)

MAX_FIELDS = 26  # one letter per field
MAX_UNITS = 1_000_000
MAX_ROUNDS = 1000
MAX_ERROR_ALLOWANCE = 100

SEAT_NAMES = ("Commander Alpha", "Commander Beta")


@dataclass(frozen=True)
class BlottoConfig(Config):
    fields: int = 3
    units: int = 20
    rounds: int = 9
    win_rounds: int = 0  # rounds that end the game early; 0 = a majority (rounds // 2 + 1)
    exact_units: bool = False  # False: at most `units` (paper); True: exactly (TextArena 0.7.4)
    error_allowance: int = 1  # invalid answers in a row that are retried; one more forfeits

    @property
    def rounds_to_win(self) -> int:
        return self.win_rounds or self.rounds // 2 + 1

    def validate(self) -> None:
        if not 2 <= self.fields <= MAX_FIELDS:
            raise ConfigError(f"fields must be between 2 and {MAX_FIELDS} (one letter each), "
                              f"got {self.fields}")
        if not self.fields <= self.units <= MAX_UNITS:
            raise ConfigError(f"units must be between the number of fields ({self.fields}) and "
                              f"{MAX_UNITS}, got {self.units}")
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise ConfigError(f"rounds must be between 1 and {MAX_ROUNDS}, got {self.rounds}")
        if not 0 <= self.win_rounds <= self.rounds:
            raise ConfigError(f"win_rounds must be between 1 and rounds ({self.rounds}), or 0 for "
                              f"a majority ({self.rounds // 2 + 1}), got {self.win_rounds}")
        if not 0 <= self.error_allowance <= MAX_ERROR_ALLOWANCE:
            raise ConfigError(f"error_allowance must be between 0 (first invalid answer forfeits) "
                              f"and {MAX_ERROR_ALLOWANCE}, got {self.error_allowance}")


PRESETS: dict[str, BlottoConfig] = {
    "paper": BlottoConfig(),
    "small": BlottoConfig(rounds=5),
    "large": BlottoConfig(fields=5, units=50, rounds=15),
    "extreme": BlottoConfig(fields=7, units=75, rounds=25),
    "textarena-0.7.4": BlottoConfig(exact_units=True),
}

_BOTH, _NOBODY = frozenset((0, 1)), frozenset()
_ONLY = (frozenset((0,)), frozenset((1,)))


def budget_problem(allocation: Allocation, units: int, exact: bool) -> str | None:
    """Why an allocation breaks the unit budget, or None when it fits."""
    total = allocation.total
    if exact and total != units:
        return f"you must allocate exactly {units} units, but this allocation uses {total}"
    if total > units:
        return f"this allocation uses {total} units, but only {units} are available"
    return None


def field_winners(a: tuple[int, ...], b: tuple[int, ...]) -> list[int | None]:
    """Per field: 0 or 1 for the seat that sent more units, None for a tie."""
    return [0 if x > y else 1 if y > x else None for x, y in zip(a, b, strict=True)]


class BlottoGame(Game):
    config: BlottoConfig

    def __init__(self, env: Env, config: BlottoConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self.names = field_names(config.fields)
        self.example = syntax.example(self.names, config.units)
        self.round = 1
        self.score = [0, 0]
        # Resolved rounds; entries are never mutated once appended (views share them).
        self.history: list[dict[str, Any]] = []
        self._allocations: list[Allocation | None] = [None, None]
        self._errors = [0, 0]  # consecutive invalid answers per seat
        self._last_error: list[str | None] = [None, None]
        self._waiting: frozenset[int] = _BOTH
        self._space = self._build_space()
        self.emit("round_started", {"round": 1, "rounds": config.rounds})

    # -- the contract ------------------------------------------------------------------------
    def pending(self) -> frozenset[int]:
        return self._waiting

    def legal(self, seat: int) -> ActionSpace:
        return self._space if seat in self._waiting else NO_ACTION

    def _public_state(self) -> dict[str, Any]:
        result = self._result
        return {
            "commanders": list(SEAT_NAMES), "fields": list(self.names),
            "units": self.config.units, "exact_units": self.config.exact_units,
            "rounds": self.config.rounds, "rounds_to_win": self.config.rounds_to_win,
            "round": self.round, "score": list(self.score),
            "submitted": [a is not None for a in self._allocations],
            "history": list(self.history), "format": self.example,
            "over": result is not None, "result": result.to_json() if result else None,
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        public = self.public_view()
        private: dict[str, Any] = {}
        if seat is not None:
            self._check_seat(seat)
            mine = self._allocations[seat]
            private = {
                "name": SEAT_NAMES[seat],
                "submitted": mine is not None,
                "allocation": None if mine is None else mine.as_dict(self.names),
                "invalid_count": self._errors[seat],
                "retries_left": max(self.config.error_allowance - self._errors[seat], 0),
                "last_error": self._last_error[seat],
            }
        return {"env": self.env.id, "seat": seat, "public": public, "private": private}

    def _apply(self, seat: int, action: Action) -> tuple[str, str | None]:
        parsed = syntax.parse(action, self.names, self.example)
        if isinstance(parsed, syntax.ParseError):
            return self._reject(seat, parsed.message, parsed.category)
        problem = budget_problem(parsed, self.config.units, self.config.exact_units)
        if problem is not None:
            return self._reject(seat, problem, "units")
        self._errors[seat] = 0
        self._last_error[seat] = None
        self._allocations[seat] = parsed
        self.emit("allocation_submitted", {"seat": seat, "round": self.round})
        other = 1 - seat
        if self._allocations[other] is None:
            self._waiting = _ONLY[other]
        else:
            self._resolve_round()
        return "ok", None

    # -- rules ---------------------------------------------------------------------------------
    def _reject(self, seat: int, reason: str, category: str) -> tuple[str, str | None]:
        """The invalid-move policy: retry while the allowance lasts, then forfeit."""
        self._errors[seat] += 1
        self._last_error[seat] = reason
        fatal = self._errors[seat] > self.config.error_allowance
        data = {"seat": seat, "round": self.round, "reason": reason, "category": category,
                "fatal": fatal}
        if not fatal:
            # Only the offender hears about it (as in the reference); the seat stays pending.
            self.emit("invalid_move", data, (seat,))
            return "invalid", reason
        self.emit("invalid_move", data)
        loser, winner = SEAT_NAMES[seat], SEAT_NAMES[1 - seat]
        count = self._errors[seat]
        why = f"{loser} made {count} invalid move{'s' if count > 1 else ''} in a row"
        self.emit("forfeit", {"seat": seat, "reason": why})
        self._waiting = _NOBODY
        rewards = {s: 1.0 if s != seat else -1.0 for s in range(2)}
        self.finish(rewards, (1 - seat,), f"{why}; {winner} wins by forfeit")
        return "invalid", reason

    def _resolve_round(self) -> None:
        a = self._allocations[0].units  # type: ignore[union-attr]
        b = self._allocations[1].units  # type: ignore[union-attr]
        winners = field_winners(a, b)
        won = [winners.count(0), winners.count(1)]
        round_winner = 0 if won[0] > won[1] else 1 if won[1] > won[0] else None
        if round_winner is not None:
            self.score[round_winner] += 1
        entry = {"round": self.round,
                 "allocations": [dict(zip(self.names, a, strict=True)),
                                 dict(zip(self.names, b, strict=True))],
                 "field_winners": winners, "fields_won": won, "winner": round_winner,
                 "score": list(self.score)}
        self.history.append(entry)
        self.emit("round_resolved", entry)
        self._allocations = [None, None]
        if not self._check_end():
            self.round += 1
            self._waiting = _BOTH
            self.emit("round_started", {"round": self.round, "rounds": self.config.rounds})

    def _check_end(self) -> bool:
        """End the game after the last round, or early once someone has enough round wins."""
        s0, s1 = self.score
        rounds = self.config.rounds
        if self.round >= rounds:
            if s0 == s1:
                self._end(None, f"a {s0}-{s1} draw after {rounds} rounds")
            else:
                top = 0 if s0 > s1 else 1
                self._end(top, f"{SEAT_NAMES[top]} wins {max(s0, s1)}-{min(s0, s1)} "
                               f"after {rounds} rounds")
            return True
        need = self.config.rounds_to_win
        if max(s0, s1) >= need:
            top = 0 if s0 > s1 else 1
            self._end(top, f"{SEAT_NAMES[top]} wins {max(s0, s1)}-{min(s0, s1)} by reaching "
                           f"{need} round wins after {self.round} of {rounds} rounds")
            return True
        return False

    def _end(self, winner: int | None, reason: str) -> None:
        self._waiting = _NOBODY
        if winner is None:
            self.finish({0: 0.0, 1: 0.0}, (), reason)
        else:
            self.finish({s: 1.0 if s == winner else -1.0 for s in range(2)}, (winner,), reason)

    def _build_space(self) -> ActionSpace:
        units, exact = self.config.units, self.config.exact_units
        how = "exactly" if exact else "up to"
        return ActionSpace(
            kind="form",
            prompt=f"Allocate {how} {units} units across fields {', '.join(self.names)}.",
            syntax=self.example,
            fields=tuple(Field(n, f"Field {n}", "int", min=0, max=units, default=0)
                         for n in self.names),
            constraints={"sum_eq": units} if exact else {"sum_max": units})


class ColonelBlottoEnv(Env):
    id = "colonel-blotto"
    title = "Colonel Blotto"
    description = "Two commanders secretly split their units over battlefields, round after round."
    players = (2,)
    rules_version = "1"
    Config = BlottoConfig
    game_class = BlottoGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "paper"
    seat_names = SEAT_NAMES

    def render(self, view: Mapping[str, Any]) -> str:
        return text.render(view)

    def game_metrics(self, record: GameRecord) -> dict[str, Any]:
        return metrics.game_metrics(record)

    def aggregate_metrics(self, records: Sequence[GameRecord]) -> dict[str, Any]:
        return metrics.aggregate_metrics(records)
