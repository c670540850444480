"""Folding per-game metrics into metrics across games: the helpers every env's
`aggregate_metrics` is built from.

Aggregates read the dicts `Env.game_metrics` returns (and the store keeps in its `metrics` table),
`{"game": {name: value}, "seats": {"0": {name: value}, ...}}`, one game at a time, and keep only
running sums and counts: memory does not grow with the number of games. Sums are exact for ints
and correctly rounded for floats, so a total never depends on the order games arrive in
(`parlor sim --concurrency N` folds games as they end, in any order, and prints the same numbers).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

PerGame = Mapping[str, Any]  # one game's metrics: {"game": {...}, "seats": {"0": {...}, ...}}


class Sum:
    """A running sum whose total does not depend on the order of the values: ints add exactly;
    floats keep non-overlapping partials (Shewchuk's algorithm, as `math.fsum` does) and are
    rounded once, when the total is read. `n` counts the values added."""

    __slots__ = ("_int", "_partials", "n")

    def __init__(self) -> None:
        self._int = 0
        self._partials: list[float] = []
        self.n = 0

    def add(self, value: float) -> None:
        self.n += 1
        if isinstance(value, int):
            self._int += value
            return
        self._grow(float(value))

    def merge(self, other: Sum) -> None:
        """Add what `other` summed (another process's share of the games, say): its int part
        exactly and each of its partials, so the total is still the exact sum rounded once."""
        self.n += other.n
        self._int += other._int
        for partial in other._partials:
            self._grow(partial)

    def _grow(self, x: float) -> None:
        kept = 0
        for y in self._partials:
            if abs(x) < abs(y):
                x, y = y, x
            high = x + y
            low = y - (high - x)
            if low:
                self._partials[kept] = low
                kept += 1
            x = high
        self._partials[kept:] = [x]

    @property
    def total(self) -> float:
        """An int while only ints were added (as plain `sum` would give)."""
        if not self._partials:
            return self._int
        return math.fsum([*self._partials, self._int])

    @property
    def mean(self) -> float | None:
        return self.total / self.n if self.n else None


class Totals:
    """Sums of the numeric values of metric dicts added one at a time, by name. A None value is
    no value (means skip it); bools, strings and nested dicts are not summed. `added` counts the
    dicts; `count(name)` how many had a value for `name`, `positive(name)` how many had one
    above 0 (the games in which a seat made an invalid move, say, beside how many it made)."""

    __slots__ = ("_positive", "_sums", "added")

    def __init__(self) -> None:
        self._sums: dict[str, Sum] = {}
        self._positive: Counter[str] = Counter()
        self.added = 0

    def add(self, values: Mapping[str, Any]) -> None:
        self.added += 1
        for name, value in values.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                total = self._sums.get(name)
                if total is None:
                    total = self._sums[name] = Sum()
                total.add(value)
                if value > 0:
                    self._positive[name] += 1

    def merge(self, other: Totals) -> None:
        """Add another `Totals` (e.g. of the games another process played)."""
        self.added += other.added
        for name, total in other._sums.items():
            mine = self._sums.get(name)
            if mine is None:
                mine = self._sums[name] = Sum()
            mine.merge(total)
        self._positive.update(other._positive)

    def total(self, name: str) -> float:
        """The sum of `name` (0 when no dict had a value for it)."""
        total = self._sums.get(name)
        return 0 if total is None else total.total

    def mean(self, name: str) -> float | None:
        """The mean of `name` over the dicts that had a value for it; None when none had."""
        total = self._sums.get(name)
        return None if total is None else total.mean

    def count(self, name: str) -> int:
        """How many dicts had a value for `name`."""
        total = self._sums.get(name)
        return 0 if total is None else total.n

    def positive(self, name: str) -> int:
        """How many dicts had a value above 0 for `name`."""
        return self._positive[name]

    def to_dict(self) -> dict[str, float]:
        return {name: total.total for name, total in self._sums.items()}


class Fold:
    """Running totals over games: the game's metrics and each seat's (by seat key), how many
    games were seen, and how many were counted. Void games (`game["void"]` true) are seen but
    left out of the totals unless `skip_void=False`. `medians` names game metrics whose median
    is wanted: their values are kept as counts of distinct values (a forfeit depth takes at most
    rounds + 1 values), so memory stays bounded by the config, not by the number of games."""

    def __init__(self, players: int, *, skip_void: bool = True,
                 medians: Iterable[str] = ()) -> None:
        self.skip_void = skip_void
        self.games = 0
        self.counted = 0
        self.game = Totals()
        self._seats: dict[str, Totals] = {str(s): Totals() for s in range(players)}
        self._values: dict[str, Counter[float]] = {name: Counter() for name in medians}

    def add_all(self, per_game: Iterable[PerGame]) -> Fold:
        """Fold every game of `per_game` (read once, one game at a time); returns self."""
        for metrics in per_game:
            self.add(metrics)
        return self

    def add(self, metrics: PerGame) -> None:
        self.games += 1
        game = metrics["game"]
        if self.skip_void and game.get("void"):
            return
        self.counted += 1
        self.game.add(game)
        for seat, values in metrics["seats"].items():
            self.seat(seat).add(values)
        for name, counts in self._values.items():
            if game.get(name) is not None:
                counts[game[name]] += 1

    @property
    def void(self) -> int:
        return self.games - self.counted

    def seat(self, seat: str) -> Totals:
        totals = self._seats.get(seat)
        if totals is None:
            totals = self._seats[seat] = Totals()
        return totals

    def seat_totals(self) -> dict[str, dict[str, float]]:
        """Every numeric seat metric summed over the counted games, by seat key."""
        return {seat: totals.to_dict() for seat, totals in self._seats.items()}

    def per_counted(self, total: float) -> float | None:
        """`total` per counted game (a rate or a mean); None when no game was counted."""
        return total / self.counted if self.counted else None

    def median(self, name: str) -> float | None:
        """The median of a game metric named in `medians`, as `statistics.median` gives it."""
        counts = self._values[name]
        n = sum(counts.values())
        if not n:
            return None
        wanted = sorted({(n - 1) // 2, n // 2})  # the middle one, or the middle two
        picked: list[float] = []
        seen = 0
        for value in sorted(counts):
            seen += counts[value]
            while wanted and wanted[0] < seen:
                picked.append(value)
                wanted.pop(0)
        return picked[0] if len(picked) == 1 else (picked[0] + picked[1]) / 2


def fold_grouped(per_game: Iterable[PerGame], players: int, key: str
                 ) -> tuple[Fold, dict[Any, Fold]]:
    """Every game folded once overall, and each counted game also into a Fold per value of
    its game metric `key` (a SocialMaze task's Player 1 role, a puzzle's difficulty): the
    breakdowns a paper reports beside the overall figure, in one pass."""
    fold = Fold(players)
    groups: dict[Any, Fold] = {}
    for metrics in per_game:
        fold.add(metrics)
        value = metrics["game"].get(key)
        if value is not None and not metrics["game"].get("void"):
            groups.setdefault(value, Fold(players)).add(metrics)
    return fold, groups


def with_role_totals(per_game: Iterable[PerGame], roles: Mapping[str, Totals]) -> Iterator[PerGame]:
    """Each game of `per_game`, passed on (to a `Fold`) after adding the seat metrics of a
    game that is not void to the `Totals` of the seat's role (its "role" metric)."""
    for metrics in per_game:
        if not metrics["game"].get("void"):
            for values in metrics["seats"].values():
                totals = roles.get(values.get("role"))
                if totals is not None:
                    totals.add(values)
        yield metrics

