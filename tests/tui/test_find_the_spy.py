"""Find the Spy in the TUI against three scripted describers, keys only, at 80x24 and 140x45
(issue 22): every seat is called by one name on the whole screen (the env's own text says
"Player 2" for the seat the log calls "scripted:describer #1"), and the prompt is shown whole."""

from __future__ import annotations

import pytest

from tests.tui.helpers import answer, on_screen, our_turn, wait_for_text
from tui.app import ParlorApp


@pytest.mark.parametrize("size", [(80, 24), (140, 45)], ids=["80x24", "140x45"])
async def test_one_name_per_player_and_whole_prompts(embedded, size):
    app = ParlorApp(embedded.url, f"ann{size[0]}")
    async with app.run_test(size=size) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="find-the-spy", join_seat=0, seed=3,
                        seats=["human"] + ["scripted:describer"] * 3)
        turn = await our_turn(pilot, app)
        me, bots = app.session.seat_name(0), [app.session.seat_name(s) for s in (1, 2, 3)]
        assert bots[0] == "scripted:describer #1"
        tail = " ".join(turn["legal"]["prompt"].split()[-3:])  # the prompt's end, wrapped in
        text = await wait_for_text(pilot, f"You are {me}.", tail)
        while turn["legal"]["kind"] == "text":
            await pilot.press(*"it keeps things", "enter")
            turn = await our_turn(pilot, app)
        # The ballot names the players as the log does.
        text = await wait_for_text(pilot, f"{me} (yourself)", *bots)
        assert not any(f"Player {n}" in text for n in range(1, 5)), text
        assert {o["label"] for o in turn["legal"]["options"]} >= {"Player 2"}  # the env's names
        await answer(pilot, app, "enter")
        await on_screen(pilot, app, "result")
        text = await wait_for_text(pilot, "Game over", f"{bots[0]} was the spy")
        assert not any(f"Player {n}" in text for n in range(1, 5))
