"""A form built from any `legal` action space: choice -> option list, text -> input, form -> fields.

It checks what it can before sending (int bounds, sum_max / sum_eq); the server judges the rest.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from tui.widgets.cycler import Cycler


def check_form(legal: dict[str, Any], values: dict[str, Any]) -> str | None:
    """Why a form answer breaks `legal`'s bounds or constraints, or None when it fits."""
    for f in legal.get("fields", []):
        v = values.get(f["name"])
        if f["kind"] == "int":
            if not isinstance(v, int):
                return f"{f['label']} needs a whole number"
            if f.get("min") is not None and v < f["min"]:
                return f"{f['label']} must be at least {f['min']}"
            if f.get("max") is not None and v > f["max"]:
                return f"{f['label']} must be at most {f['max']}"
        if f["kind"] == "text" and f.get("max_chars") and len(v or "") > f["max_chars"]:
            return f"{f['label']} is longer than {f['max_chars']} characters"
    ints = [v for v in values.values() if isinstance(v, int)]
    cons = legal.get("constraints") or {}
    if "sum_max" in cons and sum(ints) > cons["sum_max"]:
        return f"the total {sum(ints)} exceeds {cons['sum_max']}"
    if "sum_eq" in cons and sum(ints) != cons["sum_eq"]:
        return f"the total must be exactly {cons['sum_eq']}, it is {sum(ints)}"
    return None


class ActionForm(Vertical):
    """Rebuilds itself for each new `legal`; posts `Submitted` with a structured action."""

    BINDINGS = [Binding("ctrl+s", "submit", "Submit", show=True)]

    class Submitted(Message):
        def __init__(self, action: dict[str, Any]) -> None:
            super().__init__()
            self.action = action

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.legal: dict[str, Any] | None = None
        self._built = False

    def compose(self) -> ComposeResult:
        yield Static("Waiting for the other players…", classes="form-status")

    def show(self, legal: dict[str, Any] | None) -> None:
        if self._built and legal == self.legal:
            return
        self.legal = legal
        self._built = True
        self.call_later(self._rebuild)

    async def _rebuild(self) -> None:
        await self.remove_children()
        legal = self.legal
        if not legal or (legal["kind"] == "choice" and not legal.get("options")):
            await self.mount(Static("Waiting for the other players…", classes="form-status"))
            return
        widgets: list[Any] = [Label(legal.get("prompt", ""), classes="form-prompt", markup=False)]
        if legal["kind"] == "choice":
            widgets.append(OptionList(*[Option(o["label"], id=o["id"]) for o in legal["options"]],
                                      id="choice"))
        elif legal["kind"] == "text":
            widgets.append(Input(placeholder=legal.get("syntax") or "type your answer",
                                 max_length=legal.get("max_chars") or 0, id="text"))
        else:
            widgets.extend(self._field_widget(f) for f in legal.get("fields", []))
            if legal.get("constraints"):
                widgets.append(Static(_describe_constraints(legal["constraints"]),
                                      classes="form-hint"))
        widgets.append(Static("", id="form-error", classes="form-error"))
        await self.mount(*widgets)
        for w in widgets:
            if isinstance(w, OptionList):
                w.highlighted = 0  # a choice always has one option under the cursor
        focusable = [w for w in widgets if w.can_focus]
        if focusable:
            focusable[0].focus()

    def _field_widget(self, f: dict[str, Any]) -> Any:
        wid = f"field-{f['name']}"
        if f["kind"] == "choice":
            opts = [(o["id"], o["label"]) for o in f.get("options", [])]
            return Cycler(f["label"], opts, f.get("default"), id=wid, classes="form-field")
        default = f.get("default")
        return Input("" if default is None else str(default), placeholder=f["label"],
                     type="integer" if f["kind"] == "int" else "text",
                     max_length=f.get("max_chars") or 0, id=wid, classes="form-field")

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in (self.legal or {}).get("fields", []):
            w = self.query_one(f"#field-{f['name']}")
            if isinstance(w, Cycler):
                out[f["name"]] = w.value
            elif f["kind"] == "int":
                raw = w.value.strip()  # type: ignore[attr-defined]
                out[f["name"]] = int(raw) if raw.lstrip("-").isdigit() else None
            else:
                out[f["name"]] = w.value  # type: ignore[attr-defined]
        return out

    def action_submit(self) -> None:
        legal = self.legal
        if not legal:
            return
        if legal["kind"] == "choice":
            ol = self.query_one("#choice", OptionList)
            if ol.highlighted is None:
                return self._error("pick an option first")
            option = ol.get_option_at_index(ol.highlighted)
            self.post_message(self.Submitted({"choice": option.id}))
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

    def _error(self, text: str) -> None:
        self.query_one("#form-error", Static).update(text)
        self.app.bell()

    @on(Input.Submitted)
    def _input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(OptionList.OptionSelected)
    def _option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_submit()


def _describe_constraints(cons: dict[str, Any]) -> str:
    parts = []
    if "sum_max" in cons:
        parts.append(f"total at most {cons['sum_max']}")
    if "sum_eq" in cons:
        parts.append(f"total exactly {cons['sum_eq']}")
    parts.extend(f"{k} = {v}" for k, v in cons.items() if k not in ("sum_max", "sum_eq"))
    return "Constraints: " + ", ".join(parts)
