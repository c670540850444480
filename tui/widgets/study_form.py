"""A study's demographics form (`study.form` from the server): a text box, a number box or a
list per field, every answer optional unless the field is required. `answers()` checks them as
the server will (server/store/study.py) and says what is wrong in words."""

from __future__ import annotations

import math
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Label, Select


class StudyForm(Vertical):
    def __init__(self, fields: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fields = fields

    def compose(self) -> ComposeResult:
        for f in self.fields:
            mark = " *" if f.get("required") else ""
            yield Label(f"{f['label']}{mark}{_hint(f)}", classes="form-label")
            if f["type"] == "choice":
                yield Select([(c, c) for c in f["choices"]], prompt="(no answer)",
                             id=f"study-{f['id']}")
            else:
                yield Input(id=f"study-{f['id']}",
                            max_length=f.get("max_chars", 0) if f["type"] == "text" else 24,
                            type="number" if f["type"] == "number" else "text")

    def answers(self) -> tuple[dict[str, Any], str | None]:
        """(answers to send, None), or ({}, what is wrong with the first wrong one)."""
        out: dict[str, Any] = {}
        for f in self.fields:
            if f["type"] == "choice":
                value: Any = self.query_one(f"#study-{f['id']}", Select).value
                value = None if value is Select.BLANK else value
            else:
                value = self.query_one(f"#study-{f['id']}", Input).value.strip() or None
            if value is None:
                if f.get("required"):
                    return {}, f"{f['label']}: an answer is required"
                continue
            if f["type"] == "number":
                problem = _number_problem(f, value)
                if problem:
                    return {}, f"{f['label']}: {problem}"
                number = float(value)
                value = int(number) if f.get("integer", True) else number
            out[f["id"]] = value
        return out, None


def _hint(f: dict[str, Any]) -> str:
    if f["type"] == "number" and (f.get("min") is not None or f.get("max") is not None):
        return f"  ({_num(f.get('min'))}–{_num(f.get('max'))})"
    if f["type"] == "text":
        return f"  (at most {f.get('max_chars')} characters)"
    return ""


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _number_problem(f: dict[str, Any], text: str) -> str | None:
    try:
        number = float(text)
    except ValueError:
        return "a number is needed"
    if not math.isfinite(number):
        return "a number is needed"
    if f.get("integer", True) and number != int(number):
        return "a whole number is needed"
    low, high = f.get("min"), f.get("max")
    if (low is not None and number < low) or (high is not None and number > high):
        return f"a number from {_num(low) or 'any'} to {_num(high) or 'any'}"
    return None
