"""Colonel Blotto in the TUI: the allocation form's keys, and a full game against a server bot."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from tests.tui.helpers import (
    answered,
    on_screen,
    our_turn,
    our_turn_or_end,
    screen_text,
    wait_for,
    wait_for_text,
)
from tui.app import ParlorApp
from tui.widgets.colonel_blotto.allocation_form import AllocationForm

LEGAL = {"kind": "form", "prompt": "Allocate up to 20 units across fields A, B, C.",
         "syntax": "[A7 B7 C6]",
         "fields": [{"name": n, "label": f"Field {n}", "kind": "int", "min": 0, "max": 20,
                     "default": 0} for n in "ABC"],
         "constraints": {"sum_max": 20}}


class FormHost(App):
    def __init__(self) -> None:
        super().__init__()
        self.sent: list[dict[str, int]] = []

    def compose(self) -> ComposeResult:
        yield AllocationForm()

    def on_allocation_form_submitted(self, event: AllocationForm.Submitted) -> None:
        self.sent.append(event.allocation)


async def test_allocation_keys_move_units_and_never_exceed_the_limit():
    app = FormHost()
    async with app.run_test() as pilot:
        form = app.query_one(AllocationForm)
        form.start_turn(LEGAL, None)
        form.focus()
        await pilot.pause()
        assert form.allocation() == {"A": 7, "B": 7, "C": 6}  # an even split to start from
        await pilot.press("up", "up")  # already at the limit: refused
        assert form.total == 20
        await pilot.press("down", "down", "right", "up", "right", "minus")
        assert form.allocation() == {"A": 5, "B": 8, "C": 5}
        await pilot.press("f")  # every unit left goes to the selected field
        assert form.allocation() == {"A": 5, "B": 8, "C": 7}
        await pilot.press("0", "left", "left", "f")
        assert form.allocation() == {"A": 12, "B": 8, "C": 0}
        assert "Total 20 / 20" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.sent == [{"A": 12, "B": 8, "C": 0}]
        await pilot.press("up", "enter")  # once sent, the form is read-only
        assert app.sent == [{"A": 12, "B": 8, "C": 0}]


async def test_exact_total_is_required_when_the_env_says_so():
    app = FormHost()
    async with app.run_test() as pilot:
        form = app.query_one(AllocationForm)
        form.start_turn({**LEGAL, "constraints": {"sum_eq": 20}}, None)
        form.focus()
        await pilot.press("down", "enter")
        assert app.sent == [] and "exactly 20" in screen_text(app)
        await pilot.press("up", "enter")
        assert app.sent == [{"A": 7, "B": 7, "C": 6}]


async def test_full_blotto_game_against_a_bot_with_keys_only(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await on_screen(pilot, app, "lobby")
        ids = [e["id"] for e in app.session.envs]
        await pilot.press(*["down"] * ids.index("colonel-blotto"), "n")
        await wait_for_text(pilot, "New table: Colonel Blotto")
        for _ in range(10):  # cycle the preset (focused first) to `small`, as a person would
            if "‹ small ›" in screen_text(app):
                break
            await pilot.press("right")
        text = screen_text(app)
        assert "‹ small ›" in text and "Seat 0" in text and "‹ human" in text
        bots = app.session.bots_for("colonel-blotto")
        expected_bot = "scripted:adaptive" if "scripted:adaptive" in bots else "random"
        await pilot.press("down", "down", "down")  # preset -> players -> seat 0 -> seat 1
        for _ in range(len(bots) + 1):  # seat 1: cycle to the bot we want to face
            seat1 = next(line for line in screen_text(app).splitlines() if "Seat 1" in line)
            if f"‹ {expected_bot}" in seat1:
                break
            await pilot.press("right")
        await pilot.press("ctrl+s")
        await on_screen(pilot, app, "game")
        seats = app.session.table["seats"]
        assert [s["kind"] for s in seats] == ["human", "bot"]
        assert seats[1]["identity"] == expected_bot

        moves = 0
        while (turn := await our_turn_or_end(pilot, app)) is not None:
            # Move one unit from the selected field to the next one, then submit.
            await pilot.press("down", "right", "up", "enter")
            moves += 1
            await answered(pilot, app, turn)
            if moves == 1:
                await wait_for(pilot, lambda: app.session.game_over or len(
                    app.session.view["public"]["history"]) >= 1, "round 1 resolved")
                history = app.session.view["public"]["history"]
                assert history[0]["allocations"][0] == {"A": 6, "B": 8, "C": 6}
                assert "A6 B8 C6" in screen_text(app)  # the history table shows our move
        await on_screen(pilot, app, "result")
        text = await wait_for_text(pilot, "Rewards")
        over = app.session.game_over
        rewards = over["result"]["rewards"]
        assert set(rewards) == {"0", "1"} and 3 <= moves <= 5
        mine = f"{rewards['0']:+g}"
        row = next(line for line in text.splitlines() if "(you)" in line)
        assert mine in row  # our reward, read off the result screen
        assert app.session.in_our_names(over["result"]["reason"])[:40] in text.replace("\n", " ")
        await pilot.press("enter")
        await on_screen(pilot, app, "lobby")


@pytest.mark.parametrize("size", [(80, 24), (140, 45)], ids=["80x24", "140x45"])
async def test_leaving_before_your_first_move_is_void_as_the_dialog_says(embedded, size):
    """Issue 22: the bot had allocated, so leaving before one's first move cost 6 points of μ
    although the dialog said a game nobody has moved in is void."""
    app = ParlorApp(embedded.url, "leaver")
    async with app.run_test(size=size) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="colonel-blotto", seats=["human", "random"],
                        join_seat=0, seed=3)
        await our_turn(pilot, app)
        await wait_for(pilot, lambda: any(e.get("type") == "allocation_submitted"
                                          for e in app.session.events), "the bot's move")
        await pilot.press("ctrl+l")
        await on_screen(pilot, app, "confirm")
        await wait_for_text(pilot, "no person has moved")
        await pilot.press("y")
        await on_screen(pilot, app, "result")
        await wait_for_text(pilot, "The game is void")
        assert app.session.game_over["rating_changes"] == {}
