"""A whole three-player IPD game in the TUI against two server bots, with keys only."""

from __future__ import annotations

from textual.widgets import Input

from tests.tui.helpers import (
    answer,
    answered,
    footer,
    on_screen,
    our_turn,
    our_turn_or_end,
    wait_for,
    wait_for_text,
    watch,
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


async def test_after_round_one_the_panel_is_current_and_a_spectator_sees_every_score(embedded):
    """Issue 22: after round 1 a person's panel kept saying "Decision sent — waiting…" while
    others chatted; a spectator's footer offered Submit and the score table was cut."""
    from tests.server.conftest import Client

    for size in ((80, 24), (140, 45)):
        ada = await Client.connect(embedded.url, f"ada{size[0]}")
        table = (await ada.request("create_table", env="three-player-ipd",
                                   seats=["human", "human", "scripted:tit-for-tat"],
                                   join_seat=0, seed=5))["table"]
        app = ParlorApp(embedded.url, f"tester{size[0]}")
        async with app.run_test(size=size) as pilot:
            await on_screen(pilot, app, "lobby")
            app.client.send("join", table_id=table["id"])
            turn = await ada.wait_for("your_turn")
            await ada.send("act", table_id=table["id"], turn=turn["turn"], action={"text": "hi"})
            await answer(pilot, app, *"hello", "enter")
            turn = await ada.wait_for("your_turn")  # the decision: ada cooperates
            await ada.send("act", table_id=table["id"], turn=turn["turn"],
                           action="[1 cooperate] [2 cooperate]")
            await answer(pilot, app, "enter")  # so do we, and the bot: 6 points each
            # Round 2 opens with ada's chat turn, which she leaves open.
            text = await wait_for_text(pilot, "Round 2/5 — chat (turn: ada")
            assert "Decision sent" not in text
            watcher = ParlorApp(embedded.url, f"watcher{size[0]}")
            async with watcher.run_test(size=size) as seen:
                await watch(watcher, seen, table["id"])
                shown = await wait_for_text(seen, "Round 2/5 — chat")
                row = next(line for line in shown.splitlines() if "+6 = 6" in line)
                assert row.count("+6 = 6") == 3, shown  # every player's total
                assert "Submit" not in footer(watcher)
        await ada.close()
