"""A person solves a Hidden Role Deduction puzzle in the TUI, keys only, on the embedded server:
the paper's worked example (Fig 6) imported as the table's puzzle, statements revealed round by
round, an answer each round from the form's two pickers, and the result screen with the scores
by round and the deduction."""

from __future__ import annotations

import json

from engine.hidden_role.dataset import to_record
from tests.hidden_role.helpers import FIG6
from tests.tui.helpers import wait_for, wait_for_text
from tui.app import ParlorApp
from tui.screens.result import revealed_setup


async def _answer(pilot, app, criminal: int, role_steps: int) -> None:
    """Pick Player `criminal` (the picker starts at Player 1) and the role `role_steps` to the
    right of Unknown (the role picker's start), then enter."""
    await wait_for(pilot, lambda: app.session.awaiting_us, "our turn")
    turn = app.session.turn["turn"]
    await pilot.press(*["right"] * (criminal - 1), "tab", *["right"] * role_steps, "enter")
    await wait_for(pilot, lambda: not app.session.awaiting_us or app.session.game_over
                   or app.session.turn["turn"] != turn, "the answer to be taken")


async def test_a_person_plays_a_puzzle_to_the_end(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.screen.KIND == "lobby", "the lobby")
        app.client.send("create_table", env="hidden-role", seats=["human"], join_seat=0,
                        config={"instance": json.dumps(to_record(FIG6))})
        await wait_for(pilot, lambda: app.screen.KIND == "game" and app.session.awaiting_us,
                       "our first answer")
        text = await wait_for_text(pilot, "Player 2 says Player 6 is the criminal.")
        assert "Investigator." in text and "Round 1 of 3" in text
        assert "Round 2:" not in text  # later rounds are not shown yet
        await _answer(pilot, app, criminal=6, role_steps=0)  # a wrong guess: Player 6, Unknown
        await wait_for_text(pilot, "Player 2 says Player 4 is the criminal.")  # round 2
        assert not any(e["type"] in ("answer_scored", "scores") for e in app.session.events)
        await _answer(pilot, app, criminal=2, role_steps=1)  # Player 2, Investigator
        await _answer(pilot, app, criminal=2, role_steps=1)
        await wait_for(pilot, lambda: app.screen.KIND == "result", "the result screen")
        text = await wait_for_text(pilot, "solved")
        reveal = app.screen.query_one("#result-setup")
        reveal.scroll_visible(animate=False)  # the deal and the deduction, further down
        text = await wait_for_text(pilot, "So if you are an Investigator, the criminal is "
                                          "Player 2.")
        assert "Player 3" in text and "Lunatic" in text  # the deal: Player 3 was the Lunatic
        setup = revealed_setup(app.session)
        assert "Conclusion: the criminal is Player 2" in setup["explanation"]
        events = [e for e in app.session.events if e["type"] == "scores"]
        rounds = events[0]["data"]["rounds"]
        assert [(r["crim"], r["both"]) for r in rounds] == [(False, False), (True, True),
                                                            (True, True)]
