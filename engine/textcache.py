"""Memoised rendering of immutable history entries.

A game's resolved rounds never change, and the views a game hands out share the very same entry
objects, so a round's text line can be rendered once and reused for every later view. Entries are
keyed by identity; the cache holds a reference to each entry, so an id cannot be reused by another
object while its line is cached. Views that went through JSON simply miss the cache.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MAX_ENTRIES = 20_000


class LineCache:
    def __init__(self) -> None:
        self._lines: dict[int, tuple[Any, str]] = {}

    def get(self, entry: Any, render: Callable[[], str]) -> str:
        hit = self._lines.get(id(entry))
        if hit is not None and hit[0] is entry:
            return hit[1]
        line = render()
        if len(self._lines) >= MAX_ENTRIES:
            self._lines.clear()
        self._lines[id(entry)] = (entry, line)
        return line
