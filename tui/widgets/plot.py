"""A terminal plot (textual-plotext) that says so in a line, rather than draw a smudge, when
there is nothing to plot or too little room for it (a small terminal)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual_plotext import PlotextPlot

MIN_WIDTH, MIN_HEIGHT = 30, 6  # cells under which a plot reads as noise


class TerminalPlot(PlotextPlot):
    """Subclasses draw on `self.plt` in `draw()`, after `clear()`; `empty` is what shows
    while there is nothing to draw."""

    empty = "Nothing to plot."
    _nothing = True

    def clear(self, nothing: bool) -> None:
        """Start a new picture (the last is forgotten); `nothing`: there is nothing to draw."""
        self.plt.clear_figure()
        self._nothing = nothing
        self.set_class(nothing, "-empty")  # a line saying so, not a plot's height of blank

    def render(self) -> RenderableType:
        if self._nothing:
            return Text(self.empty, style="italic")
        width, height = self.size
        if width < MIN_WIDTH or height < MIN_HEIGHT:
            return Text(f"The plot needs {MIN_WIDTH}x{MIN_HEIGHT} cells: a larger terminal "
                        f"shows it; the figures are in the table.", style="dim")
        return super().render()
