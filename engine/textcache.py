"""Memoised text of append-only histories (resolved rounds), shared by the envs' renderers.

A game's history only grows and every view of a game shares its entry objects, so one text per
game (found by its first entry) is kept and extended by the newly resolved entries. A history
that went through JSON, or was cut (a prompt builder keeping the latest rounds), simply misses and
is rendered in full. The cache holds references to the entries it keys on, so an id cannot be
reused by another object while its text is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")

MAX_GAMES = 4096


class GrowingText:
    def __init__(self) -> None:
        self._games: dict[int, tuple[Any, int, Any, str]] = {}

    def text(self, history: Sequence[Mapping[str, Any]],
             block: Callable[[Mapping[str, Any], Any], str], context: Any = None) -> str:
        """`history` rendered entry by entry with `block(entry, context)`, joined by newlines
        (non-empty). `context` must be the same for every view of a game."""
        first, last, n = history[0], history[-1], len(history)
        held = self._games.get(id(first))
        done, text = 0, ""
        if held is not None and held[0] is first and held[1] <= n \
                and history[held[1] - 1] is held[2]:
            done, text = held[1], held[3]
            if done == n:
                return text
        blocks = [block(e, context) for e in history[done:]]
        text = "\n".join([text, *blocks] if done else blocks)
        if len(self._games) >= MAX_GAMES:
            self._games.clear()
        self._games[id(first)] = (first, n, last, text)
        return text


class PerPart(Generic[T]):
    """Text (or what text is made from) memoised per view part (by identity) and seat: e.g. the
    rules text of a seat, keyed on a part of the view that every game of a config shares (so the
    part stands for the config: a view built by hand must not pair a shared part with other
    rules). Views that went through JSON carry new objects and simply miss. Entries hold the part
    they key on, so its id cannot be reused by another object while the text is kept."""

    def __init__(self) -> None:
        self._texts: dict[tuple[int, int | None], tuple[Any, T]] = {}

    def get(self, part: Any, seat: int | None) -> T | None:
        held = self._texts.get((id(part), seat))
        return held[1] if held is not None and held[0] is part else None

    def put(self, part: Any, seat: int | None, text: T) -> T:
        if len(self._texts) >= MAX_GAMES:
            self._texts.clear()
        self._texts[id(part), seat] = (part, text)
        return text
