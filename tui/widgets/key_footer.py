"""The footer every screen shows: Textual's, but when its keys do not fit on one line (at 80
columns a game's own keys, such as SocialGrid's moves, beside the screen's keys) it shows them
on as many lines as they need instead of cutting off the keys at its right end."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup

TRIES = 3  # refreshes to wait for new keys to be laid out before measuring them


class KeyFooter(Footer):
    DEFAULT_CSS = """
    KeyFooter.-rows { layout: vertical; }
    KeyFooter .key-row { height: 1; width: auto; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._rows: list[int] | None = None  # keys (top-level widgets) on each line but the last
        self._width = 0  # the width they were laid out for

    def compose(self) -> ComposeResult:
        keys = super().compose()
        if self._rows is None:
            yield from keys
            return
        for count in self._rows:
            with HorizontalGroup(classes="key-row"):
                yield from _first(keys, count)
        with HorizontalGroup(classes="key-row"):
            yield from keys

    async def recompose(self) -> None:
        """New keys: on one line first, then measured (`_fit`)."""
        self._rows = None
        self.remove_class("-rows")
        self.styles.height = 1
        await super().recompose()
        self.call_after_refresh(self._fit, TRIES)

    def on_resize(self) -> None:
        if self.size.width != self._width and self._rows is not None:
            self.call_later(self.recompose)
        self._width = self.size.width

    async def _fit(self, tries: int) -> None:
        if self._rows is not None:  # a fit asked for before another one laid the rows out
            return
        widths = [child.outer_size.width for child in self.children]
        if not sum(widths):
            if tries:
                self.call_after_refresh(self._fit, tries - 1)
            return
        if sum(widths) <= self.size.width:
            return
        children, rows, start = list(self.children), [], 0
        while sum(widths[start:]) > self.size.width:
            count = _fitting(children[start:], widths[start:], self.size.width)
            rows.append(count)
            start += count
        self._rows = rows
        self.add_class("-rows")
        self.styles.height = len(rows) + 1
        await Footer.recompose(self)


def _fitting(children: list[Widget], widths: list[int], room: int) -> int:
    """How many of the keys fit on the first line, a group's keys kept with its label."""
    used = count = 0
    i = 0
    while i < len(children):
        unit = 2 if isinstance(children[i], KeyGroup) and i + 1 < len(children) else 1
        width = sum(widths[i:i + unit])
        if used + width > room:
            break
        used, count, i = used + width, count + unit, i + unit
    return max(count, 1)


def _first(keys: Iterator[Widget], count: int) -> Iterable[Widget]:
    """The first `count` top-level keys of Footer.compose: a group's keys are composed into
    its KeyGroup, which joins the line when its label comes."""
    placed = 0
    for key in keys:
        yield key
        if isinstance(key, FooterKey) and key.has_class("-grouped"):
            continue
        placed += 2 if isinstance(key, FooterLabel) else 1
        if placed >= count:
            return
