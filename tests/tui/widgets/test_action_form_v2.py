"""The generic form with spaces v2: float, bool and optional fields, and options with arguments."""

from __future__ import annotations

from typing import Any

from textual.widgets import Checkbox, Input

from tests.tui.helpers import screen_text
from tests.tui.widgets.test_action_form import FormHost, built
from tui.widgets.action_form import check_field, check_form

ROOMS = [{"id": "cafeteria", "label": "Cafeteria"}, {"id": "admin", "label": "Admin"},
         {"id": "medbay", "label": "MedBay"}]
MOVES = {"kind": "choice", "prompt": "Your move", "options": [
    {"id": "WAIT", "label": "Wait"},
    {"id": "SPEAK", "label": "Speak",
     "arg": {"name": "text", "label": "Message", "kind": "text", "max_chars": 10}},
    {"id": "CAMERA", "label": "Watch a camera",
     "arg": {"name": "room", "label": "Room", "kind": "choice", "options": ROOMS}},
    {"id": "SKIP", "label": "Skip",
     "arg": {"name": "why", "label": "Reason", "kind": "text", "optional": True}},
    {"id": "BID", "label": "Bid",
     "arg": {"name": "amount", "label": "Amount", "kind": "float", "min": 0.5, "max": 2.5}},
]}


async def test_an_option_without_argument_is_sent_at_once():
    app = FormHost(MOVES)
    async with app.run_test() as pilot:
        await built(pilot, app)
        assert "Message" not in screen_text(app)  # no argument shown for WAIT
        await pilot.press("enter")
        assert app.sent == [{"choice": "WAIT"}]


async def test_speak_asks_for_its_message_then_sends_choice_and_arg():
    app = FormHost(MOVES)
    async with app.run_test() as pilot:
        await built(pilot, app)
        await pilot.press("down")
        await pilot.pause()
        assert "Message" in screen_text(app)  # the argument shows under the highlighted option
        await pilot.press("enter")  # moves to the argument, sends nothing yet
        assert app.sent == [] and isinstance(app.focused, Input)
        await pilot.press("enter")  # empty message: refused
        assert app.sent == [] and "Message needs some text" in screen_text(app)
        await pilot.press(*"red sus", "enter")
        assert app.sent == [{"choice": "SPEAK", "arg": "red sus"}]


async def test_ctrl_s_on_the_list_checks_the_argument():
    app = FormHost(MOVES)
    async with app.run_test() as pilot:
        await built(pilot, app)
        await pilot.press("down", "ctrl+s")
        assert app.sent == [] and "needs some text" in screen_text(app)
        assert isinstance(app.focused, Input)  # the focus went where the problem is


async def test_an_argument_that_is_a_choice_uses_left_and_right():
    app = FormHost(MOVES)
    async with app.run_test() as pilot:
        await built(pilot, app)
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert "Cafeteria" in screen_text(app)
        await pilot.press("right", "right", "enter")
        assert app.sent == [{"choice": "CAMERA", "arg": "medbay"}]


async def test_an_optional_argument_may_be_left_empty():
    app = FormHost(MOVES)
    async with app.run_test() as pilot:
        await built(pilot, app)
        await pilot.press("down", "down", "down", "enter", "enter")
        assert app.sent == [{"choice": "SKIP"}]
        await pilot.press(*"tired", "enter")
        assert app.sent[-1] == {"choice": "SKIP", "arg": "tired"}


async def test_a_float_argument_is_checked_against_its_bounds():
    app = FormHost(MOVES)
    async with app.run_test() as pilot:
        await built(pilot, app)
        await pilot.press("up", "enter", *"3", "enter")  # up wraps to the last option: BID
        assert app.sent == [] and "at most 2.5" in screen_text(app)
        await pilot.press("backspace", *"1.25", "enter")
        assert app.sent == [{"choice": "BID", "arg": 1.25}]


