"""The lobby shows what a real embedded server hosts."""

from __future__ import annotations

from tests.tui.helpers import screen_text, wait_for, wait_for_text
from tui.app import ParlorApp


async def test_lobby_lists_the_servers_envs(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.screen.KIND == "lobby", "the lobby")
        text = await wait_for_text(pilot, "Colonel Blotto")
        envs = app.session.envs
        assert {e["id"] for e in envs} >= {"colonel-blotto"}
        for env in envs:  # every env with its one-line description
            assert env["title"] in text
            assert env["description"][:30] in text.replace("\n", " ").replace("│", " ") or \
                env["description"].split()[0] in text
        assert "tester" in text  # the name we connected with
        # The leaderboard opens from the lobby with a key and returns with Escape.
        await pilot.press("l")
        await wait_for(pilot, lambda: app.screen.KIND == "leaderboard", "the leaderboard")
        await wait_for_text(pilot, "Leaderboard")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.KIND == "lobby", "back to the lobby")
        assert "New table" in screen_text(app)  # keys are listed in the footer
