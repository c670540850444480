"""The omniscient perspective's secrets at a frame: each seat's private part (what only it
knew then) and the hidden setup (roles, words, the map)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from tui.widgets.private_panel import format_value
from tui.widgets.setup_reveal import setup_lines


class SeatSecrets(Static):
    def show(self, view: dict[str, Any], names: list[str]) -> None:
        named = dict(enumerate(names))
        text = Text()
        setup = view.get("setup") or {}
        if setup:
            text.append("Hidden setup\n", style="bold")
            for label, value in setup_lines(setup, named):
                text.append(f"  {label}: ", style="bold")
                text.append(value + "\n")
        for seat, seat_view in sorted((view.get("seats") or {}).items(), key=lambda kv: int(kv[0])):
            private = (seat_view or {}).get("private") or {}
            text.append(f"{named.get(int(seat), f'seat {seat}')} knows\n", style="bold")
            for key, value in private.items():
                text.append(f"  {key.replace('_', ' ')}: ", style="bold")
                text.append(format_value(value) + "\n")
            if not private:
                text.append("  (nothing private)\n", style="dim")
        text.rstrip()
        self.update(text)
