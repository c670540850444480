"""A dataset task's evidence, stage by stage: each stage's title as a bold header ("Stage 3 of 3 ·
Rebuttal and discussion" when the task has several stages), then its items, each label bold
before its text, wrapped. While the game runs the newest stage of a multi-stage task is marked
"▸ new", and when a stage arrives the list scrolls so that its header is at the top (as far as
the content allows): a person reads it without scrolling. `page` scrolls by a screenful (the
game widget binds PgUp/PgDn to it, so the answer form keeps the focus)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

NEW = "  ▸ new"  # after the newest stage's title


def stage_title(index: int, stages: int, title: str, *, newest: bool = False) -> str:
    """"Stage 3 of 3 · Rebuttal and discussion  ▸ new"; a one-stage task's title alone."""
    head = f"Stage {index} of {stages} · {title}" if stages > 1 else title
    return head + (NEW if newest else "")


def stage_items(items: Sequence[Sequence[Any]]) -> Text:
    """Each [label, text] item as "Label: text", the label bold, one item after another."""
    text = Text()
    for n, item in enumerate(items):
        if n:
            text.append("\n")
        label, body = (str(item[0]), str(item[1])) if len(item) >= 2 else ("", str(item[0]))
        if label:
            text.append(f"{label}: ", style="bold")
        text.append(body)
    return text


class DsEvidence(VerticalScroll):
    """`show` updates a header and a body per stage (adding the new ones) and, when the newest
    stage changed, scrolls it to the top; it keeps it there while the widgets around take or
    give back lines, until the person scrolls with `page`."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._state: tuple[Any, ...] | None = None
        self._newest: Static | None = None  # the newest stage's header: scrolled to the top
        self._pinned = False  # keep the newest stage at the top when the sizes change

    def on_mount(self) -> None:
        # The new stage's lines are measured on the next layout, and the answers and the form
        # below may take or give back lines: scroll again whenever either size changes.
        self.watch(self, "virtual_size", self._show_newest, init=False)

    def on_resize(self) -> None:
        self._show_newest()

    def show(self, evidence: Sequence[Mapping[str, Any]], stages: int, *,
             over: bool = False) -> None:
        """`evidence`: the view's [{title, items}] for the stages shown so far; `stages`: how
        many the task has; `over`: the game is over (no stage is new any more)."""
        shown = [(str(s.get("title") or ""), tuple(tuple(i) for i in s.get("items") or ()))
                 for s in evidence]
        state = (tuple(shown), stages, over)
        if state == self._state:
            return
        newest_changed = self._state is None or len(self._state[0]) != len(shown)
        self._state = state
        statics = list(self.query(Static))
        while len(statics) > 2 * len(shown):
            statics.pop().remove()
        new: list[Static] = []
        for index, (title, items) in enumerate(shown, start=1):
            fresh = index == len(shown) and stages > 1 and not over
            head = stage_title(index, stages, title, newest=fresh)
            if 2 * index <= len(statics):
                header, body = statics[2 * index - 2], statics[2 * index - 1]
                header.update(head)
                body.update(stage_items(items))
            else:
                header = Static(head, classes="ds-stage-title", markup=False)
                body = Static(stage_items(items), classes="ds-stage-items")
                new += [header, body]
            header.set_class(index == 1, "-first")
            header.set_class(fresh, "-newest")
            if index == len(shown):
                self._newest = header
        if new:
            self.mount(*new)
        if not shown:
            self._newest = None
        if newest_changed:
            self._pinned = True
            self.call_after_refresh(self._show_newest)

    def _show_newest(self) -> None:
        """Scroll so that the newest stage's header is the top line (or as near as it goes)."""
        header = self._newest
        if self._pinned and header is not None and header.is_attached:
            self.scroll_to(y=min(header.virtual_region.y, self.max_scroll_y), animate=False,
                           immediate=True)

    def page(self, pages: int) -> None:
        """Scroll by `pages` screenfuls (negative: up), one line kept from the last."""
        self._pinned = False
        self.scroll_relative(y=pages * max(1, self.scrollable_content_region.height - 1),
                             animate=False)

    def lines(self) -> list[str]:
        """The stages as a person reads them: each header, then each item's line (tests)."""
        out: list[str] = []
        for static in self.query(Static):
            content = static.content
            out += (content.plain if isinstance(content, Text) else str(content)).split("\n")
        return out
