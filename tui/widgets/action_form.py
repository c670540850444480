"""A form built from any `legal` action space: choice -> option list, text -> input, form -> fields.

Field kinds: int / float (inputs that only take numbers), bool (a checkbox: space toggles),
choice (a ←/→ cycler) and text. Optional fields may be left empty and are then left out of the
action. A choice option with an argument (e.g. SPEAK + a message) shows the argument's input
under the list while it is highlighted; enter on it moves to the argument, and enter (or ctrl+s)
there sends {"choice": id, "arg": value}. Everywhere: enter or ctrl+s submits, tab moves on.

It checks what it can before sending (types, bounds, sum_max / sum_eq); the server judges the rest.
"""

from __future__ import annotations

import math
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from tui.widgets.cycler import Cycler

NONE_ID = ""  # the "(none)" entry of an optional choice field


def check_field(f: dict[str, Any], v: Any) -> str | None:
    """Why value `v` breaks field `f` (None = left empty), or None when it fits."""
    label = f.get("label") or f.get("name", "the answer")
    kind = f["kind"]
    if v is None:
        if f.get("optional"):
            return None
        need = {"int": "a whole number", "float": "a number", "bool": "yes or no",
                "choice": "a choice", "text": "some text"}.get(kind, "a value")
        return f"{label} needs {need}"
    if kind == "int" and (isinstance(v, bool) or not isinstance(v, int)):
        return f"{label} needs a whole number"
    if kind == "float" and (isinstance(v, bool) or not isinstance(v, int | float)
                            or not math.isfinite(v)):
        return f"{label} needs a number"
    if kind in ("int", "float"):
        if f.get("min") is not None and v < f["min"]:
            return f"{label} must be at least {f['min']}"
        if f.get("max") is not None and v > f["max"]:
            return f"{label} must be at most {f['max']}"
    if kind == "bool" and not isinstance(v, bool):
        return f"{label} needs yes or no"
    if kind == "choice" and v not in [o["id"] for o in f.get("options", [])]:
        return f"{label} has no option {v!r}"
    if kind == "text" and f.get("max_chars") and len(str(v)) > f["max_chars"]:
        return f"{label} is longer than {f['max_chars']} characters"
    return None


def check_form(legal: dict[str, Any], values: dict[str, Any]) -> str | None:
    """Why a form answer breaks `legal`'s types, bounds or constraints, or None when it fits.
    Optional fields may be missing from `values` (or None)."""
    fields = legal.get("fields", [])
    for f in fields:
        problem = check_field(f, values.get(f["name"]))
        if problem:
            return problem
    total = sum(values[f["name"]] for f in fields
                if f["kind"] == "int" and values.get(f["name"]) is not None)
    cons = legal.get("constraints") or {}
    if "sum_max" in cons and total > cons["sum_max"]:
        return f"the total {total} exceeds {cons['sum_max']}"
    if "sum_eq" in cons and total != cons["sum_eq"]:
        return f"the total must be exactly {cons['sum_eq']}, it is {total}"
    return None


class BoolField(Checkbox):
    """A checkbox whose enter submits the form like every other field (space toggles)."""

    BINDINGS = [Binding("enter", "submit_form", "Submit", show=False)]

    def action_submit_form(self) -> None:
        for node in self.ancestors:
            if isinstance(node, ActionForm):
                node.action_submit()
                return


