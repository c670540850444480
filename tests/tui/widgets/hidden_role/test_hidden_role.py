"""A person solves a Hidden Role Deduction puzzle in the TUI, keys only, on the embedded server:
the paper's worked example (Fig 6) imported as the table's puzzle, shown by the env's own widget
(tui/widgets/hidden_role/): the setup line, the statements as a table grouped by round with the
newest round marked, the person's earlier answers, and an answer each round from the form's two
pickers; then the result screen with the scores by round, the true roles in the table and the
deduction."""

from __future__ import annotations

import json

from textual.widgets import Static

from engine.hidden_role.dataset import to_record
from tests.hidden_role.helpers import FIG6
from tests.tui.helpers import answer, on_screen, our_turn, wait_for, wait_for_text
from tui.app import ParlorApp
from tui.screens.result import revealed_setup
from tui.widgets.hidden_role.game import HiddenRoleGame
from tui.widgets.hidden_role.statements import HrStatements

# Fig 6's statements as the table reads them: Round | Player | says | claim.
ROUND_1 = ["1 | Player 1 (you) | Player 3 | is NOT the criminal",
           "1 | Player 2 | Player 6 | IS the criminal",
           "1 | Player 3 | Player 1 (you) | IS the criminal",
           "1 | Player 4 | Player 6 | IS the criminal",
           "1 | Player 5 | Player 3 | is NOT the criminal",
           "1 | Player 6 | Player 1 (you) | is NOT the criminal"]
ROUND_2 = ["2 | Player 1 (you) | Player 3 | is NOT the criminal",
           "2 | Player 2 | Player 4 | IS the criminal",
           "2 | Player 3 | Player 5 | is NOT the criminal",
           "2 | Player 4 | Player 1 (you) | IS the criminal",
           "2 | Player 5 | Player 6 | is NOT the criminal",
           "2 | Player 6 | Player 4 | is NOT the criminal"]
ROUND_3 = ["3 | Player 1 (you) | Player 4 | is NOT the criminal",
           "3 | Player 2 | Player 6 | IS the criminal",
           "3 | Player 3 | Player 6 | is NOT the criminal",
           "3 | Player 4 | Player 3 | is NOT the criminal",
           "3 | Player 5 | Player 4 | is NOT the criminal",
           "3 | Player 6 | Player 3 | is NOT the criminal"]


def newest(rows: list[str]) -> list[str]:
    """The newest round as shown: "▸" before the round's number on its first row."""
    return ["▸ " + rows[0], *rows[1:]]


def table_of(app) -> HrStatements:
    return app.screen.query_one(HiddenRoleGame).query_one(HrStatements)


def brief_of(app) -> str:
    """The widget's setup line and round (or result), unwrapped."""
    return str(app.screen.query_one(HiddenRoleGame).query_one("#hr-brief", Static).content)


async def _table_shows(pilot, app, expected: list[str]) -> None:
    await wait_for(pilot, lambda: table_of(app).lines() == expected,
                   f"the statements table to read {expected}")


async def _answer(pilot, app, criminal: int, role_steps: int) -> None:
    """Pick Player `criminal` (the picker starts at Player 1) and the role `role_steps` to the
    right of Unknown (the role picker's start), then enter."""
    await answer(pilot, app, *["right"] * (criminal - 1), "tab", *["right"] * role_steps, "enter")


async def test_a_person_plays_a_puzzle_to_the_end(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="hidden-role", seats=["human"], join_seat=0,
                        config={"instance": json.dumps(to_record(FIG6))})
        await our_turn(pilot, app)
        assert app.screen.query(HiddenRoleGame)  # the env's own widget, not the generic one
        await _table_shows(pilot, app, newest(ROUND_1))  # later rounds are not shown yet
        text = await wait_for_text(pilot, "Round 1 of 3",
                                   "After round 1 of 3: who is the criminal")  # the form's prompt
        assert brief_of(app).startswith(
            "6 players (3 Investigators, 1 Criminal, 1 Rumormonger, 1 Lunatic), 3 rounds. You "
            "are Player 1; you were told you are the Investigator.\nRound 1 of 3")
        assert "you said" not in text  # no answers yet
        await _answer(pilot, app, criminal=6, role_steps=0)  # a wrong guess: Player 6, Unknown

        await _table_shows(pilot, app, ROUND_1 + newest(ROUND_2))  # round 1 no longer marked
        text = await wait_for_text(pilot, "After round 1 you said: criminal Player 6, you are "
                                          "Unknown")
        await wait_for(pilot, lambda: "Round 2 of 3" in brief_of(app), "round 2 in the brief")
        assert not any(e["type"] in ("answer_scored", "scores") for e in app.session.events)
        await _answer(pilot, app, criminal=2, role_steps=1)  # Player 2, Investigator

        await _table_shows(pilot, app, ROUND_1 + ROUND_2 + newest(ROUND_3))
        text = await wait_for_text(pilot, "After round 2 you said: criminal Player 2, you are "
                                          "Investigator", "After round 1 you said")
        await wait_for(pilot, lambda: "Round 3 of 3" in brief_of(app), "round 3 in the brief")
        await _answer(pilot, app, criminal=2, role_steps=1)

        await on_screen(pilot, app, "result")
        text = await wait_for_text(pilot, "solved")
        # The final position is the widget again: every speaker's true role, no round marked.
        await wait_for(pilot, lambda: "Game over" in brief_of(app), "the brief's last words")
        assert brief_of(app).endswith("Game over: solved\nThe criminal was Player 2 and Player 1 "
                                      "was the Investigator.")
        rows = table_of(app).lines()
        assert len(rows) == 18 and not any("▸" in r for r in rows)
        assert rows[0] == "1 | Player 1 (you) · Investigator | Player 3 | is NOT the criminal"
        assert rows[2] == "1 | Player 3 · Lunatic | Player 1 (you) | IS the criminal"
        reveal = app.screen.query_one("#result-setup")
        reveal.scroll_visible(animate=False)  # the deal and the deduction, further down
        text = await wait_for_text(pilot, "So if you are an Investigator, the criminal is "
                                          "Player 2.", "Player 3", "Lunatic")
        # the deal: Player 3 was the Lunatic  # the deal: Player 3 was the Lunatic
        setup = revealed_setup(app.session)
        assert "Conclusion: the criminal is Player 2" in setup["explanation"]
        events = [e for e in app.session.events if e["type"] == "scores"]
        rounds = events[0]["data"]["rounds"]
        assert [(r["crim"], r["both"]) for r in rounds] == [(False, False), (True, True),
                                                            (True, True)]
