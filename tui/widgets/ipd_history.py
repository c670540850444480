"""IPD rounds so far, from this seat's side: what you chose, what they chose toward you, points."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import DataTable


def _mark(choice: str) -> Text:
    return Text(choice[:1].upper(), style="green" if choice == "cooperate" else "bold red")


class IpdHistory(DataTable):
    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, cursor_type="none", zebra_stripes=True)
        self.can_focus = False
        self._rows = -1

    def on_mount(self) -> None:
        self.add_columns("Round", "You chose", "Toward you", "Your points", "Scores")

    def show(self, public: dict[str, Any], me: int | None) -> None:
        history = public.get("history") or []
        if len(history) == self._rows:
            return
        self.clear()
        me = 0 if me is None else me
        for entry in history:
            decisions: dict[str, dict[str, str]] = entry.get("decisions") or {}
            mine = decisions.get(str(me), {})
            chose = Text(" ").join(Text(f"P{o}:") + _mark(c) for o, c in mine.items())
            toward = Text(" ").join(Text(f"P{s}:") + _mark(d[str(me)])
                                    for s, d in decisions.items() if str(me) in d)
            gains = entry.get("gains") or []
            points = f"+{gains[me]}" if me < len(gains) else ""
            scores = " · ".join(f"P{s} {v}" for s, v in enumerate(entry.get("scores") or []))
            self.add_row(str(entry.get("round", "?")), chose, toward, points, scores)
        self._rows = len(history)
