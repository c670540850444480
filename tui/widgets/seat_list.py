"""The seats of a table: who sits where, bot or person, connected or not."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import DataTable


class SeatList(DataTable):
    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, cursor_type="none", zebra_stripes=True)
        self.can_focus = False

    def on_mount(self) -> None:
        self.add_columns("Seat", "Role", "Kind", "Who", "Connected")

    def show(self, table: dict[str, Any] | None, mine: int | None) -> None:
        self.clear()
        for s in (table or {}).get("seats", []):
            if s.get("kind") == "bot":
                who, connected = s.get("identity") or "bot", "—"
            else:
                who = s.get("player") or "(open)"
                connected = "yes" if s.get("connected") else ("no" if s.get("player") else "—")
            label = Text(str(s["seat"]), style="bold green" if s["seat"] == mine else "")
            if s["seat"] == mine:
                who = f"{who} (you)"
            self.add_row(label, s.get("name", ""), s.get("kind", ""), who, connected)