class ActionForm(Vertical):
    """Rebuilds itself for each new `legal`; posts `Submitted` with a structured action.
    `ready` says whether the inputs for the last `legal` shown are built and focused."""

    BINDINGS = [Binding("ctrl+s", "submit", "Submit", show=True),
                Binding("enter", "submit", "Submit", show=False)]

    class Submitted(Message):
        def __init__(self, action: dict[str, Any]) -> None:
            super().__init__()
            self.action = action

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.legal: dict[str, Any] | None = None
        self._built = False
        self._rebuilds_asked = self._rebuilds_done = 0

    def compose(self) -> ComposeResult:
        yield Static("Waiting for the other players…", classes="form-status")

    def show(self, legal: dict[str, Any] | None) -> None:
        if self._built and legal == self.legal:
            return
        self.legal = legal
        self._built = True
        self._rebuilds_asked += 1
        self.call_later(self._rebuild)

    @property
    def ready(self) -> bool:
        """Whether every rebuild asked for is done and the focus it gave has landed: keys pressed
        from now on reach the inputs for the last `legal` shown."""
        return self._rebuilds_done == self._rebuilds_asked

    async def _rebuild(self) -> None:
        await self._build()
        # Queued behind the focus change _build asked for, so it counts only once that landed.
        self.app.call_later(self._rebuilt)

    def _rebuilt(self) -> None:
        self._rebuilds_done += 1

    async def _build(self) -> None:
        await self.remove_children()
        legal = self.legal
        if not legal or (legal["kind"] == "choice" and not legal.get("options")):
            await self.mount(Static("Waiting for the other players…", classes="form-status"))
            return
        widgets: list[Any] = [Label(legal.get("prompt", ""), classes="form-prompt", markup=False)]
        if legal["kind"] == "choice":
            widgets.append(OptionList(*[Option(o["label"] + (" …" if o.get("arg") else ""),
                                              id=o["id"]) for o in legal["options"]], id="choice"))
            for i, o in enumerate(legal["options"]):
                if o.get("arg"):
                    arg = _value_widget(o["arg"], f"arg-{i}")
                    arg.display = False
                    widgets.append(arg)
        elif legal["kind"] == "text":
            widgets.append(Input(placeholder=legal.get("syntax") or "type your answer",
                                 max_length=legal.get("max_chars") or 0, id="text"))
        else:
            widgets.extend(_value_widget(f, f"field-{f['name']}") for f in legal.get("fields", []))
            if legal.get("constraints"):
                widgets.append(Static(_describe_constraints(legal["constraints"]),
                                      classes="form-hint"))
        widgets.append(Static("", id="form-error", classes="form-error"))
        await self.mount(*widgets)
        for w in widgets:
            if isinstance(w, OptionList):
                w.highlighted = 0  # a choice always has one option under the cursor
        self._show_arg(0)
        focusable = [w for w in widgets if w.can_focus and w.display]
        if focusable:
            focusable[0].focus()

    def values(self) -> dict[str, Any]:
        """The form's answer: empty optional fields are left out; an unreadable number is kept
        as its text (check_form then names the problem)."""
        out: dict[str, Any] = {}
        for f in (self.legal or {}).get("fields", []):
            value = _read(f, self.query_one(f"#field-{f['name']}"))
            if value is not None or not f.get("optional"):
                out[f["name"]] = value
        return out

    def action_submit(self) -> None:
        legal = self.legal
        if not legal or (legal["kind"] == "choice" and not legal.get("options")):
            return
        if legal["kind"] == "choice":
            self._submit_choice(legal, focus_arg=False)
        elif legal["kind"] == "text":
            text = self.query_one("#text", Input).value.strip()
            if not text:
                return self._error("type something first")
            self.post_message(self.Submitted({"text": text}))
        else:
            values = self.values()
            problem = check_form(legal, values)
            if problem:
                return self._error(problem)
            self.post_message(self.Submitted(values))

    def _submit_choice(self, legal: dict[str, Any], *, focus_arg: bool) -> None:
        """Send the highlighted option; with `focus_arg`, an option that takes an argument moves
        the focus to it instead (enter on the list)."""
        ol = self.query_one("#choice", OptionList)
        if ol.highlighted is None:
            return self._error("pick an option first")
        option = legal["options"][ol.highlighted]
        arg_field = option.get("arg")
        if not arg_field:
            self.post_message(self.Submitted({"choice": option["id"]}))
            return
        widget = self.query_one(f"#arg-{ol.highlighted}")
        if focus_arg:
            widget.focus()
            return
        value = _read(arg_field, widget)
        problem = check_field(arg_field, value)
        if problem:
            widget.focus()
            return self._error(problem)
        action: dict[str, Any] = {"choice": option["id"]}
        if value is not None:
            action["arg"] = value
        self.post_message(self.Submitted(action))

    def _show_arg(self, index: int | None) -> None:
        """Show only the argument input of the highlighted option (if it takes one)."""
        for i, _ in enumerate((self.legal or {}).get("options", [])):
            for w in self.query(f"#arg-{i}"):
                w.display = i == index

    def _error(self, text: str) -> None:
        self.query_one("#form-error", Static).update(text)
        self.app.bell()

    @on(Input.Submitted)
    def _input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(OptionList.OptionHighlighted)
    def _option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        for error in self.query("#form-error").results(Static):
            error.update("")
        self._show_arg(event.option_index)

    @on(OptionList.OptionSelected)
    def _option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.legal:
            self._submit_choice(self.legal, focus_arg=True)


def _value_widget(f: dict[str, Any], wid: str) -> Widget:
    """The input for one field (or option argument) `f`, with DOM id `wid`."""
    optional = f.get("optional") and f["kind"] != "bool"  # a checkbox always has a value
    label = f["label"] + (" (optional)" if optional else "")
    default = f.get("default")
    if f["kind"] == "choice":
        opts = [(o["id"], o["label"]) for o in f.get("options", [])]
        if f.get("optional"):
            opts.insert(0, (NONE_ID, "(none)"))
            default = NONE_ID if default is None else default
        return Cycler(label, opts, default, id=wid, classes="form-field")
    if f["kind"] == "bool":
        return BoolField(Text(label), bool(default), id=wid, classes="form-field")
    input_type = {"int": "integer", "float": "number"}.get(f["kind"], "text")
    placeholder = label
    if f["kind"] == "float" and (f.get("min") is not None or f.get("max") is not None):
        lo = "" if f.get("min") is None else f["min"]
        hi = "" if f.get("max") is None else f["max"]
        placeholder = f"{label} [{lo}..{hi}]"
    return Input("" if default is None else str(default), placeholder=placeholder,
                 type=input_type, max_length=f.get("max_chars") or 0, id=wid,
                 classes="form-field")


def _read(f: dict[str, Any], w: Any) -> Any:
    """The value of field `f` from its widget: None when left empty (blank text, "(none)")."""
    if isinstance(w, Cycler):
        return None if f.get("optional") and w.value == NONE_ID else w.value
    if isinstance(w, Checkbox):
        return bool(w.value)
    raw = w.value.strip() if f["kind"] in ("int", "float") else w.value
    if f["kind"] == "text":
        return raw if raw.strip() else None
    if not raw:
        return None
    try:
        number = int(raw) if f["kind"] == "int" else float(raw)
    except ValueError:
        return raw  # not a number: check_field says so
    return number if f["kind"] == "int" or math.isfinite(number) else raw


def _describe_constraints(cons: dict[str, Any]) -> str:
    parts = []
    if "sum_max" in cons:
        parts.append(f"total at most {cons['sum_max']}")
    if "sum_eq" in cons:
        parts.append(f"total exactly {cons['sum_eq']}")
    parts.extend(f"{k} = {v}" for k, v in cons.items() if k not in ("sum_max", "sum_eq"))
    return "Constraints: " + ", ".join(parts)
