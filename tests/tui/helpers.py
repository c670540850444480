"""Helpers for TUI tests: read the screen as text, wait for a condition, drive the app."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from textual.app import App
from textual.pilot import Pilot

# Terminal cells only (the window title of the screenshot has no clip-path).
_TEXT = re.compile(r'<text[^>]*?x="([\d.]+)" y="([\d.]+)"[^>]*clip-path[^>]*>([^<]*)</text>')
DEADLINE_STEPS = 600  # polls of 0.05 s: a generous cap that only bounds a hung test


def screen_text(app: App) -> str:
    """What a person would read on the screen, line by line (from Textual's SVG screenshot)."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for x, y, chunk in _TEXT.findall(app.export_screenshot()):
        rows.setdefault(float(y), []).append((float(x), html.unescape(chunk).replace("\xa0", " ")))
    return "\n".join("".join(c for _, c in sorted(parts)) for _, parts in sorted(rows.items()))


async def wait_for(pilot: Pilot, condition: Callable[[], bool], what: str) -> None:
    for _ in range(DEADLINE_STEPS):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out waiting for {what}; screen:\n{screen_text(pilot.app)}")


async def wait_for_text(pilot: Pilot, needle: str) -> str:
    await wait_for(pilot, lambda: needle in screen_text(pilot.app), repr(needle))
    return screen_text(pilot.app)


async def watch(app: App, pilot: Pilot, table_id: str) -> None:
    """From the lobby, spectate `table_id` and wait for its game screen."""
    await wait_for(pilot, lambda: app.screen.KIND == "lobby", "the lobby")
    app.session.watching = table_id  # type: ignore[attr-defined]
    app.client.send("spectate", table_id=table_id)  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: app.screen.KIND == "game" and app.session.view,
                   "the game, watched")
