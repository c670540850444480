"""The generic form builds inputs from any `legal` space and sends structured actions."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Input, OptionList

from tests.tui.helpers import screen_text, wait_for
from tui.widgets.action_form import ActionForm, check_form


class FormHost(App):
    def __init__(self, legal: dict[str, Any]) -> None:
        super().__init__()
        self.legal = legal
        self.sent: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        yield ActionForm()

    def on_mount(self) -> None:
        self.query_one(ActionForm).show(self.legal)

    def on_action_form_submitted(self, event: ActionForm.Submitted) -> None:
        self.sent.append(event.action)


async def built(pilot, app: App) -> ActionForm:
    """Wait until the form's inputs are built and focused: keys pressed before would be lost."""
    form = app.query_one(ActionForm)
    await wait_for(pilot, lambda: form.ready, "the form's inputs")
    return form


async def test_the_form_says_when_the_inputs_for_a_new_legal_are_in_and_focused():
    app = FormHost({"kind": "text", "prompt": "Say something"})
    async with app.run_test() as pilot:
        form = await built(pilot, app)
        assert isinstance(app.focused, Input) and form.ready
        form.show({"kind": "choice", "prompt": "Vote", "options": [{"id": "1", "label": "P1"}]})
        assert not form.ready  # rebuilt a moment later
        await built(pilot, app)
        assert isinstance(app.focused, OptionList) and not form.query(Input)
        form.show({"kind": "choice", "prompt": "Vote", "options": [{"id": "1", "label": "P1"}]})
        assert form.ready  # the same legal again: nothing to rebuild


async def test_choice_space_becomes_an_option_list():
    legal = {"kind": "choice", "prompt": "Vote", "options": [{"id": "1", "label": "Player 1"},
                                                             {"id": "2", "label": "Player 2"}]}
    app = FormHost(legal)
    async with app.run_test() as pilot:
        await built(pilot, app)
        assert "Player 2" in screen_text(app)
        await pilot.press("down", "enter")
        assert app.sent == [{"choice": "2"}]


async def test_text_space_becomes_an_input():
    app = FormHost({"kind": "text", "prompt": "Say something", "max_chars": 50})
    async with app.run_test() as pilot:
        await built(pilot, app)
        await pilot.press("enter")  # empty: refused
        assert app.sent == [] and "type something" in screen_text(app)
        await pilot.press(*"hi all", "enter")
        assert app.sent == [{"text": "hi all"}]


async def test_form_space_checks_bounds_and_constraints_before_sending():
    legal = {"kind": "form", "prompt": "Split 5", "constraints": {"sum_max": 5},
             "fields": [{"name": "x", "label": "X", "kind": "int", "min": 0, "max": 5},
                        {"name": "y", "label": "Y", "kind": "int", "min": 0, "max": 5},
                        {"name": "who", "label": "Toward 1", "kind": "choice",
                         "options": [{"id": "cooperate", "label": "cooperate"},
                                     {"id": "defect", "label": "defect"}]}]}
    app = FormHost(legal)
    async with app.run_test() as pilot:
        await built(pilot, app)
        await pilot.press("4", "tab", "3", "tab", "right", "ctrl+s")
        assert app.sent == [] and "exceeds 5" in screen_text(app)
        await pilot.press("shift+tab", "backspace", "1", "enter")
        assert app.sent == [{"x": 4, "y": 1, "who": "defect"}]


def test_check_form_names_the_problem():
    legal = {"fields": [{"name": "a", "label": "A", "kind": "int", "min": 0, "max": 3}],
             "constraints": {"sum_eq": 3}}
    assert check_form(legal, {"a": 3}) is None
    assert "at most 3" in check_form(legal, {"a": 4})
    assert "exactly 3" in check_form(legal, {"a": 2})
    assert "whole number" in check_form(legal, {"a": None})
