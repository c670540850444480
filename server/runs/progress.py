"""A live progress line for long runs (`parlor sim`, campaigns): games done/total, games/s,
actions/s, ETA, and what a campaign adds (its spend and errors).

On a terminal the line is redrawn in place at most ~4 times a second; anywhere else (CI logs,
pipes) a plain line is printed at most every ~5 s, so logs stay readable. A final line ends it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TextIO

TTY_EVERY = 0.25  # seconds between redraws on a terminal
LOG_EVERY = 5.0  # seconds between lines when the stream is not a terminal


class Progress:
    """`counts()` returns (games done, actions so far); `run()` draws until cancelled, or call
    `draw()` every `every` seconds."""

    def __init__(self, label: str, total: int, counts: Callable[[], tuple[int, int]],
                 stream: TextIO, *, clock: Callable[[], float] = time.monotonic,
                 extra: Callable[[], str] | None = None) -> None:
        self.label = label
        self.total = total
        self.counts = counts
        self.stream = stream
        self.clock = clock
        self.extra = extra  # what the line ends with (a campaign's spend and errors)
        self.started = clock()
        self.tty = stream.isatty()

    @property
    def every(self) -> float:
        """Seconds between lines (redraws on a terminal)."""
        return TTY_EVERY if self.tty else LOG_EVERY

    async def run(self) -> None:
        every = self.every
        while True:
            await asyncio.sleep(every)
            self.draw()

    def draw(self) -> None:
        """One line now (`run` calls it; so does a caller that keeps its own time)."""
        self._write(self.line())

    def finish(self) -> None:
        """The last line, with the elapsed time instead of an ETA."""
        self._write(self.line(final=True), end=True)

    def line(self, final: bool = False) -> str:
        done, actions = self.counts()
        elapsed = max(self.clock() - self.started, 1e-9)
        rate = done / elapsed
        head = f"{self.label}: {done}/{self.total} games"
        tail = f", {self.extra()}" if self.extra is not None else ""
        if final:
            return (f"{head} in {_duration(elapsed)}, {rate:,.1f} games/s, "
                    f"{actions / elapsed:,.0f} actions/s{tail}")
        eta = _duration((self.total - done) / rate) if done else "?"
        return (f"{head}, {rate:,.1f} games/s, {actions / elapsed:,.0f} actions/s, "
                f"ETA {eta}{tail}")

    def _write(self, line: str, end: bool = False) -> None:
        if self.tty:  # redraw in place; clear what a longer line left behind
            self.stream.write(f"\r{line}\x1b[K" + ("\n" if end else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


@asynccontextmanager
async def drawn(progress: Progress | None) -> AsyncIterator[None]:
    """Draw `progress` (None: nothing) while the block runs, and its final line after it, after
    ctrl-c too: how far it got."""
    drawing = asyncio.create_task(progress.run()) if progress is not None else None
    try:
        yield
    finally:
        if drawing is not None:
            drawing.cancel()
        if progress is not None:
            progress.finish()


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"
