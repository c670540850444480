"""A rating over time: the rating (μ − 3σ; Elo: the rating) after each rated game, oldest
first, one line per series."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tui.widgets.plot import TerminalPlot

COLORS = ("cyan", "magenta", "yellow", "green", "red")
LEAGUE_NAMES = {"trueskill": "TrueSkill", "elo": "Elo"}  # a rating scheme, as people read it
MAX_TICKS = 10  # rated games labelled one by one up to this many


class RatingPlot(TerminalPlot):
    empty = "No rated games yet: no rating to plot."

    def show(self, title: str, series: Mapping[str, Sequence[float]]) -> None:
        """`series`: name -> ratings after each rated game, oldest first."""
        drawn = {name: list(points) for name, points in series.items() if points}
        self.clear(not drawn)
        plt = self.plt
        for i, (name, points) in enumerate(drawn.items()):
            color = COLORS[i % len(COLORS)]
            plt.plot(list(range(1, len(points) + 1)), points, marker="braille", color=color,
                     label=name if len(drawn) > 1 else None)
            if len(points) == 1:  # a line needs two points: mark the one
                plt.scatter([1], points, marker="●", color=color)
        if drawn:
            longest = max(len(points) for points in drawn.values())
            if longest <= MAX_TICKS:  # whole games on the axis, not 1.25
                plt.xticks(list(range(1, longest + 1)))
            if longest == 1:
                plt.xlim(0.5, 1.5)
            plt.title(title)
            plt.xlabel("rated games, oldest first")
        self.refresh()
