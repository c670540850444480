"""Colonel Blotto (MindGames §2): two commanders split their units over fields, round by round.

Each round both commanders allocate at once; a field goes to whoever sends more units (a tie takes
it for nobody) and the round to whoever takes more fields. The game ends after `rounds` rounds or
as soon as one commander has won `rounds_to_win` rounds (a majority, rounds // 2 + 1, by default).
Invalid answers follow the MindGames policy: `error_allowance` retries, then a forfeit.
docs/rules/colonel-blotto.md states every decision where the paper and TextArena differ.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
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
    InvalidMovePolicy,
)
from engine.policy import FORFEIT, FORMAT, RULE

# Limits (rules v2): the paper's largest setup ("extreme": 7 fields, 75 units, 25 rounds) with
# headroom, and no larger, so that no table is expensive: a best-responding bot's work grows
# about fourfold per two more fields (it was 8.6 s a decision at 20 fields and 1000 units).
MAX_FIELDS = 9
MAX_UNITS = 200
MAX_ROUNDS = 1000  # a long game costs no more per move: views hold a window of rounds
MAX_ERROR_ALLOWANCE = 100

SEAT_NAMES = ("Commander Alpha", "Commander Beta")
HISTORY_WINDOW = 25  # resolved rounds a view holds (every preset's whole game); the rest is the log


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
            raise ConfigError(f"fields must be between 2 and {MAX_FIELDS}, got {self.fields}")
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

_BOTH = frozenset((0, 1))
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
    __slots__ = ("names", "example", "_space", "_fixed", "_policy", "_default", "round", "score",
                 "history", "_allocations", "_units", "_exact", "_rounds", "_to_win")
    config: BlottoConfig

    def __init__(self, env: Env, config: BlottoConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self.names, self.example, self._space, self._fixed, self._policy, self._default = \
            _setup(config)
        self.round = 1
        self.clock = {"round": 1}
        self.score = [0, 0]
        # Resolved rounds; an entry is never changed once appended (views hold entries).
        self.history: list[dict[str, Any]] = []
        self._allocations: list[Allocation | None] = [None, None]
        self._waiting = _BOTH
        self._units, self._exact = config.units, config.exact_units
        self._rounds, self._to_win = config.rounds, config.rounds_to_win
        self.emit("round_started", {"round": 1, "rounds": config.rounds})

    # -- the contract ------------------------------------------------------------------------
    def legal(self, seat: int) -> ActionSpace:
        return self._space if seat in self._waiting else NO_ACTION

    def _public_state(self) -> dict[str, Any]:
        public = self._fixed.copy()
        public["round"] = self.round
        public["score"] = self.score[:]
        public["submitted"] = [self._allocations[0] is not None, self._allocations[1] is not None]
        public["history"] = self.history[-HISTORY_WINDOW:]
        return public

    def _private_state(self, seat: int) -> dict[str, Any]:
        mine = self._allocations[seat]
        errors = self._errors[seat]
        return {"name": SEAT_NAMES[seat], "submitted": mine is not None,
                "allocation": None if mine is None else mine.as_dict(self.names),
                "invalid_count": errors,
                "retries_left": max(self.config.error_allowance - errors, 0),
                "last_error": self._last_errors[seat]}

    def default_action(self, seat: int) -> dict[str, int]:
        """The even split (valid under both unit rules)."""
        return self._default

    def invalid_move_policy(self, seat: int, category: str) -> InvalidMovePolicy:
        return self._policy

    def _apply(self, seat: int, action: Action) -> str | None:
        parsed = syntax.parse_text(action, self.names, self.example) \
            if action.__class__ is str else syntax.parse_mapping(action, self.names)  # type: ignore[arg-type]
        if parsed.__class__ is syntax.ParseError:
            category = parsed.category  # type: ignore[union-attr]
            return self.reject(seat, parsed.message, category,  # type: ignore[union-attr]
                               error_class=RULE if category == "units" else FORMAT,
                               round=self.round)
        total = parsed.total  # type: ignore[union-attr]
        if total > self._units or (self._exact and total != self._units):
            problem = budget_problem(parsed, self._units, self._exact)  # type: ignore[arg-type]
            return self.reject(seat, problem, "units", error_class=RULE,  # type: ignore[arg-type]
                               round=self.round)
        self._allocations[seat] = parsed  # type: ignore[assignment]
        self.emit("allocation_submitted", {"seat": seat, "round": self.round})
        other = 1 - seat
        if self._allocations[other] is None:
            self._waiting = _ONLY[other]
        else:
            self._resolve_round()
        return None

    # -- rules ---------------------------------------------------------------------------------
    def _resolve_round(self) -> None:
        first, second = self._allocations
        a, b = first.units, second.units  # type: ignore[union-attr]
        winners = field_winners(a, b)
        won = [winners.count(0), winners.count(1)]
        round_winner = 0 if won[0] > won[1] else 1 if won[1] > won[0] else None
        if round_winner is not None:
            score = self.score[:]
            score[round_winner] += 1
            self.score = score
        entry = {"round": self.round,
                 "allocations": [first.as_dict(self.names), second.as_dict(self.names)],  # type: ignore[union-attr]
                 "field_winners": winners, "fields_won": won, "winner": round_winner,
                 "score": self.score}
        self.history.append(entry)
        self.emit("round_resolved", entry)
        self._allocations = [None, None]
        if not self._check_end():
            self.round += 1
            self.clock = {"round": self.round}
            self._waiting = _BOTH
            self.emit("round_started", {"round": self.round, "rounds": self._rounds})

    def _check_end(self) -> bool:
        """End the game after the last round, or early once someone has enough round wins."""
        s0, s1 = self.score
        rounds, need = self._rounds, self._to_win
        if self.round < rounds and s0 < need and s1 < need:
            return False
        top = None if s0 == s1 else 0 if s0 > s1 else 1
        if self.round >= rounds:
            self._end(top, f"a {s0}-{s1} draw after {rounds} rounds" if top is None else
                      f"{SEAT_NAMES[top]} wins {max(s0, s1)}-{min(s0, s1)} after {rounds} rounds")
        else:
            self._end(top, f"{SEAT_NAMES[top]} wins {max(s0, s1)}-{min(s0, s1)} by reaching "
                           f"{need} round wins after {self.round} of {rounds} rounds")
        return True

    def _end(self, winner: int | None, reason: str) -> None:
        if winner is None:
            self.finish({0: 0.0, 1: 0.0}, (), reason)
        else:
            self.finish({s: 1.0 if s == winner else -1.0 for s in range(2)}, (winner,), reason)


@lru_cache(maxsize=64)
def _setup(config: BlottoConfig) -> tuple[tuple[str, ...], str, ActionSpace, dict[str, Any],
                                         InvalidMovePolicy, dict[str, int]]:
    """What every game of a config shares: field names, the example answer, the action space, the
    fixed part of the public view (read-only constants), the invalid-move policy and the default
    move."""
    names = field_names(config.fields)
    example = syntax.example(names, config.units)
    units, exact = config.units, config.exact_units
    space = ActionSpace(
        kind="form",
        prompt=f"Allocate {'exactly' if exact else 'up to'} {units} units across fields "
               f"{', '.join(names)}.",
        syntax=example,
        fields=tuple(Field(n, f"Field {n}", "int", min=0, max=units, default=0) for n in names),
        constraints={"sum_eq": units} if exact else {"sum_max": units})
    fixed = {"commanders": list(SEAT_NAMES), "fields": list(names), "units": units,
             "exact_units": exact, "rounds": config.rounds,
             "rounds_to_win": config.rounds_to_win, "format": example}
    policy = InvalidMovePolicy(retries=config.error_allowance, then=FORFEIT)
    share, extra = divmod(units, len(names))
    default = {n: share + (i < extra) for i, n in enumerate(names)}
    return names, example, space, fixed, policy, default


class ColonelBlottoEnv(Env):
    id = "colonel-blotto"
    title = "Colonel Blotto"
    description = "Two commanders secretly split their units over battlefields, round after round."
    players = (2,)
    rules_version = "2"  # v2: config limits (at most 9 fields and 200 units)
    Config = BlottoConfig
    game_class = BlottoGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "paper"
    seat_names = SEAT_NAMES
    on_timeout = "void"  # MindGames: timed-out games are discarded
    scripted_bots = "bots.scripted.colonel_blotto"
    prompt_builder = "bots.prompts.colonel_blotto:BlottoPrompts"
    widget = "tui.widgets.blotto:BlottoGame"

    text = text  # render, describe_event
    metrics = metrics  # game_metrics, aggregate_metrics
    metric_labels = metrics.LABELS

