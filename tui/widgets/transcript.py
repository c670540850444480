"""The game transcript: every event this seat may see, one line each, newest at the bottom."""

from __future__ import annotations

from typing import Any

from textual.widgets import RichLog

from tui.describe import Namer, describe_event


class Transcript(RichLog):
    """Appends events it has not shown yet (events arrive in `seq` order, possibly repeated)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, wrap=True, markup=False, highlight=False)
        self._shown: set[int] = set()
        self.can_focus = False

    def show(self, events: list[dict[str, Any]], name: Namer) -> None:
        for event in events:
            seq = event.get("seq")
            if seq in self._shown:
                continue
            self._shown.add(seq)
            self.write(describe_event(event, name))

    def note(self, line: str) -> None:
        """A line that is not an event (connection notices, errors)."""
        self.write(f"· {line}")
