"""The TUI keeps the token a server gave it, so a person keeps their name across restarts, and a
name that belongs to someone else is refused with a clear message."""

from __future__ import annotations

from tests.tui.helpers import wait_for, wait_for_text
from tui.app import ParlorApp
from tui.tokens import load_token


async def test_the_name_survives_a_restart_and_cannot_be_taken(embedded):
    first = ParlorApp(embedded.url, "ada", server_key="local:test")
    async with first.run_test() as pilot:
        await wait_for(pilot, lambda: first.screen.KIND == "lobby", "the lobby")
        token = first.session.player["token"]
    assert load_token("local:test") == token

    again = ParlorApp(embedded.url, "ada", server_key="local:test")
    async with again.run_test() as pilot:
        await wait_for(pilot, lambda: again.screen.KIND == "lobby", "the lobby")
        assert again.session.player == {"id": "human:ada", "name": "ada", "token": token}

    stranger = ParlorApp(embedded.url, "ada", server_key="elsewhere")
    async with stranger.run_test() as pilot:
        await wait_for_text(pilot, "belongs to another player")
        assert stranger.screen.KIND == "connect"
