"""The TUI keeps the token a server gave it, so a person keeps their name across restarts, and a
name that belongs to someone else is refused with a clear message."""

from __future__ import annotations

import json

from tests.tui.helpers import on_screen, wait_for_text
from tui.app import ParlorApp
from tui.tokens import load_token, token_file


async def test_the_name_survives_a_restart_and_cannot_be_taken(embedded):
    first = ParlorApp(embedded.url, "ada", server_key="local:test")
    async with first.run_test() as pilot:
        await on_screen(pilot, first, "lobby")
        token = first.session.player["token"]
    assert load_token("local:test", "ada") == token

    again = ParlorApp(embedded.url, "ada", server_key="local:test")
    async with again.run_test() as pilot:
        await on_screen(pilot, again, "lobby")
        assert again.session.player == {"id": "human:ada", "name": "ada", "token": token}

    stranger = ParlorApp(embedded.url, "ada", server_key="elsewhere")
    async with stranger.run_test() as pilot:
        await wait_for_text(pilot, "belongs to another player")
        assert stranger.screen.KIND == "connect"


async def test_two_people_on_one_machine_keep_a_name_each(embedded):
    """`--name bob` after alice played on this machine is bob, not alice (finding 1)."""
    tokens = {}
    for name in ("alice", "bob", "alice", "bob"):
        app = ParlorApp(embedded.url, name, server_key="local:shared")
        async with app.run_test() as pilot:
            await on_screen(pilot, app, "lobby")
            await wait_for_text(pilot, f"you are {name}")
            player = app.session.player
            assert player["name"] == name
            assert tokens.setdefault(name, player["token"]) == player["token"]
    assert tokens["alice"] != tokens["bob"]
    assert load_token("local:shared", "alice") == tokens["alice"]
    assert load_token("local:shared", "bob") == tokens["bob"]


async def test_a_token_file_from_before_names_were_kept_apart_still_works(embedded):
    """An old file maps the server to one token: its owner keeps the name, another name is
    not taken over by it."""
    first = ParlorApp(embedded.url, "carol", server_key="local:old")
    async with first.run_test() as pilot:
        await on_screen(pilot, first, "lobby")
        token = first.session.player["token"]
    token_file().write_text(json.dumps({"local:old": token}))  # the old shape
    dave = ParlorApp(embedded.url, "dave", server_key="local:old")
    async with dave.run_test() as pilot:
        await wait_for_text(pilot, "you are dave")
    carol = ParlorApp(embedded.url, "carol", server_key="local:old")
    async with carol.run_test() as pilot:
        await wait_for_text(pilot, "you are carol")
        assert carol.session.player["token"] == token


async def test_a_name_asked_on_screen_is_kept_for_the_session_only(embedded):
    """`parlor play --ask-name` (each browser tab of `parlor web`): the name is typed on the
    first screen; a name taken is asked again with the server's reason; no token is read from
    or written to this machine's file, where it would hand the name to whoever types it next."""
    owner = ParlorApp(embedded.url, "ada", server_key=embedded.url)
    async with owner.run_test() as pilot:
        await on_screen(pilot, owner, "lobby")
    assert load_token(embedded.url, "ada") is not None  # ada played here in a terminal before
    before = token_file().read_text()

    tab = ParlorApp(embedded.url, None)
    async with tab.run_test() as pilot:
        await on_screen(pilot, tab, "name")
        await pilot.press("enter")
        await wait_for_text(pilot, "Type a name first")
        await pilot.press(*"ada", "enter")
        await wait_for_text(pilot, "belongs to another player")
        assert tab.screen.KIND == "name"
        await pilot.press(*["backspace"] * 3, *"eve", "enter")
        await on_screen(pilot, tab, "lobby")
        await wait_for_text(pilot, "you are eve")
        assert tab.session.player["token"]
    assert token_file().read_text() == before
