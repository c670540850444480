"""A person seats an LLM bot by typing its spec, and plays it to the end (fake provider)."""

from __future__ import annotations

from tests.fakes import FakeOpenAI
from tests.fakes.seating import FAST, example_responder
from tests.tui.helpers import (
    answer_until_the_end,
    on_screen,
    screen_text,
    wait_for,
    wait_for_text,
)
from tui.app import ParlorApp


async def test_typed_llm_spec_takes_a_seat_and_the_game_finishes(embedded):
    with FakeOpenAI(responder=example_responder) as fake:
        spec = f"openai-compatible:fake-model@{fake.base_url}?{FAST}"
        app = ParlorApp(embedded.url, "tester")
        async with app.run_test(size=(120, 40)) as pilot:
            await on_screen(pilot, app, "lobby")
            ids = [e["id"] for e in app.session.envs]
            await pilot.press(*["down"] * ids.index("colonel-blotto"), "n")
            await wait_for_text(pilot, "New table: Colonel Blotto")
            for _ in range(10):
                if "‹ small ›" in screen_text(app):
                    break
                await pilot.press("right")
            await pilot.press("down", "down", "down")  # to seat 1
            for _ in range(12):
                seat1 = next(line for line in screen_text(app).splitlines() if "Seat 1" in line)
                if "‹ typed spec" in seat1:
                    break
                await pilot.press("right")
            await pilot.press("ctrl+s")  # no spec typed yet: refused with a hint
            await wait_for_text(pilot, "Type the bot spec")
            await pilot.press("down")
            await pilot.press(*spec)
            await pilot.press("enter")
            await on_screen(pilot, app, "game")
            assert app.session.table["seats"][1]["identity"] == spec.split("?")[0]
            await answer_until_the_end(pilot, app, "enter")
            await on_screen(pilot, app, "result")
            await wait_for_text(pilot, "Rewards")
            assert not app.session.game_over["result"]["void"]
        assert len(fake.completion_requests) >= 3


async def test_keys_pressed_while_a_table_is_created_make_one_table(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await on_screen(pilot, app, "lobby")
        await pilot.press("n")
        await wait_for_text(pilot, "New table:")
        screen = app.screen
        for _ in range(3):  # keys typed ahead of the server's answer, as over a slow link
            screen.action_create()
        await on_screen(pilot, app, "game")
        await pilot.pause(0.3)
        app.client.send("list_tables")
        await wait_for(pilot, lambda: len(app.session.tables) >= 1, "the table list")
        await pilot.pause(0.3)
        assert len(app.session.tables) == 1
