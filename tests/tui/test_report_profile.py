"""The report and profile screens as a person reaches and reads them, at 80x24 and 140x45,
against a real server on 127.0.0.1: the profile after a real game, the report from a canned
builder (what `parlor report`'s computation hands the server has its own tests) with its pool
and rows switched by keys."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.helpers import on_screen, screen_text, wait_for, wait_for_text
from tests.tui.test_result_screen import play_blotto
from tui.app import ParlorApp

SIZES = [(80, 24), (140, 45)]
PAGES = 4  # pages down a screen is read to its end at most


def canned_report(conn: Any, env: str, pool: str | None, by: str | None) -> dict[str, Any]:
    """A report as the builder gives it, saying what it was asked for."""
    people = {"who": "people", "group": "people", "games": 12, "value": 0.5, "low": 0.25,
              "high": 0.75, "test": None, "warning": None}
    bot = {"who": "scripted:adaptive" if by != "kind" else "scripted bots", "group": "bot",
           "games": 3, "value": 0.9, "low": 0.6, "high": 0.98,
           "test": {"name": "Fisher's exact; effect: odds ratio", "p_value": 0.0421,
                    "effect": 0.11}, "warning": "under 10 games a side: too few to say anything"}
    paper = {"who": "GPT-4o (paper)", "group": "paper", "games": 0, "value": 0.62, "low": None,
             "high": None, "test": None, "warning": None}
    return {"env": env, "title": "Colonel Blotto",
            "pooled": f"15 finished games of small (config abc, rules v1), pool {pool or 'all'}",
            "left_out": ["2 void"],
            "sections": [{"metric": "win", "label": "Won", "kind": "rate", "role": None,
                          "rows": [people, bot, paper]},
                         {"metric": "rounds_won", "label": "Rounds won", "kind": "mean",
                          "role": None, "rows": [{**people, "value": 2.5, "low": 2.0,
                                                  "high": 3.0}]}],
            "notes": ["Paper rows: a canned table"]}


@contextlib.asynccontextmanager
async def embedded_with(server_db: Path, reports: Any) -> AsyncIterator[Any]:
    """The embedded server, computing reports with `reports`."""
    from server.net.embedded import start_embedded

    server_db.parent.mkdir(parents=True, exist_ok=True)
    server = await asyncio.to_thread(start_embedded, str(server_db), client_seeds=True,
                                     reports=reports)
    try:
        yield server
    finally:
        await asyncio.to_thread(server.stop)


@pytest.fixture
async def reporting(server_db: Path) -> AsyncIterator[Any]:
    """The embedded server, computing reports with `canned_report`."""
    async with embedded_with(server_db, canned_report) as server:
        yield server


async def page_to(pilot: Pilot, *needles: str) -> str:
    """Page down (a small terminal scrolls) until the screen shows all of `needles`."""
    for _ in range(PAGES):
        if all(needle in screen_text(pilot.app) for needle in needles):
            break
        await pilot.press("pagedown")
        await pilot.pause(0.1)
    return await wait_for_text(pilot, *needles)


def _line(text: str, needle: str) -> str:
    return next(line for line in text.splitlines() if needle in line)


@pytest.mark.parametrize("size", SIZES)
async def test_after_a_game_the_profile_shows_it_from_the_result_lobby_and_leaderboard(
        embedded, size):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=size) as pilot:
        await play_blotto(app, pilot)
        over = app.session.game_over
        outcome = over["outcomes"]["0"]
        after = over["rating_changes"]["0"]["after"]
        rating = f"{after['mu'] - 3 * after['sigma']:.1f}"
        await pilot.press("p")
        await on_screen(pilot, app, "profile")
        text = await wait_for_text(pilot, "Profile — tester (you)", "1 game played")
        cells = _line(text, "people, provisional").split("Colonel Blotto")[1].split()
        # games, won, drawn, lost, then the rating (μ − 3σ) and its pool
        assert cells == ["1", str(int(outcome == "win")), str(int(outcome == "draw")),
                         str(int(outcome == "loss")), rating, "people,", "provisional"]
        assert "Rating in      ‹ Colonel Blotto (TrueSkill) ›" in text
        await page_to(pilot, "rated games, oldest first")  # the plot's axis
        await page_to(pilot, "Rounds won")  # our own metrics, in words
        text = await page_to(pilot, "Recent games", over["table_id"])
        recent = _line(text, over["table_id"])
        assert {"win": "won", "loss": "lost", "draw": "drawn"}[outcome] in recent
        await pilot.press("escape")
        await on_screen(pilot, app, "result")
        await pilot.press("enter")
        await on_screen(pilot, app, "lobby")
        await pilot.press("p")  # from the lobby: our own again
        await on_screen(pilot, app, "profile")
        await wait_for_text(pilot, "Profile — tester (you)", "1 game played")
        await pilot.press("escape")
        await on_screen(pilot, app, "lobby")
        # From the leaderboard: the highlighted row's player, here the bot we played.
        ids = [e["id"] for e in app.session.envs]
        await pilot.press(*["down"] * ids.index("colonel-blotto"), "l")
        await on_screen(pilot, app, "leaderboard")
        await wait_for(pilot, lambda: app.session.leaderboards.get("colonel-blotto"),
                       "the leaderboard's rows")
        rows = app.session.leaderboards["colonel-blotto"]
        other = next(i for i, r in enumerate(rows) if r["identity"] == "random")
        await pilot.press(*["down"] * other, "p")
        await on_screen(pilot, app, "profile")
        text = await wait_for_text(pilot, "Profile — random", "As the leaderboards show them")
        assert "Recent games" not in text and "(you)" not in text


@pytest.mark.parametrize("size", SIZES)
async def test_the_report_screen_shows_each_metric_its_test_and_plot_and_switches_pool(
        reporting, size):
    app = ParlorApp(reporting.url, "tester")
    async with app.run_test(size=size) as pilot:
        await on_screen(pilot, app, "lobby")
        ids = [e["id"] for e in app.session.envs]
        await pilot.press(*["down"] * ids.index("colonel-blotto"), "c")
        await on_screen(pilot, app, "report")
        text = await wait_for_text(pilot, "Report — Colonel Blotto", "pool all", "Won",
                                   "scripted:adaptive", "GPT-4o (paper)")
        row = _line(text, "scripted:adaptive")
        assert "90.0%" in row and "60.0% – 98.0%" in row and "p 0.042" in row and "⚠" in row
        assert "50.0%" in _line(text, "pooled") and "Left out: 2 void" in text
        await pilot.press("down")  # the bot's row in full: its test and the warning
        text = await wait_for_text(pilot, "▸ scripted:adaptive")
        flat = " ".join(text.split())
        assert "Fisher's exact" in flat and "too few to say anything" in flat
        await page_to(pilot, "Won: value and 95% interval")
        # Nobody has played here: the rating plot says so, and the notes follow.
        await page_to(pilot, "No rated games yet", "Paper rows: a canned table")
        await pilot.press("p")  # the pool: people only
        text = await wait_for_text(pilot, "games of people only", "pool people")
        await pilot.press("b")  # rows per kind of player
        text = await wait_for_text(pilot, "one row per kind of player", "scripted bots")
        assert app.session.reports.keys() >= {("colonel-blotto", None, None),
                                              ("colonel-blotto", "people", None),
                                              ("colonel-blotto", "people", "kind")}
        await pilot.press("right")  # the next metric, a mean
        text = await wait_for_text(pilot, "Rounds won", "2.5")
        assert "2 – 3" in _line(text, "pooled")
        await pilot.press("escape")
        await on_screen(pilot, app, "lobby")
        await pilot.press("l")  # the leaderboard reaches it too
        await on_screen(pilot, app, "leaderboard")
        await pilot.press("c")
        await on_screen(pilot, app, "report")
        await wait_for_text(pilot, "Report — Colonel Blotto")


async def test_a_server_without_reports_says_why_on_the_report_screen(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "lobby")
        await pilot.press("c")
        await on_screen(pilot, app, "report")
        text = await wait_for_text(pilot, "No report:", "without reports")
        assert "Traceback" not in screen_text(app) and text


@pytest.fixture
async def real_reports(server_db: Path) -> AsyncIterator[Any]:
    """The embedded server as `parlor` starts it: reports from the stored games."""
    from server.reports.report_reply import build

    async with embedded_with(server_db, build) as server:
        yield server


async def test_after_a_game_the_report_puts_the_person_beside_the_bot(real_reports):
    """The report of the game just played, computed from the store: people pooled, the
    person by pseudonym, the bot, and last the pool's fitted ratings."""
    app = ParlorApp(real_reports.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_blotto(app, pilot)
        await pilot.press("enter")
        await on_screen(pilot, app, "lobby")
        ids = [e["id"] for e in app.session.envs]
        await pilot.press(*["down"] * ids.index("colonel-blotto"), "c")
        await on_screen(pilot, app, "report")
        text = await wait_for_text(pilot, "Report — Colonel Blotto", "1 finished game of", "p-",
                                   "random")
        assert "tester" not in _line(text, "p-")  # the person by pseudonym, not by name
        for _ in range(6):  # the metrics, one at a time, then the fitted ratings
            if "Fitted rating" in screen_text(app):
                break
            await pilot.press("right")
            await pilot.pause(0.1)
        text = await wait_for_text(pilot, "Fitted rating, all pool (1 game)")
        assert "random" in text and "p-" in text
