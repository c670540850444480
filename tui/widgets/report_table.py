"""One metric of a report as a table: each row's games, value and 95% interval, and for each
model or bot the test against people pooled (p value, effect) with its small-sample warning."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import DataTable

COLUMNS = ("Who", "Kind", "Games", "Value", "95% interval", "Against people")
KINDS = {"people": "pooled", "person": "person", "model": "model", "bot": "bot",
         "paper": "paper"}
WHO_ROOM = 24  # characters of a name in the table (the detail line has it whole)


def figure(value: Any, kind: str) -> str:
    """A value as a person reads it: a share in percent for rates, else 3 figures."""
    if not isinstance(value, int | float):
        return "—"
    return f"{value:.1%}" if kind == "rate" else f"{value:.3g}"


def interval(row: dict[str, Any], kind: str) -> str:
    low, high = row.get("low"), row.get("high")
    if not isinstance(low, int | float) or not isinstance(high, int | float):
        return "—"
    return f"{figure(low, kind)} – {figure(high, kind)}"


def test_text(row: dict[str, Any]) -> str:
    """The test of a row against people, short: "p 0.031, effect 2.1"."""
    test = row.get("test")
    if not isinstance(test, dict):
        return ""
    p = test.get("p_value")
    parts = [f"p {p:.2g}" if isinstance(p, int | float) else "p —"]
    if isinstance(test.get("effect"), int | float):
        parts.append(f"effect {test['effect']:.2g}")
    return ", ".join(parts)


class ReportTable(DataTable):
    """`show(section)`: the rows of one section of a `report` reply."""

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = True
        self.add_columns(*COLUMNS)

    def show(self, section: dict[str, Any] | None) -> None:
        keep = self.cursor_row
        self.clear()
        kind = (section or {}).get("kind", "rate")
        for row in (section or {}).get("rows") or []:
            who = str(row.get("who", "?"))
            games = row.get("games") if row.get("group") != "paper" else "—"
            against = Text("⚠ " if row.get("warning") else "", style="bold yellow")
            against.append(test_text(row), style="")
            self.add_row(who if len(who) <= WHO_ROOM else who[:WHO_ROOM - 1] + "…",
                         KINDS.get(str(row.get("group")), str(row.get("group"))),
                         str(games), figure(row.get("value"), kind), interval(row, kind),
                         against)
        if self.row_count:
            self.move_cursor(row=min(keep, self.row_count - 1))
