"""Blotto allocation: move units between fields with the keyboard, a live total against the limit.

←/→ pick a field, ↑/+ and ↓/- change its units, f puts every unit left into it, 0 empties it,
Enter submits. The total can never exceed the limit; with `sum_eq` Enter waits for an exact total.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class AllocationForm(Widget, can_focus=True):
    DEFAULT_CSS = "AllocationForm { height: auto; }"
    BINDINGS = [
        # The form prints these keys itself; the footer keeps its room for Submit.
        Binding("left", "select(-1)", "Previous field", show=False),
        Binding("right", "select(1)", "Next field", show=False),
        Binding("up,plus,equals_sign", "change(1)", "One more unit", show=False),
        Binding("down,minus", "change(-1)", "One unit less", show=False),
        Binding("f", "fill", "Fill the field", show=False),
        Binding("0", "clear", "Empty the field", show=False),
        Binding("enter", "submit", "Submit"),
    ]

    # Editing state of the current decision; the game itself lives in the server's view.
    values: reactive[tuple[int, ...]] = reactive(tuple, always_update=True, layout=True)
    cursor: reactive[int] = reactive(0)

    class Submitted(Message):
        def __init__(self, allocation: dict[str, int]) -> None:
            super().__init__()
            self.allocation = allocation

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.names: list[str] = []
        self.limit = 0
        self.exact = False
        self.field_max: list[int] = []
        self.active = False  # the server awaits our allocation
        self.status = "Waiting for the game to start…"
        self.problem = ""

    # -- fed by the game widget -------------------------------------------------------------
    def start_turn(self, legal: dict[str, Any], start: dict[str, int] | None) -> None:
        """A new decision: read the fields and limit from `legal`, start from `start`."""
        fields = legal.get("fields", [])
        cons = legal.get("constraints") or {}
        self.names = [f["name"] for f in fields]
        self.exact = "sum_eq" in cons
        self.limit = cons.get("sum_eq", cons.get("sum_max", sum(f.get("max", 0) for f in fields)))
        self.field_max = [f.get("max", self.limit) for f in fields]
        if start and sum(start.get(n, 0) for n in self.names) <= self.limit:
            values = [int(start.get(n, 0)) for n in self.names]
        else:
            values = even_split(self.limit, len(self.names))
        self.active = True
        self.problem = ""
        self.status = ""
        self.cursor = min(self.cursor, max(len(self.names) - 1, 0))
        self.values = tuple(values)

    def hold(self, status: str, shown: dict[str, int] | None = None, names: list[str] | None = None
             ) -> None:
        """Not our decision now: show `status` (and the allocation we sent, if any)."""
        self.active = False
        self.status = status
        if names is not None:
            self.names = names
        if shown is not None:
            self.values = tuple(int(shown.get(n, 0)) for n in self.names)
        else:
            self.refresh(layout=True)

    @property
    def total(self) -> int:
        return sum(self.values)

    def allocation(self) -> dict[str, int]:
        return dict(zip(self.names, self.values, strict=True))

    # -- keys ------------------------------------------------------------------------------------
    def action_select(self, delta: int) -> None:
        if self.names:
            self.cursor = (self.cursor + delta) % len(self.names)

    def action_change(self, delta: int) -> None:
        if not self.active or not self.names:
            return
        values = list(self.values)
        new = values[self.cursor] + delta
        if new < 0 or new > self.field_max[self.cursor] or self.total + delta > self.limit:
            self.app.bell()  # the limit cannot be exceeded, nor a field go negative
            return
        values[self.cursor] = new
        self.problem = ""
        self.values = tuple(values)

    def action_fill(self) -> None:
        if self.active and self.names:
            values = list(self.values)
            room = self.field_max[self.cursor] - values[self.cursor]
            values[self.cursor] += max(0, min(self.limit - self.total, room))
            self.values = tuple(values)

    def action_clear(self) -> None:
        if self.active and self.names:
            values = list(self.values)
            values[self.cursor] = 0
            self.values = tuple(values)

    def action_submit(self) -> None:
        if not self.active:
            return
        if self.exact and self.total != self.limit:
            self.problem = f"place exactly {self.limit} units ({self.limit - self.total} left)"
            self.app.bell()
            self.refresh(layout=True)
            return
        self.active = False
        self.status = "Sent — waiting for the opponent…"
        self.refresh(layout=True)
        self.post_message(self.Submitted(self.allocation()))

    # -- drawing ---------------------------------------------------------------------------------
    def render(self) -> Table | Text:
        if not self.names:
            return Text(self.status, style="dim")
        grid = Table.grid(padding=(0, 2))
        grid.add_column(justify="right")
        for _ in self.names:
            grid.add_column(justify="center", min_width=5)
        top = max(self.limit, 1)
        marks = []
        for i, name in enumerate(self.names):
            style = "reverse bold" if i == self.cursor and self.active else "bold"
            marks.append(Text(f" {name} ", style=style))
        grid.add_row(Text("Field", style="dim"), *marks)
        grid.add_row(Text("Units", style="dim"), *[Text(str(v)) for v in self.values])
        bars = [Text("█" * max(0, round(5 * v / top)) or "·", style="cyan") for v in self.values]
        grid.add_row(Text(""), *bars)
        outer = Table.grid()
        outer.add_row(grid)
        left = self.limit - self.total
        need = "exactly" if self.exact else "at most"
        total = Text(f"Total {self.total} / {self.limit} ({need}) — {left} left",
                     style="bold green" if left >= 0 else "bold red")
        outer.add_row(total)
        if self.active:
            outer.add_row(Text("←/→ field  ↑/↓ units  f fill  0 empty  Enter submit",
                               style="dim"))
        if self.problem:
            outer.add_row(Text(self.problem, style="bold red"))
        if self.status:
            outer.add_row(Text(self.status, style="italic"))
        return outer


def even_split(units: int, fields: int) -> list[int]:
    """Units spread as evenly as possible, the remainder on the first fields."""
    if fields <= 0:
        return []
    base, extra = divmod(units, fields)
    return [base + (1 if i < extra else 0) for i in range(fields)]