async def test_leaving_an_argument_for_another_option_sends_that_option():
    app = FormHost(MOVES)
    async with app.run_test() as pilot:
        await built(pilot, app)
        await pilot.press("down", "enter", *"hi", "shift+tab", "up")
        await pilot.pause()
        assert "Message" not in screen_text(app)
        await pilot.press("enter")
        assert app.sent == [{"choice": "WAIT"}]


FORM = {"kind": "form", "prompt": "Place your bet", "fields": [
    {"name": "p", "label": "Probability", "kind": "float", "min": 0.0, "max": 1.0},
    {"name": "sure", "label": "Certain", "kind": "bool"},
    {"name": "stake", "label": "Stake", "kind": "int", "min": 0, "max": 9, "optional": True},
    {"name": "room", "label": "Room", "kind": "choice", "options": ROOMS, "optional": True},
    {"name": "note", "label": "Note", "kind": "text", "max_chars": 20, "optional": True},
    {"name": "loud", "label": "Loud", "kind": "bool", "default": True, "optional": True},
]}


async def test_float_bool_and_optional_fields():
    app = FormHost(FORM)
    async with app.run_test() as pilot:
        await built(pilot, app)
        text = screen_text(app)
        assert "Probability [0.0..1.0]" in text and "Stake (optional)" in text
        assert "(none)" in text
        await pilot.press("enter")  # the float is required
        assert app.sent == [] and "Probability needs a number" in screen_text(app)
        await pilot.press(*"1.5", "ctrl+s")
        assert app.sent == [] and "at most 1.0" in screen_text(app)
        await pilot.press("backspace", "backspace", "backspace", *"0.75", "tab")
        assert isinstance(app.focused, Checkbox)
        await pilot.press("space")  # toggles "Certain"
        await pilot.press("enter")  # enter on a checkbox submits, like everywhere in the form
        assert app.sent == [{"p": 0.75, "sure": True, "loud": True}]
        await pilot.press("tab", *"3", "tab", "left", "tab", *"hello", "tab", "space", "ctrl+s")
        assert app.sent[-1] == {"p": 0.75, "sure": True, "stake": 3, "room": "medbay",
                                "note": "hello", "loud": False}


async def test_a_form_with_only_a_checkbox_and_a_cycler_submits_on_enter():
    legal = {"kind": "form", "prompt": "Accuse?", "fields": [
        {"name": "accuse", "label": "Accuse", "kind": "bool"},
        {"name": "who", "label": "Who", "kind": "choice", "options": ROOMS}]}
    app = FormHost(legal)
    async with app.run_test() as pilot:
        await built(pilot, app)
        await pilot.press("space", "tab", "right", "enter")
        assert app.sent == [{"accuse": True, "who": "admin"}]


def test_check_form_knows_floats_bools_and_optional_fields():
    fields = FORM["fields"]
    legal: dict[str, Any] = {"fields": fields, "constraints": {"sum_max": 5}}
    assert check_form(legal, {"p": 0.5, "sure": False}) is None
    assert check_form(legal, {"p": 1, "sure": False, "stake": None}) is None
    assert "needs a number" in check_form(legal, {"p": "x", "sure": False})
    assert "needs a number" in check_form(legal, {"p": True, "sure": False})
    assert "needs a number" in check_form(legal, {"p": float("inf"), "sure": False})
    assert "at least 0.0" in check_form(legal, {"p": -0.1, "sure": False})
    assert "Certain needs yes or no" in check_form(legal, {"p": 0.5, "sure": 1})
    assert "Certain needs yes or no" in check_form(legal, {"p": 0.5})
    assert "exceeds 5" in check_form(legal, {"p": 0.5, "sure": True, "stake": 6})
    assert "no option" in check_form(legal, {"p": 0.5, "sure": True, "room": "vault"})
    assert check_field(MOVES["options"][1]["arg"], "x" * 11) is not None
