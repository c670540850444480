"""Memoised text of append-only histories (resolved rounds), shared by the envs' renderers.

A game's history only grows and every view of a game shares its entry objects, so one text per
game (found by its first entry) is kept and extended by the newly resolved entries. A history
that went through JSON, or was cut (a prompt builder keeping the latest rounds), simply misses and
is rendered in full. The cache holds references to the entries it keys on, so an id cannot be
reused by another object while its text is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

MAX_GAMES = 4096


class GrowingText:
    def __init__(self) -> None:
        self._games: dict[int, tuple[Any, int, Any, str]] = {}

    def text(self, history: Sequence[Mapping[str, Any]],
             block: Callable[[Mapping[str, Any]], str]) -> str:
        """`history` rendered entry by entry with `block`, joined by newlines (non-empty)."""
        first, last, n = history[0], history[-1], len(history)
        held = self._games.get(id(first))
        done, text = 0, ""
        if held is not None and held[0] is first and held[1] <= n \
                and history[held[1] - 1] is held[2]:
            done, text = held[1], held[3]
            if done == n:
                return text
        blocks = [block(e) for e in history[done:]]
        text = "\n".join([text, *blocks] if done else blocks)
        if len(self._games) >= MAX_GAMES:
            self._games.clear()
        self._games[id(first)] = (first, n, last, text)
        return text
