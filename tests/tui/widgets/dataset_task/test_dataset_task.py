"""The dataset tasks in the TUI, keys only, on the embedded server, shown by the kit's own widget
(tui/widgets/dataset_task/): the brief (task, source, "Stage 2 of 3"), the
evidence stage by stage with the newest stage marked and scrolled into view, PgUp/PgDn scrolling
it while the form keeps the focus, the earlier answers, the form's whole prompt (wrapped) at
80x24 and 120x40, and the result screen; User Profile's two pickers scored as chosen; and a
spectator, who reads the evidence and the question with no form. Everything is read from the
rendered screen where it can be."""

from __future__ import annotations

import json
import re

import pytest

from engine.registry import get
from tests.dataset_task.test_game import PAPER
from tests.server.conftest import Client
from tests.tui.helpers import (
    answer,
    on_screen,
    our_turn,
    screen_text,
    wait_for,
    wait_for_text,
    watch,
)
from tui.app import ParlorApp
from tui.widgets.action_form import ActionForm
from tui.widgets.dataset_task.evidence import DsEvidence
from tui.widgets.dataset_task.game import DatasetTaskGame

SEED = 0  # the synthetic review of seed 0: four long reviews, so the rebuttal starts far below
REVIEW_TITLES = ["Paper information", "Reviews (scores removed)", "Rebuttal and discussion"]


def widget_lines(app) -> list[str]:
    """The game widget's column of the screen, row by row (the transcript beside it and the
    border characters left out)."""
    rows = []
    for line in screen_text(app).splitlines():
        parts = line.split("│")
        if len(parts) >= 3:
            rows.append(parts[1])
    return rows


def flat(lines: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(lines)).strip()


def row_of(app, needle: str) -> int | None:
    """The index among the widget's rows of the first row holding `needle`."""
    return next((i for i, row in enumerate(widget_lines(app)) if needle in row), None)


def header(stage: int, title: str, stages: int = 3, new: bool = True) -> str:
    return f"Stage {stage} of {stages} · {title}" + ("  ▸ new" if new else "")


async def _pages_keep_the_form_focused(pilot, app, needle: str) -> None:
    """PgUp scrolls the evidence up (the row holding `needle` moves down or off the screen)
    and PgDn back, while the focus stays on the form's picker."""
    row = row_of(app, needle)
    assert row is not None
    assert isinstance(app.focused.parent, ActionForm)
    await pilot.press("pageup")
    await wait_for(pilot, lambda: (row_of(app, needle) or 99) > row, "the evidence to scroll up")
    assert isinstance(app.focused.parent, ActionForm)
    await pilot.press("pagedown")
    await wait_for(pilot, lambda: row_of(app, needle) == row, "the evidence to scroll back")
    assert isinstance(app.focused.parent, ActionForm)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_person_plays_a_review_decision_to_the_end(embedded, size):
    review = get("review-decision")
    truth = review.presets["paper"].make(SEED).answer["decision"]
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=size) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="review-decision", seats=["human"], join_seat=0,
                        seed=SEED)
        await our_turn(pilot, app)
        assert app.screen.query(DatasetTaskGame)  # the kit's own widget, not the generic one
        picks = ["Accept", "Reject", truth]
        for stage in (1, 2, 3):
            await our_turn(pilot, app)
            said = [f"After stage {n} you said: {picks[n - 1]}" for n in range(1, stage)]
            prompt = app.session.legal["prompt"]
            text = await wait_for_text(pilot, header(stage, REVIEW_TITLES[stage - 1]), *said)
            await wait_for(pilot, lambda p=prompt: p in flat(widget_lines(app)),
                           "the form's whole prompt, wrapped in the widget's width")
            lines = widget_lines(app)
            assert lines[0].startswith("Review Decision Prediction · synthetic sample (Parlor "
                                       "generator)")
            assert f"Stage {stage} of 3" in lines[1]
            assert "  ▸ new" not in text.replace(header(stage, REVIEW_TITLES[stage - 1]), "")
            for later in REVIEW_TITLES[stage:]:
                assert later not in text  # later stages are not shown yet
            if stage > 1:  # the earlier stages' headers lose the mark
                assert header(stage - 1, REVIEW_TITLES[stage - 2], new=False) in (
                    app.screen.query_one(DsEvidence).lines())
            # the newest stage's header is the evidence's top row (where stage 1's is, under
            # the brief), or as near as the end of the evidence lets it go
            if stage == 1:
                top = row_of(app, "Paper information")
                assert top in (2, 3)  # the brief's two rows (and a margin when wide) above
            assert prompt.startswith(f"After stage {stage} of 3: Will this paper be accepted")
            if stage == 1:
                assert "you said" not in text
            if stage == 2:  # a long stage: its header scrolled to the top of the evidence
                await wait_for(pilot, lambda t=top: row_of(app, header(2, REVIEW_TITLES[1])) == t,
                               "stage 2's header at the top of the evidence")
            if stage == 3:
                await _pages_keep_the_form_focused(pilot, app, header(3, REVIEW_TITLES[2]))
            # The picker starts at Accept, then at the answer of the stage before (issue 22:
            # it went back to Accept after a Reject); → flips it.
            start = picks[stage - 2] if stage > 1 else "Accept"
            await wait_for_text(pilot, f"Final Decision ‹ {start} ›")
            await answer(pilot, app, *([] if picks[stage - 1] == start else ["right"]), "enter")

        await on_screen(pilot, app, "result")
        await wait_for_text(pilot, f"right: decision {truth}")
        # The metrics at the top (at 80x24 the outcome and rating lines push them down).
        app.screen.query_one("#result-metrics").scroll_visible(animate=False, top=True)
        text = await wait_for_text(pilot, "Final position")
        assert "Query kind" not in text  # a task of one kind has no kind to show (issue 22)
        position = app.screen.query_one(DatasetTaskGame)
        assert not position.query_one(ActionForm).display  # the form goes at the end
        app.screen.query_one("#result-setup").scroll_visible(animate=False)
        text = await wait_for_text(pilot, "the reviews leaned")  # the explanation, revealed
        position.scroll_visible(animate=False, top=True)
        text = await wait_for_text(pilot, f"Game over: right: decision {truth}",
                                   f"The true answer: {truth}")
        scores = next(e for e in app.session.events if e["type"] == "scores")["data"]
        assert [s["answer"]["decision"] for s in scores["stages"]] == picks


