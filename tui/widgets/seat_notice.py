"""A line for everyone at a table while a seated person is away: who, and how long they have to
come back before the game is lost for them (the table summary's `return_by`, a wall-clock time)."""

from __future__ import annotations

import time

from rich.text import Text
from textual.widgets import Static

from tui.session import Session, seat_display


class SeatNotice(Static):
    """Hidden while everyone is here; redrawn each second while someone is away."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._session: Session | None = None

    def on_mount(self) -> None:
        self.display = False
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        if self._session is not None and self.display:
            self.show(self._session)

    def show(self, session: Session) -> None:
        self._session = session
        table = session.table or {}
        away = [s for s in table.get("seats", []) if isinstance(s.get("return_by"), int | float)
                and s.get("seat") != session.seat]
        if session.game_over is not None or table.get("status") != "playing" or not away:
            self.display = False
            return
        text = Text()
        for seat in away:
            left = max(0, int(seat["return_by"] - time.time()))
            if text:
                text.append("   ")
            text.append(f"⚠ {seat_display(seat)} disconnected — {left} s to return",
                        style="bold")
        text.append("  (a player who does not return loses the game)", style="dim")
        self.update(text)
        self.display = True
