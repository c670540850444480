"""The transcript of a replay up to the frame on screen: every line the perspective saw by
then, newest at the bottom (the omniscient perspective's private lines come marked "[to NAME]"
by the server)."""

from __future__ import annotations

from rich.text import Text

from tui.widgets.wrap_log import WrapLog

MAX_LINES = 3_000


class ReplayLines(WrapLog):
    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, max_lines=MAX_LINES)
        self._shown: list[str] = []
        self._complete = False  # what is shown has every line up to its frame

    @property
    def shown(self) -> list[str]:
        """Every line written (the log itself keeps only MAX_LINES)."""
        return list(self._shown)

    def show(self, lines: list[str], complete: bool) -> None:
        """`complete`: the lines reach back to the setup (else a note says earlier ones are
        not shown: the server sends the last few hundred before a frame)."""
        if complete and self._complete and lines[: len(self._shown)] == self._shown:
            for line in lines[len(self._shown):]:  # stepping forward: only the new lines
                self._write(line)
        else:
            self.clear()
            if not complete:
                self.write(Text("… earlier lines: jump back to read them", style="italic"))
            for line in lines:
                self._write(line)
        self._shown, self._complete = list(lines), complete
        self.scroll_end(animate=False)

    def _write(self, line: str) -> None:
        self.write(Text(line, style="italic") if line.startswith("[to ") else line)
