"""One toggle per choice field (IPD: cooperate/defect per opponent), all from the keyboard.

↑/↓ pick a row, ←/→ or space flip it, c / d set cooperate / defect, Enter submits.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class DecisionToggles(Widget, can_focus=True):
    DEFAULT_CSS = "DecisionToggles { height: auto; }"
    BINDINGS = [
        # The toggles print these keys themselves; the footer keeps its room for Submit.
        Binding("up", "row(-1)", "Previous opponent", show=False),
        Binding("down", "row(1)", "Next opponent", show=False),
        Binding("left,right,space", "flip", "Flip", show=False),
        Binding("c", "set('cooperate')", "Cooperate", show=False),
        Binding("d", "set('defect')", "Defect", show=False),
        Binding("enter", "submit", "Submit"),
    ]

    # Editing state of the current decision only; the game lives in the server's view.
    choices: reactive[tuple[str, ...]] = reactive(tuple, always_update=True, layout=True)
    row: reactive[int] = reactive(0)

    class Submitted(Message):
        def __init__(self, decision: dict[str, str]) -> None:
            super().__init__()
            self.decision = decision

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.fields: list[dict[str, Any]] = []
        self.active = False

    def start_turn(self, fields: list[dict[str, Any]]) -> None:
        self.fields = [f for f in fields if f.get("kind") == "choice" and f.get("options")]
        self.active = True
        self.refresh_bindings()
        self.row = 0
        self.choices = tuple(f.get("default") or f["options"][0]["id"] for f in self.fields)

    def hold(self) -> None:
        self.active = False
        self.refresh(layout=True)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Submit is offered only while a decision is being made (not to a spectator, nor once
        it is sent)."""
        return self.active if action == "submit" else True

    def decision(self) -> dict[str, str]:
        return {f["name"]: c for f, c in zip(self.fields, self.choices, strict=True)}

    def action_row(self, delta: int) -> None:
        """No wrap-around: ↑ on the first opponent stays there (a wrap once made a person
        defect on the wrong opponent)."""
        if self.fields:
            self.row = min(max(self.row + delta, 0), len(self.fields) - 1)

    def _put(self, value: str) -> None:
        if not self.active or not self.fields:
            return
        ids = [o["id"] for o in self.fields[self.row]["options"]]
        if value in ids:
            choices = list(self.choices)
            choices[self.row] = value
            self.choices = tuple(choices)

    def action_flip(self) -> None:
        if self.active and self.fields:
            ids = [o["id"] for o in self.fields[self.row]["options"]]
            self._put(ids[(ids.index(self.choices[self.row]) + 1) % len(ids)])

    def action_set(self, value: str) -> None:
        self._put(value)

    def action_submit(self) -> None:
        if self.active and self.fields:
            self.hold()
            self.post_message(self.Submitted(self.decision()))

    def render(self) -> Text:
        if not self.fields:
            return Text("")
        text = Text()
        width = max(len(f["label"]) for f in self.fields)
        for i, (f, choice) in enumerate(zip(self.fields, self.choices, strict=True)):
            pointer = "›" if i == self.row and self.active else " "
            text.append(f"{pointer} {f['label']:<{width}} ",
                        style="bold" if i == self.row else "")
            for o in f["options"]:
                picked = o["id"] == choice
                style = ("reverse bold green" if o["id"] == "cooperate" else "reverse bold red") \
                    if picked else "dim"
                text.append(f" {o['label']} ", style=style)
                text.append(" ")
            text.append("\n")
        if self.active:
            text.append("↑/↓ opponent  ←/→ flip  c/d cooperate/defect  Enter submit",
                        style="dim")
        else:
            text.append("Decision sent — waiting for the round to resolve…", style="italic")
        return text
