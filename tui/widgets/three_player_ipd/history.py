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


SCROLL_BAR = 2
CELL_PADDING = 2  # a DataTable cell's padding, both sides
MIN_TITLE = 8  # the widest cell: "+10 = 50"
LONGEST_TITLE = 24


class IpdHistory(DataTable):
    """One row per round. A player gets a column per opponent ("vs bob": C/D = what you did
    toward bob / what bob did toward you); a spectator one per pair ("alice/bob"). Then one per
    player: the round's points = the running total."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, cursor_type="none", zebra_stripes=True)
        self.can_focus = False
        self._rows = -1
        self._header: tuple[str, ...] = ()
        self._shown: tuple[dict[str, Any], int | None, Callable[[int], str]] | None = None

    def show(self, public: dict[str, Any], me: int | None, name: Callable[[int], str]) -> None:
        self._shown = (public, me, name)
        history = public.get("history") or []
        players = len(public.get("players") or public.get("scores") or [])
        first = me if me is not None else 0
        order = [first] + [s for s in range(players) if s != first]
        if me is None:  # a spectator: every pair
            pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1:]]
        else:  # a player: their own pairs (you/them)
            pairs = [(me, b) for b in order[1:]]
        header = _fit(pairs, order, me, name, self.size.width - SCROLL_BAR)
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


    def on_resize(self) -> None:
        if self._shown is not None:
            self._header = ()  # titles are cut to the width: build them again
            self.show(*self._shown)


def _fit(pairs: list[tuple[int, int]], order: list[int], me: int | None,
         name: Callable[[int], str], room: int) -> tuple[str, ...]:
    """The column titles, names cut as little as `room` columns allow."""
    def titles(w: int) -> tuple[str, ...]:
        if me is None:
            half = (w - 1) // 2
            pair = [f"{_short(name(a), half)}/{_short(name(b), half)}" for a, b in pairs]
        else:
            pair = [f"vs {_short(name(b), w - 3)}" for _, b in pairs]
        return ("Round", *pair, *("You" if s == me else _short(name(s), w) for s in order))

    cells = [5] + [3] * len(pairs) + [MIN_TITLE] * len(order)  # "Round", "C/D", "+3 = 9"

    def width(header: tuple[str, ...]) -> int:
        return sum(max(len(t), c) + CELL_PADDING for t, c in zip(header, cells, strict=True))

    return next((h for w in range(LONGEST_TITLE, MIN_TITLE - 1, -1)
                 if width(h := titles(w)) <= room), titles(MIN_TITLE))


def _short(name: str, width: int) -> str:
    """A column title: a long bot identity loses its provider prefix, then is cut in the
    middle, keeping the number that tells two bots of one kind apart (`tit-fo…#2`)."""
    if len(name) > width and ":" in name:
        name = name.split(":", 1)[1]
    if len(name) <= width:
        return name
    head, _, number = name.rpartition(" #")
    if head and number.isdigit() and width > len(number) + 2:
        return head[: width - len(number) - 2] + "…#" + number
    return name[: max(width - 1, 1)] + "…"
