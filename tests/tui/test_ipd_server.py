"""A whole three-player IPD game in the TUI against two server bots, with keys only."""

from __future__ import annotations

from tests.tui.helpers import wait_for, wait_for_text
from tui.app import ParlorApp


async def test_full_ipd_game_against_two_bots(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for(pilot, lambda: app.screen.KIND == "lobby", "the lobby")
        ids = [e["id"] for e in app.session.envs]
        await pilot.press(*["down"] * ids.index("three-player-ipd"), "n")
        await wait_for_text(pilot, "New table: Three-player")
        await pilot.press("ctrl+s")  # default preset; you in seat 0, bots in seats 1 and 2
        await wait_for(pilot, lambda: app.screen.KIND == "game", "the game screen")
        assert [s["kind"] for s in app.session.table["seats"]] == ["human", "bot", "bot"]
        chats = decisions = 0
        while app.screen.KIND == "game":
            await wait_for(pilot, lambda: app.session.awaiting_us or app.session.game_over,
                           "our turn or the end")
            if app.session.game_over:
                break
            turn = app.session.turn["turn"]
            if app.session.legal["kind"] == "text":
                chats += 1
                await pilot.press(*f"hello {chats}", "enter")
            else:
                decisions += 1
                await pilot.press("d", "enter")  # defect on the first opponent
            await wait_for(pilot, lambda t=turn: app.session.game_over or not
                           app.session.awaiting_us or app.session.turn["turn"] != t,
                           "the server to take our move")
        await wait_for(pilot, lambda: app.screen.KIND == "result", "the result screen")
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
