"""Chat lines of a game (events that carry a speaker seat and text), newest at the bottom."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from tui.describe import Namer
from tui.session import events_after
from tui.widgets.wrap_log import WrapLog

MAX_LINES = 1_000  # chat lines kept on screen


def is_chat(event: dict[str, Any]) -> bool:
    data = event.get("data") or {}
    return isinstance(data.get("text"), str) and isinstance(data.get("seat"), int)


class ChatLog(WrapLog):
    """Appends the chat events after the last seq it has seen (O(new events) per render)."""

    COMPONENT_CLASSES = {"chat-log--round", "chat-log--speaker", "chat-log--me"}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, max_lines=MAX_LINES)
        self.last_seq = -1

    def show(self, events: Sequence[dict[str, Any]], name: Namer, me: int | None) -> None:
        new = events_after(events, self.last_seq)
        if not new:
            return
        self.last_seq = new[-1]["seq"]
        for event in new:
            if is_chat(event):
                self.write(self._line(event["data"], name, me))

    def _line(self, data: dict[str, Any], name: Namer, me: int | None) -> Text:
        seat = data["seat"]
        line = Text()
        if "round" in data:
            line.append(f"[r{data['round']}] ", style=self.get_component_rich_style(
                "chat-log--round"))
        who = name(seat) + (" (you)" if seat == me else "")
        line.append(f"{who}: ", style=self.get_component_rich_style(
            "chat-log--me" if seat == me else "chat-log--speaker"))
        line.append(data["text"] or "(passes)")
        return line
