"""Study mode in the TUI at 80x24: the consent text before the first game, Decline then Agree,
and the form's checks, against a real server running a study."""

from __future__ import annotations

import asyncio
import sqlite3

from server.store.study import parse_study
from tests.tui.helpers import on_screen, wait_for, wait_for_footer, wait_for_text
from tui.app import ParlorApp

STUDY = """+++
name = "pilot"
[[form]]
id = "age"
label = "Your age"
type = "number"
min = 18
max = 99
required = true
[[form]]
id = "games"
label = "Games you play"
type = "text"
max_chars = 40
+++
# Taking part in Parlor

We keep your **moves** and how long you think.
"""


async def test_consent_screen_decline_then_agree_with_the_form(server_db):
    from server.net.embedded import start_embedded

    server_db.parent.mkdir(parents=True, exist_ok=True)
    study = parse_study(STUDY)
    server = await asyncio.to_thread(start_embedded, str(server_db), study=study)
    try:
        app = ParlorApp(server.url, "ada", server_key="consent")
        async with app.run_test(size=(80, 24)) as pilot:
            await on_screen(pilot, app, "consent")
            await wait_for_text(pilot, "Study: pilot", "Taking part in Parlor",
                                "how long you think")
            await wait_for_footer(pilot, app, "Decline")
            await pilot.press("d")
            await wait_for_text(pilot, "cannot play in this study")
            assert app.session.study["status"] == "declined"
            await pilot.press("a")  # read it again
            await wait_for_footer(pilot, app, "Agree")
            await pilot.press("a")  # agree: the form
            await wait_for_text(pilot, "Your age *", "Games you play")
            await pilot.press("ctrl+s")
            await wait_for_text(pilot, "Your age: an answer is required")
            await pilot.press(*"12")
            await pilot.press("ctrl+s")
            await wait_for_text(pilot, "Your age: a number from 18 to 99")
            await pilot.press("backspace", "backspace", *"34", "tab", *"chess")
            await pilot.press("ctrl+s")
            await on_screen(pilot, app, "lobby")
            assert app.session.study["status"] == "agreed"
    finally:
        await asyncio.to_thread(server.stop)
    with sqlite3.connect(server_db) as conn:
        answers = conn.execute("SELECT agreed, consent_hash, answers FROM consents ORDER BY id"
                               ).fetchall()
    assert answers == [(0, study.consent_hash, None),
                       (1, study.consent_hash, '{"age": 34, "games": "chess"}')]


async def test_someone_who_agreed_goes_straight_to_the_lobby(server_db):
    from server.net.embedded import start_embedded

    server_db.parent.mkdir(parents=True, exist_ok=True)
    server = await asyncio.to_thread(start_embedded, str(server_db),
                                     study=parse_study(STUDY.replace("required = true", "")))
    try:
        first = ParlorApp(server.url, "bea", server_key="consent-again")
        async with first.run_test(size=(80, 24)) as pilot:
            await on_screen(pilot, first, "consent")
            await wait_for_footer(pilot, first, "Agree")
            await pilot.press("a")
            await wait_for_text(pilot, "Your age")
            await pilot.press("ctrl+s")  # nothing required: no answers is fine
            await on_screen(pilot, first, "lobby")
        again = ParlorApp(server.url, "bea", server_key="consent-again")
        async with again.run_test(size=(80, 24)) as pilot:
            await on_screen(pilot, again, "lobby")
            await wait_for(pilot, lambda: not again.session.consent_needed, "agreed")
    finally:
        await asyncio.to_thread(server.stop)
