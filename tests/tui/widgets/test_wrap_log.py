"""Transcript and chat text wraps to its pane and is never cut on the right: not when a scrollbar
appears, not when the terminal gets narrower (issue 9, finding 4)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical

from tests.tui.helpers import screen_text
from tui.widgets.transcript import Transcript

LINES = [f"Round {i}: root A7 B7 C6 vs scripted:adaptive A9 B7 C4 → root wins the round "
         f"(score {i}–0) end{i}" for i in range(1, 13)]


class LogHost(App):
    CSS = "Vertical { width: 50; height: 16; border: round white; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Transcript()


def _joined(app: App) -> str:
    """The screen's text with line breaks and borders removed, so wrapped lines read whole."""
    return "".join(line.strip("│╭╮╰╯─ ▁▔▎▊") for line in screen_text(app).splitlines())


async def test_lines_written_before_the_scrollbar_appears_stay_whole():
    app = LogHost()
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(Transcript)
        for line in LINES:
            log.note(line)
            await pilot.pause()
        log.scroll_home(animate=False)
        await pilot.pause()
        text = _joined(app).replace(" ", "")
        assert LINES[0].replace(" ", "") in text  # the first line, whole
        log.scroll_end(animate=False)
        await pilot.pause()
        assert "end12" in _joined(app)


async def test_a_narrower_terminal_wraps_the_lines_again():
    app = LogHost()
    app.CSS = "Vertical { width: 1fr; height: 20; border: round white; }"
    async with app.run_test(size=(120, 24)) as pilot:
        log = app.query_one(Transcript)
        for line in LINES[:3]:
            log.note(line)
        await pilot.pause()
        await pilot.resize_terminal(40, 24)
        await pilot.pause()
        await pilot.pause()
        text = _joined(app).replace(" ", "")
        for line in LINES[:3]:
            assert line.replace(" ", "") in text  # every word of every line, in order
