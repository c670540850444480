"""The Blotto round history: both allocations, fields won and the running score, per round.
Columns are named after the players (the one reading it first, marked "(you)"), so a spectator
reads the same table with nobody called "you"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.widgets import DataTable


def _alloc(a: dict[str, int]) -> str:
    return " ".join(f"{k}{v}" for k, v in a.items())


class BlottoHistory(DataTable):
    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, cursor_type="none", zebra_stripes=True)
        self.can_focus = False
        self._rows = 0
        self._names: tuple[str, str] | None = None

    def show(self, history: list[dict[str, Any]], seat: int | None,
             name: Callable[[int], str]) -> None:
        me = 0 if seat is None else seat
        other = 1 - me
        names = (name(me) + (" (you)" if seat is not None else ""), name(other))
        if names != self._names or len(history) < self._rows:
            self.clear(columns=True)
            self.add_columns("Round", *names, "Fields", "Round to", "Score")
            self._names = names
            self._rows = 0
        for entry in history[self._rows:]:
            won = entry.get("fields_won", [0, 0])
            winner = entry.get("winner")
            to = "tie" if winner is None else name(winner)
            style = "yellow" if winner is None else "green" if winner == me else "red"
            if seat is None and winner is not None:
                style = "bold"
            score = entry.get("score", [0, 0])
            self.add_row(str(entry["round"]), _alloc(entry["allocations"][me]),
                         _alloc(entry["allocations"][other]), f"{won[me]}–{won[other]}",
                         Text(to, style=style), f"{score[me]}–{score[other]}")
        self._rows = len(history)
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)
