"""IPD rounds so far: for each pair of players what each chose toward the other, the points of the
round and the running totals. Players are named as on every other screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.widgets import DataTable


def _mark(choice: str | None) -> Text:
    if choice is None:
        return Text("?", style="dim")
    return Text(choice[:1].upper(), style="green" if choice == "cooperate" else "bold red")


class IpdHistory(DataTable):
    """One row per round. A player gets a column per opponent ("vs bob": C/D = what you did
    toward bob / what bob did toward you); a spectator one per pair ("alice/bob"). Then one per
    player: the round's points = the running total."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, cursor_type="none", zebra_stripes=True)
        self.can_focus = False
        self._rows = -1
        self._header: tuple[str, ...] = ()

    def show(self, public: dict[str, Any], me: int | None, name: Callable[[int], str]) -> None:
        history = public.get("history") or []
        players = len(public.get("players") or public.get("scores") or [])
        first = me if me is not None else 0
        order = [first] + [s for s in range(players) if s != first]
        if me is None:  # a spectator: every pair
            pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1:]]
            titles = [f"{_short(name(a))}/{_short(name(b))}" for a, b in pairs]
        else:  # a player: their own pairs (you/them)
            pairs = [(me, b) for b in order[1:]]
            titles = [f"vs {_short(name(b))}" for _, b in pairs]
        header = ("Round", *titles,
                  *("You" if s == me else _short(name(s)) for s in order))
        if header == self._header and len(history) == self._rows:
            return
        self.clear(columns=header != self._header)
        if header != self._header:
            self.add_columns(*header)
            self._header = header
        for entry in history:
            decisions: dict[str, dict[str, str]] = entry.get("decisions") or {}
            cells: list[Any] = [str(entry.get("round", "?"))]
            for a, b in pairs:
                cells.append(_mark(decisions.get(str(a), {}).get(str(b))) + Text("/")
                             + _mark(decisions.get(str(b), {}).get(str(a))))
            gains = entry.get("gains") or []
            scores = entry.get("scores") or []
            for s in order:  # the round's points, then the running total
                gain = f"+{gains[s]}" if s < len(gains) else ""
                cells.append(f"{gain} = {scores[s]}" if s < len(scores) else gain)
            self.add_row(*cells)
        self._rows = len(history)
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)


def _short(name: str, width: int = 12) -> str:
    """A column title: a long bot identity loses its provider prefix, then is cut."""
    if len(name) > width and ":" in name:
        name = name.split(":", 1)[1]
    return name if len(name) <= width else name[: width - 1] + "…"
