"""The game transcript: every event this seat may see, one line each, newest at the bottom.

Each line is the event's `text`, written by the env on the server for this seat; the generic
line of tui/describe.py stands in only when a server sends none. Earlier events fetched with
`history` come as a marked block at the bottom (a log only grows downwards). Events missed while
disconnected are fetched before what came after them is shown, so they take their place in order,
as a marked block of catch-up lines.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from rich.text import Text

from tui.describe import Namer, describe_event
from tui.session import CATCH_UP, events_after, events_before
from tui.widgets.wrap_log import WrapLog

MAX_LINES = 3_000  # lines kept on screen: a long game's transcript stays bounded in memory
EARLIER = "↑ "  # the mark in front of every line of an earlier block
CAUGHT_UP = "↻ "  # the mark in front of every line fetched after a reconnect


def event_line(event: dict[str, Any], name: Namer) -> str:
    text = event.get("text")
    return text if isinstance(text, str) and text else describe_event(event, name)


class Transcript(WrapLog):
    """Appends only what it has not shown: events after its last seq, and fetched earlier events
    before its first seq (each seq is shown once)."""

    # earlier and rule are styled in parlor.tcss, catch-up by DEFAULT_CSS
    COMPONENT_CLASSES = {"transcript--earlier", "transcript--rule", "transcript--catch-up"}
    DEFAULT_CSS = "Transcript > .transcript--catch-up { text-style: italic; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, max_lines=MAX_LINES)
        self.last_seq = -1  # highest seq shown
        self.first_seq: int | None = None  # lowest seq shown (an earlier block goes before it)
        self._catching_up = False  # the last line written was a catch-up line

    def show(self, events: Sequence[dict[str, Any]], name: Namer,
             below: int | None = None, quiet: Collection[str] = ()) -> None:
        """Write the events after the last one shown, up to `below` (excluded) when given: the
        events past a reconnect gap wait until the gap is filled. Events of a `quiet` type
        (the env's `quiet_events`) are passed over."""
        new = events_after(events, self.last_seq)
        if below is not None:
            new = [e for e in new if e["seq"] < below]
        if not new:
            return
        last = new[-1]["seq"]
        new = [e for e in new if e.get("type") not in quiet]
        if not new:
            self.last_seq = last
            return
        follow = self._following()
        rule = self.get_component_rich_style("transcript--rule")
        for event in new:
            caught_up = bool(event.get(CATCH_UP))
            if caught_up and not self._catching_up:
                self.write(Text("┄┄ missed while disconnected, fetched on reconnecting ┄┄",
                                style=rule), scroll_end=follow)
            elif self._catching_up and not caught_up:
                self.write(Text("┄┄ caught up ┄┄", style=rule), scroll_end=follow)
            self._catching_up = caught_up
            if caught_up:
                self.write(Text(CAUGHT_UP + event_line(event, name),
                                style=self.get_component_rich_style("transcript--catch-up")),
                           scroll_end=follow)
            else:
                self.write(event_line(event, name), scroll_end=follow)
        self.last_seq = last
        if self.first_seq is None:
            self.first_seq = new[0]["seq"]

    def skipped(self, count: int, resume_at: int) -> None:
        """A reconnect gap too long to fetch whole: its first `count` seqs are left out (ctrl+o
        brings them back as earlier blocks), and the lines go on from seq `resume_at`."""
        self.note(f"up to {count:,} earlier events not shown; ctrl+o pages back")
        self.first_seq = resume_at

    def show_earlier(self, earlier: Sequence[dict[str, Any]], name: Namer) -> int:
        """Write the fetched events from before the first one shown, as a marked block whose
        top is scrolled into view. Returns how many lines that added."""
        if self.first_seq is None:
            return 0
        block = events_before(earlier, self.first_seq)
        if not block:
            return 0
        rule = self.get_component_rich_style("transcript--rule")
        dim = self.get_component_rich_style("transcript--earlier")
        top = self._line_number()
        self.write(Text(f"┄┄ {len(block)} earlier events (before the first line above) ┄┄",
                        style=rule), scroll_end=False)
        for event in block:
            self.write(Text(EARLIER + event_line(event, name), style=dim), scroll_end=False)
        self.write(Text("┄┄ end of the earlier events; the game goes on below ┄┄", style=rule),
                   scroll_end=False)
        self.first_seq = block[0]["seq"]
        # Show the block from its top (lines dropped by max_lines shift every line up).
        self.scroll_to(y=max(0, top - self._line_number(0)), animate=False, immediate=True)
        return len(block)

    def note(self, line: str) -> None:
        """A line that is not an event (connection notices, errors)."""
        self.write(f"· {line}", scroll_end=self._following())

    def _line_number(self, index: int | None = None) -> int:
        """The number of the line at `index` (the next one by default) counted from the first
        line ever written, whatever max_lines dropped since."""
        dropped = getattr(self, "_start_line", 0)
        return dropped + (len(self.lines) if index is None else index)

    def _following(self) -> bool:
        """New lines scroll the log only if the reader is at the bottom (not reading back)."""
        return self.max_scroll_y == 0 or self.scroll_y >= self.max_scroll_y - 1
