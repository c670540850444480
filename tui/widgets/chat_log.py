"""Chat lines of a game (events that carry a speaker seat and text), newest at the bottom."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import RichLog

from tui.describe import Namer


def is_chat(event: dict[str, Any]) -> bool:
    data = event.get("data") or {}
    return isinstance(data.get("text"), str) and isinstance(data.get("seat"), int)


class ChatLog(RichLog):
    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, wrap=True, markup=False, highlight=False)
        self.can_focus = False
        self._shown: set[int] = set()

    def show(self, events: list[dict[str, Any]], name: Namer, me: int | None) -> None:
        for event in events:
            if event.get("seq") in self._shown or not is_chat(event):
                continue
            self._shown.add(event["seq"])
            data = event["data"]
            line = Text()
            seat = data["seat"]
            who = f"P{seat} " + ("(you)" if seat == me else name(seat))
            if "round" in data:
                line.append(f"[r{data['round']}] ", style="dim")
            line.append(f"{who}: ", style="bold cyan" if data["seat"] == me else "bold")
            line.append(data["text"])
            self.write(line)
