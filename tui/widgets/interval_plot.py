"""One metric of a report drawn for the eye: each row's value as a dot on its 95% interval, a
line per player or kind of player, the paper's numbers as dots without one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tui.widgets.plot import TerminalPlot

NAME_ROOM = 16  # characters of a row's name beside the plot
COLORS = {"people": "cyan", "person": "cyan", "model": "magenta", "bot": "yellow",
          "paper": "red"}


def has_figure(row: dict[str, Any]) -> bool:
    return isinstance(row.get("value"), int | float)


class IntervalPlot(TerminalPlot):
    empty = "No figures to plot for this metric."

    def show(self, title: str, kind: str, rows: Sequence[dict[str, Any]]) -> None:
        """`kind` "rate" (shares, drawn 0 to 1) or "mean"; `rows` as the report's."""
        rows = [r for r in rows if has_figure(r)]
        self.clear(not rows)
        plt = self.plt
        n = len(rows)
        for i, row in enumerate(rows):
            y = n - i  # the first row on top
            color = COLORS.get(str(row.get("group")), "white")
            low, high = row.get("low"), row.get("high")
            if has_figure({"value": low}) and has_figure({"value": high}):
                plt.plot([low, high], [y, y], marker="─", color=color)
            plt.scatter([row["value"]], [y], marker="●", color=color)
        if rows:
            plt.yticks([n - i for i in range(n)], [_clip(str(r.get("who", "?"))) for r in rows])
            plt.ylim(0.5, n + 0.5)
            if kind == "rate":
                plt.xlim(0, 1)
            plt.title(f"{title}: value and 95% interval")
        self.refresh()


def _clip(name: str) -> str:
    return name if len(name) <= NAME_ROOM else name[:NAME_ROOM - 1] + "…"
