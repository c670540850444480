"""The omniscient perspective's secrets at a frame: the hidden setup (drawn by the env's widget
where it can, as on the result screen; the rest in words) and each seat's private part (what
only it knew then)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widgets import Static

from tui.widgets.private_panel import format_value
from tui.widgets.setup_reveal import setup_renderable


class SeatSecrets(Static):
    def show(self, view: dict[str, Any], names: list[str],
             drawn: tuple[RenderableType, Collection[str]] | None = None) -> None:
        named = dict(enumerate(names))
        text = Text()
        for seat, seat_view in sorted((view.get("seats") or {}).items(),
                                      key=lambda kv: int(kv[0])):
            private = (seat_view or {}).get("private") or {}
            text.append(f"{named.get(int(seat), f'seat {seat}')} knows\n", style="bold")
            for key, value in private.items():
                text.append(f"  {key.replace('_', ' ')}: ", style="bold")
                text.append(format_value(value) + "\n")
            if not private:
                text.append("  (nothing private)\n", style="dim")
        text.rstrip()
        self.update(Group(Text("Hidden setup", style="bold"),
                          setup_renderable(view.get("setup"), named, drawn), Text(), text))
