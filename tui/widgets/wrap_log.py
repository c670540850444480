"""A log whose lines always fit its width: wrapped when written, wrapped again when it resizes.

Textual's RichLog renders each line once, at the width it has at that moment: a line written
before a scrollbar appeared, or before the terminal got narrower, is cut on the right. This log
keeps what it wrote (as many as it shows) and writes it all again when its width changes, and it
reserves the scrollbar's gutter from the start so that the scrollbar appearing changes nothing.
While hidden (a narrow game screen keeps its transcript behind ctrl+t) it has no width: lines
written then are written again once it is shown, rather than kept one character a line.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from rich.console import RenderableType
from textual.events import Resize
from textual.widgets import RichLog


class WrapLog(RichLog):
    DEFAULT_CSS = "WrapLog { scrollbar-gutter: stable; overflow-x: hidden; }"

    def __init__(self, *, max_lines: int, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, wrap=True, markup=False, highlight=False,
                         max_lines=max_lines, min_width=1)
        self.can_focus = False
        self._written: deque[RenderableType] = deque(maxlen=max_lines)
        self._width = 0  # the width the lines were last wrapped at (0: not yet)
        self._stale = False  # lines were written while hidden, at no width

    def write(self, content: RenderableType | object, width: int | None = None,
              expand: bool = False, shrink: bool = True, scroll_end: bool | None = None,
              animate: bool = False) -> RichLog:
        self._written.append(content)  # type: ignore[arg-type]
        if self._size_known and not self.scrollable_content_region.width:
            self._stale = True
        return super().write(content, width, expand, shrink, scroll_end, animate)

    def clear(self) -> RichLog:
        self._written.clear()
        return super().clear()

    def on_resize(self, event: Resize) -> None:
        width = self.scrollable_content_region.width
        if not width:  # hidden: wrap again when shown
            return
        if self._size_known and (self._stale or (self._width and width != self._width)):
            self._stale = False
            self._rewrap()
        self._width = width

    def _rewrap(self) -> None:
        """Write every kept line again at the new width, keeping the reader's place."""
        at_end = self.scroll_y >= self.max_scroll_y - 1
        share = self.scroll_y / self.max_scroll_y if self.max_scroll_y else 1.0
        written = list(self._written)
        super().clear()
        for content in written:
            super().write(content, scroll_end=False)
        self.call_after_refresh(self._restore, at_end, share)

    def _restore(self, at_end: bool, share: float) -> None:
        y: Any = self.max_scroll_y if at_end else round(share * self.max_scroll_y)
        self.scroll_to(y=y, animate=False, immediate=True)
