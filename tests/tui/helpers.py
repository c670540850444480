"""Helpers for TUI tests: read the screen as text, wait for a condition, drive the app.

Keys go to whatever has the focus when they arrive, and the TUI builds a screen, or the inputs
for a turn, a moment after the app switched to it or the turn came. So a test waits with
`on_screen` or `our_turn` before it presses keys, never just on `app.screen.KIND` or
`session.awaiting_us` (keys pressed in between are lost, more often on a loaded machine)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Footer

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


async def wait_for_text(pilot: Pilot, *needles: str) -> str:
    """The screen's text once it shows all of `needles` (widgets are drawn one by one: one
    needle on the screen says nothing of another widget's)."""
    shown = ""

    def showing_all() -> bool:
        nonlocal shown
        shown = screen_text(pilot.app)
        return all(needle in shown for needle in needles)

    await wait_for(pilot, showing_all, ", ".join(map(repr, needles)))
    return shown


def footer(app: App) -> str:
    """The screen's last line (or two, when its keys need them): the footer, with the keys
    that work now."""
    lines = [line for line in screen_text(app).splitlines() if line.strip()]
    found = app.screen.query(Footer)
    rows = max(found.first().size.height, 1) if found else 1
    return " ".join(lines[-rows:]) if lines else ""


async def wait_for_footer(pilot: Pilot, app: App, key: str) -> str:
    """The footer once it lists `key`. It is drawn (all its keys at once) a moment after the
    screen, and again after the focus moves: the focused widget's keys come with it."""
    await wait_for(pilot, lambda: key in footer(app), f"the footer listing {key!r}")
    return footer(app)


def showing(app: App, kind: str) -> bool:
    """`app` shows the `kind` screen, mounted. Textual marks a screen mounted once its on_mount
    has run, behind the focus that asked for: keys pressed from then on reach the screen."""
    return getattr(app.screen, "KIND", "") == kind and app.screen.is_mounted


async def on_screen(pilot: Pilot, app: App, kind: str) -> None:
    await wait_for(pilot, lambda: showing(app, kind), f"the {kind} screen")


def _our_turn_ready(app: Any) -> bool:
    s = app.session
    return s.awaiting_us and showing(app, "game") and app.screen.ready_for(s.turn["turn"])


async def our_turn(pilot: Pilot, app: Any) -> dict[str, Any]:
    """Wait until the server waits for our decision and the game screen's inputs for it are
    built and focused; the turn (its your_turn message)."""
    await wait_for(pilot, lambda: _our_turn_ready(app), "our turn, its inputs ready")
    return app.session.turn


async def our_turn_or_end(pilot: Pilot, app: Any) -> dict[str, Any] | None:
    """`our_turn`, or None when the game ends first."""
    await wait_for(pilot, lambda: app.session.game_over is not None or _our_turn_ready(app),
                   "our turn (its inputs ready) or the end")
    return None if app.session.game_over is not None else app.session.turn


async def answered(pilot: Pilot, app: Any, turn: dict[str, Any]) -> None:
    """Wait until our answer to `turn` went out (or a later turn came, or the game ended)."""
    s = app.session
    await wait_for(pilot, lambda: s.game_over is not None or not s.awaiting_us
                   or s.turn["turn"] != turn["turn"], "our answer to be sent")


async def answer(pilot: Pilot, app: Any, *keys: str) -> dict[str, Any]:
    """On our next turn, press `keys` and wait until the answer went out; the turn answered."""
    turn = await our_turn(pilot, app)
    await pilot.press(*keys)
    await answered(pilot, app, turn)
    return turn


async def answer_until_the_end(pilot: Pilot, app: Any, *keys: str) -> int:
    """Press `keys` on each of our turns until the game ends; how many turns we answered."""
    answers = 0
    while (turn := await our_turn_or_end(pilot, app)) is not None:
        await pilot.press(*keys)
        await answered(pilot, app, turn)
        answers += 1
    return answers


async def watch(app: App, pilot: Pilot, table_id: str) -> None:
    """From the lobby, spectate `table_id` and wait for its game screen."""
    await on_screen(pilot, app, "lobby")
    app.session.watching = table_id  # type: ignore[attr-defined]
    app.client.send("spectate", table_id=table_id)  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: showing(app, "game") and app.session.view,  # type: ignore[attr-defined]
                   "the game, watched")
