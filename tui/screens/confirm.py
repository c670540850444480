"""A yes/no question over the current screen, answered from the keyboard (y / n, Esc)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.widgets.key_footer import KeyFooter


class ConfirmScreen(ModalScreen[bool]):
    KIND = "confirm"
    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, detail: str = "", yes: str = "Yes", no: str = "No"
                 ) -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(Text(self.question, style="bold"))
            if self.detail:
                yield Static(self.detail, classes="form-hint")
            yield Static(Text.assemble(("y", "bold"), f" {self.yes}    ", ("n/Esc", "bold"),
                                       f" {self.no}"), id="confirm-keys")
        yield KeyFooter()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
