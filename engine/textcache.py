"""Memoised rendering of immutable history entries.

A game's resolved rounds never change, and the views a game hands out share the very same entry
objects, so a round's text line can be rendered once and reused for every later view. Entries are
keyed by identity; the cache holds a reference to each entry, so an id cannot be reused by another
object while its line is cached. Views that went through JSON simply miss the cache.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

MAX_ENTRIES = 20_000


class LineCache:
    def __init__(self) -> None:
        self._lines: dict[Any, tuple[Any, str]] = {}

    def get(self, entry: Any, render: Callable[[], str]) -> str:
        """The text of one entry."""
        return self._get(id(entry), entry, render)

    def get_span(self, entries: Sequence[Any], render: Callable[[], str]) -> str:
        """The text of a run of consecutive entries of an append-only history (non-empty): the
        same first and last entry and the same length mean the same run."""
        first, last = entries[0], entries[-1]
        return self._get((id(first), id(last), len(entries)), (first, last), render)

    def _get(self, key: Any, held: Any, render: Callable[[], str]) -> str:
        hit = self._lines.get(key)
        if hit is not None and (hit[0] is held or (isinstance(held, tuple) and isinstance(
                hit[0], tuple) and all(a is b for a, b in zip(hit[0], held, strict=True)))):
            return hit[1]
        text = render()
        if len(self._lines) >= MAX_ENTRIES:
            self._lines.clear()
        self._lines[key] = (held, text)
        return text
