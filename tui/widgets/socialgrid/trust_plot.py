"""One SocialGrid agent's trust in each other player over the votes (0 = surely an impostor,
1 = surely a crewmate), one line per rated player in that player's map colour, the meetings
along the x axis."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tui.widgets.plot import TerminalPlot

Color = str | tuple[int, int, int]


class TrustPlot(TerminalPlot):
    empty = "No vote yet: no trust to plot."

    def show(self, title: str, series: Mapping[str, Sequence[tuple[int, float]]],
             colors: Mapping[str, Color] | None = None) -> None:
        """`series`: rated player's name -> (meeting number, trust) in meeting order."""
        drawn = {name: list(points) for name, points in series.items() if points}
        self.clear(not drawn)
        plt = self.plt
        for name, points in drawn.items():
            xs, ys = [m for m, _ in points], [t for _, t in points]
            color = (colors or {}).get(name)
            plt.plot(xs, ys, marker="braille", color=color, label=name)
            plt.scatter(xs, ys, marker="●", color=color)  # each vote, also a lone one
        if drawn:
            meetings = sorted({m for points in drawn.values() for m, _ in points})
            plt.xticks(meetings)
            plt.xlim(meetings[0] - 0.5, meetings[-1] + 0.5)
            plt.ylim(0, 1)
            plt.yticks([0, 0.5, 1])
            plt.title(title)
            plt.xlabel("meeting")
        self.refresh()
