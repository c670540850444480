"""A whole three-player IPD game in the TUI against two server bots, with keys only."""

from __future__ import annotations

from textual.widgets import Input

from tests.tui.helpers import (
    answered,
    on_screen,
    our_turn,
    our_turn_or_end,
    wait_for,
    wait_for_text,
)
from tui.app import ParlorApp


async def test_full_ipd_game_against_two_bots(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 45)) as pilot:
        await on_screen(pilot, app, "lobby")
        ids = [e["id"] for e in app.session.envs]
        await pilot.press(*["down"] * ids.index("three-player-ipd"), "n")
        await wait_for_text(pilot, "New table: Three-player")
        await pilot.press("ctrl+s")  # default preset; you in seat 0, bots in seats 1 and 2
        await on_screen(pilot, app, "game")
        assert [s["kind"] for s in app.session.table["seats"]] == ["human", "bot", "bot"]
        chats = decisions = 0
        while (turn := await our_turn_or_end(pilot, app)) is not None:
            if turn["legal"]["kind"] == "text":
                chats += 1
                await pilot.press(*f"hello {chats}", "enter")
            else:
                decisions += 1
                await pilot.press("d", "enter")  # defect on the first opponent
            await answered(pilot, app, turn)
        await on_screen(pilot, app, "result")
        text = await wait_for_text(pilot, "Rewards")
        over = app.session.game_over
        assert set(over["result"]["rewards"]) == {"0", "1", "2"}
        rounds = app.session.view["public"]["rounds"]
        assert chats == decisions == rounds
        chat = app.session.view["public"]["chat"]
        assert [c["text"] for c in chat if c["seat"] == 0] == [f"hello {i + 1}"
                                                              for i in range(rounds)]
        history = app.session.view["public"]["history"]
        assert all(h["decisions"]["0"]["1"] == "defect" for h in history)
        row = next(line for line in text.splitlines() if "(you)" in line)
        assert f"{over['result']['rewards']['0']:+g}" in row  # our reward, read off the screen


async def test_leave_game_works_while_the_chat_line_has_focus(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 45)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="three-player-ipd", seats=["human", "random", "random"],
                        join_seat=0, seed=5)
        assert (await our_turn(pilot, app))["legal"]["kind"] == "text"  # the chat comes first
        assert isinstance(app.focused, Input)  # the chat line
        text = await wait_for_text(pilot, "^l Leave game")  # the footer names the key
        assert "^x" not in text
        await pilot.press(*"half a thou")
        await pilot.press("ctrl+x")  # the chat line's own key (cut) stays the chat line's
        assert app.screen.KIND == "game" and app.focused.value == "half a thou"
        table_id = app.session.table["id"]
        await pilot.press("ctrl+l")  # asks first: leaving a started game is resigning it
        await on_screen(pilot, app, "confirm")
        await pilot.press("n")
        await on_screen(pilot, app, "game")
        assert app.focused.value == "half a thou"
        await pilot.press("ctrl+l")
        await on_screen(pilot, app, "confirm")
        await pilot.press("y")
        await on_screen(pilot, app, "result")
        await pilot.press("enter")
        await on_screen(pilot, app, "lobby")
        assert app.session.table is None
        app.client.send("list_tables")
        await wait_for(pilot, lambda: any(t["id"] == table_id for t in app.session.tables),
                       "the table list")
        await pilot.pause(0.2)  # the server still tells us of the seat it keeps for us: no return
        assert app.screen.KIND == "lobby" and app.session.table is None