async def test_a_paper_from_a_file_shows_its_source_and_stages(embedded):
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="review-decision", seats=["human"], join_seat=0,
                        config={"instance": json.dumps(PAPER)})
        await our_turn(pilot, app)
        await wait_for_text(pilot, "Review Decision Prediction · source: hand-written",
                            "Title: Counting Sheep Faster")
        await answer(pilot, app, "enter")
        await answer(pilot, app, "right", "enter")
        await wait_for_text(pilot, header(3, "Rebuttal and discussion"),
                            "Authors: We added two datasets.", "Reviewer 1: My concerns remain.",
                            "After stage 1 you said: Accept", "After stage 2 you said: Reject")
        await answer(pilot, app, "enter")  # the picker kept the Reject of stage 2
        await on_screen(pilot, app, "result")
        await wait_for_text(pilot, "right: decision Reject")


@pytest.mark.parametrize(("age_keys", "gender_keys", "chosen"), [
    (["left"], ["right", "right"], {"age_group": "55+", "gender": "Non-binary"}),
    (["right"], ["left", "left"], {"age_group": "35-54", "gender": "Female"}),
    (["right", "left"], ["right"], {"age_group": "18-34", "gender": "Female"}),
], ids=["both-wrong", "age-wrong", "right"])
async def test_a_user_profile_is_answered_with_both_pickers(embedded, age_keys, gender_keys,
                                                            chosen):
    truth = get("user-profile").presets["paper"].make(SEED).answer
    app = ParlorApp(embedded.url, "tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "lobby")
        app.client.send("create_table", env="user-profile", seats=["human"], join_seat=0,
                        seed=SEED)
        await our_turn(pilot, app)
        text = await wait_for_text(pilot, "Age Group")
        lines = widget_lines(app)
        assert lines[0] == "User Profile Inference · synthetic sample (Parlor generator)"
        assert lines[1] == "Comments written by one user, on various items."
        assert "Stage" not in text and "▸ new" not in text  # one stage: nothing to mark
        assert lines[3] == "Comments"
        assert lines[4].startswith("Comment 1 (on ")
        assert app.session.legal["prompt"] in flat(widget_lines(app))
        await pilot.press(*age_keys)
        await wait_for_text(pilot, f"‹ {chosen['age_group']} ›")
        await pilot.press("tab", *gender_keys)
        await wait_for_text(pilot, f"‹ {chosen['gender']} ›")
        await answer(pilot, app, "enter")

        await on_screen(pilot, app, "result")
        right = chosen == truth
        expected = f"age group {truth['age_group']}, gender {truth['gender']}"
        reason = f"right: {expected}" if right else f"wrong: the answer was {expected}"
        text = await wait_for_text(pilot, reason)
        scores = next(e for e in app.session.events if e["type"] == "scores")["data"]
        assert scores["stages"] == [{"stage": 1, "answer": chosen, "right": right}]
        assert app.session.game_over["result"]["reason"] == reason
        position = app.screen.query_one(DatasetTaskGame)
        position.scroll_visible(animate=False, top=True)
        said = f"You said: {chosen['age_group']}, {chosen['gender']} {'✓' if right else '✗'}"
        text = await wait_for_text(pilot, said, f"The true answer: {expected}")


async def test_a_spectator_reads_the_evidence_without_a_form(embedded):
    alice = await Client.connect(embedded.url, "alice")
    reply = await alice.request("create_table", env="review-decision", seats=["human"],
                                seed=SEED, join_seat=0)
    table_id = reply["table"]["id"]
    turn = await alice.wait_for("your_turn", table_id=table_id)
    app = ParlorApp(embedded.url, "carol", server_key="watch")
    async with app.run_test(size=(80, 24)) as pilot:
        await watch(app, pilot, table_id)
        text = await wait_for_text(pilot, "Paper information",
                                   "Review Decision Prediction · synthetic sample", "Title: ",
                                   "Stage 1 of 3")
        assert "Question: Will this paper be accepted" in flat(widget_lines(app))
        assert not app.screen.query_one(ActionForm).display
        assert "Submit" not in text and "‹ Accept ›" not in text and "After stage 1 of 3" not in text
        await alice.send("act", table_id=table_id, turn=turn["turn"],
                         action={"decision": "Accept"})
        text = await wait_for_text(pilot, header(2, "Reviews (scores removed)"), "Reviewer 1: ")
        assert "said" not in text  # the solver's answers are private until the end
        assert "Question: Will this paper be accepted" in flat(widget_lines(app))
        assert not app.screen.query_one(ActionForm).display
        row = row_of(app, header(2, "Reviews (scores removed)"))
        assert row is not None
        await pilot.press("pagedown")  # PgDn scrolls the evidence for a spectator too
        await wait_for(pilot, lambda: (row_of(app, header(2, "Reviews (scores removed)"))
                                       or -1) < row, "the evidence to scroll down")
    await alice.close()
