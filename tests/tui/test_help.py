"""Help (? or F1): the keys of the screen it was opened from and the rules of the game, in a
scrollable window that Escape, q or ? close."""

from __future__ import annotations

import re

from tests.tui.fake_server import FakeServer, serve_fake
from tests.tui.helpers import on_screen, screen_text, showing, wait_for, wait_for_text
from tests.tui.test_result_screen import play_blotto
from tui.app import ParlorApp
from tui.screens.help import HelpScreen, open_help

RULES = """# Colonel Blotto, briefly

Each round both commanders split their **units** over the fields at once.

- Most units on a field take it.
- Most fields take the round.
"""


class RulesServer(FakeServer):
    """The fake server, with rules of our own for Blotto and none at all for the IPD."""

    async def send(self, msg):
        if msg.get("type") == "welcome":
            for env in msg["envs"]:
                env.pop("help", None)
                if env["id"] == "colonel-blotto":
                    env["help"] = RULES
        await super().send(msg)


def help_open(app: ParlorApp) -> bool:
    """The help window is in front, mounted (its keys work)."""
    return isinstance(app.screen, HelpScreen) and app.screen.is_mounted


def shown(app: ParlorApp, kind: str) -> bool:
    """`kind` is the screen in front (help reports the KIND of the screen under it)."""
    return not isinstance(app.screen, HelpScreen) and showing(app, kind)


async def test_help_on_the_result_screen_lists_its_keys_and_the_rules():
    fake = RulesServer()
    async with serve_fake(fake):
        app = ParlorApp(fake.url, "ada")
        async with app.run_test(size=(80, 24)) as pilot:
            await play_blotto(app, pilot)
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: help_open(app), "the help window")
            text = await wait_for_text(pilot, "Help — Game over")
            assert "Back to lobby" in text and "Leaderboard" in text
            assert "⏎/esc" in text and "?/f1" in text  # each key with what it does
            for _ in range(4):
                if "Most fields take the round." in screen_text(app):
                    break
                await pilot.press("pagedown")
            text = await wait_for_text(pilot, "Most fields take the round.")
            assert "Colonel Blotto, briefly" in text and "**" not in text  # markdown, rendered
            await pilot.press("q")
            await wait_for(pilot, lambda: shown(app, "result"), "the result again")
            await pilot.press("f1")
            await wait_for(pilot, lambda: help_open(app), "help by F1")
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: shown(app, "result"), "closed by ?")


async def test_help_for_a_game_without_rules_says_so_and_help_works_from_the_lobby():
    fake = RulesServer()
    async with serve_fake(fake):
        app = ParlorApp(fake.url, "ada")
        async with app.run_test(size=(140, 45)) as pilot:
            await on_screen(pilot, app, "lobby")
            open_help(app.screen, "three-player-ipd")  # what the lobby's ? will call
            text = await wait_for_text(pilot, "Help — Lobby")
            assert "New table" in text and "Leaderboard" in text and "Refresh" in text
            assert "How to play Three-player Iterated Prisoner's Dilemma" in text
            assert "Three players chat, then each chooses" in text
            assert "This server sends no full rules for this game." in text
            assert "Focus Next" not in text  # Textual's own defaults are not Parlor's keys
            await pilot.press("escape")
            await wait_for(pilot, lambda: shown(app, "lobby"), "the lobby again")


async def test_f1_opens_help_on_the_new_table_form_while_typing_a_spec(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "lobby")
        await pilot.press("n")
        await on_screen(pilot, app, "create")
        env = app.screen.env
        await pilot.press("down", "down", "down")  # players, seat 0, seat 1
        for _ in range(12):
            if "‹ typed spec" in screen_text(app):
                break
            await pilot.press("right")
        await pilot.press("down", *"openai:x?")  # in the spec line, ? is just a character
        assert not help_open(app) and app.screen.rows[1].typed == "openai:x?"
        await pilot.press("f1")
        await wait_for(pilot, lambda: help_open(app), "help by F1")
        text = await wait_for_text(pilot, "Help — New table")
        for key in ("Move seat", "Move between rows", "Create", "Cancel"):
            assert key in text
        rules = env.get("help") or env["description"]
        first = next(line for line in rules.splitlines() if line and not line.startswith("#"))
        words = " ".join(re.sub(r"[*_`]", "", first).split()[:2])  # as rendered, not marked up
        for _ in range(6):
            if words in screen_text(app):
                break
            await pilot.press("pagedown")
        assert words in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: shown(app, "create"), "the form again")
        assert app.screen.rows[1].typed == "openai:x?"  # nothing typed was lost


async def test_the_screen_under_help_keeps_up_with_the_server(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "lobby")
        lobby = app.screen
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: help_open(app), "the help window")
        app.client.send("create_table", env="colonel-blotto", seats=["human", "human"])
        app.client.send("list_tables")
        grid = lobby.query_one("#table-list")
        await wait_for(pilot, lambda: grid.row_count == 1, "the new table in the lobby")
        assert help_open(app) and app.screen.KIND == "lobby"  # the router saw the lobby
        await pilot.press("escape")
        await wait_for(pilot, lambda: shown(app, "lobby"), "the lobby again")
        assert app.screen is lobby
