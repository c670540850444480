"""A person answers a Social Graph Analysis puzzle in the TUI, keys only, on the embedded server:
the spec's worked example imported as the table's puzzle, every sentence shown from the start,
the four questions one at a time (a Yes/No picker, names typed, a number, two numbers), and the
result screen with the scores, the right answers and the groups."""

from __future__ import annotations

from tests.social_graph.test_env import example_line
from tests.tui.helpers import answer, on_screen, our_turn, wait_for_text
from tui.app import ParlorApp
from tui.screens.result import revealed_setup

KEYS = {",": "comma", " ": "space"}


def typed(text: str) -> list[str]:
    return [KEYS.get(c, c) for c in text]


async def test_a_person_answers_every_question_and_sees_the_result(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="social-graph", seats=["human"], join_seat=0,
                        config={"instance": example_line()})
        await our_turn(pilot, app)
        text = await wait_for_text(pilot, "Question 1 of 4: Are G and H on good terms?",
                                   "C and H are on bad terms.", "E and G are on bad terms.")
        assert "Question 2" not in text  # one question at a time
        await answer(pilot, app, "right", "enter")  # the picker starts at Yes: No
        await wait_for_text(pilot, "Question 2 of 4: Who is on good terms with B?")
        assert not any(e["type"] in ("answer_scored", "scores") for e in app.session.events)
        await answer(pilot, app, *typed("g, f, d c,a"), "enter")  # any order and separators
        await wait_for_text(pilot, "Question 3 of 4")
        await answer(pilot, app, "3", "enter")  # wrong: there are 2 groups
        await wait_for_text(pilot, "Question 4 of 4")
        await answer(pilot, app, "1", "6", "tab", "1", "2", "enter")
        await on_screen(pilot, app, "result")
        await wait_for_text(pilot, "3 of 4 questions right")
        reveal = app.screen.query_one("#result-setup")
        reveal.scroll_visible(animate=False)  # the groups and the answers, further down
        await wait_for_text(pilot, "{A, B, C, D, F, G} {E, H}",
                            "How many separate groups do these people form? 2")
        setup = revealed_setup(app.session)
        assert setup["instance_id"] == "fig47"
        scores = [e for e in app.session.events if e["type"] == "scores"]
        assert [(q["right"], q["answer"]) for q in scores[0]["data"]["questions"]] == [
            (True, "No"), (True, "A, C, D, F, G"), (False, "3"),
            (True, "16 pairs have good relationships, 12 pairs have bad relationships")]
