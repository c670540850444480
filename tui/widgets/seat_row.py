"""One seat of a new table: who sits there (a person, a server bot or an LLM bot) and, for an
LLM bot, its spec with what is wrong with it. Shift+↑/↓ swap the seat with its neighbour, so a
person chooses the seat they sit in."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from tui.widgets.cycler import Cycler
from tui.widgets.spec_input import SpecInput

LLM = "llm"  # the seat option whose spec is typed in the row's own input


class SeatRow(Vertical):
    BINDINGS = [
        Binding("shift+up", "move(-1)", "Move seat", key_display="⇧↑↓"),
        Binding("shift+down", "move(1)", "Move seat", show=False),
    ]

    class Move(Message):
        """Swap this seat's choice with the seat `delta` rows away."""

        def __init__(self, row: SeatRow, delta: int) -> None:
            super().__init__()
            self.row = row
            self.delta = delta

    class Changed(Message):
        """The seat's kind or spec changed."""

        def __init__(self, row: SeatRow) -> None:
            super().__init__()
            self.row = row

    def __init__(self, seat: int, label: str, options: Sequence[tuple[str, str]], value: str,
                 *, id: str | None = None) -> None:
        super().__init__(id=id, classes="seat")
        self.seat = seat
        self.label = label
        self.options = options
        self.initial = value

    def compose(self) -> ComposeResult:
        yield Cycler(self.label, self.options, self.initial, classes="seat-kind")
        yield SpecInput(classes="seat-spec")
        yield Static(classes="seat-problem")

    def on_mount(self) -> None:
        self.show_spec()

    @property
    def kind(self) -> str:
        return self.query_one(Cycler).value

    @property
    def typed(self) -> str:
        return self.query_one(SpecInput).value.strip()

    @property
    def spec(self) -> str:
        """The seat spec to send: "human", a bot identity, or the typed LLM spec."""
        return self.typed if self.kind == LLM else self.kind

    @property
    def problem(self) -> str | None:
        return self.query_one(SpecInput).problem if self.kind == LLM else None

    def assign(self, kind: str, typed: str) -> None:
        cycler = self.query_one(Cycler)
        cycler.set_options(cycler.options, kind)
        self.query_one(SpecInput).value = typed
        self.show_spec()

    def set_label(self, label: str) -> None:
        cycler = self.query_one(Cycler)
        cycler.label = label
        cycler.refresh()

    def show_spec(self, shout: bool = False) -> None:
        """The spec input and its message, for an LLM seat only. Until something is typed (or
        `shout`, on a refused create) an empty spec gets a hint rather than an error."""
        llm = self.kind == LLM
        spec = self.query_one(SpecInput)
        spec.display = llm
        note = self.query_one(".seat-problem", Static)
        note.display = llm
        if llm:
            problem = spec.problem
            if problem is None:
                note.update(Text("✓ well formed; the server checks the model and its key",
                                 style="green"))
            elif not spec.value and not shout:
                note.update(Text(f"{problem} (keys come from the server's environment)",
                                 style="dim"))
            else:
                note.update(Text(problem, style="bold red"))

    def focus_kind(self) -> None:
        self.query_one(Cycler).focus()

    def action_move(self, delta: int) -> None:
        self.post_message(self.Move(self, delta))

    @on(Cycler.Changed)
    def _kind_changed(self, event: Cycler.Changed) -> None:
        event.stop()
        if self.is_mounted:
            self.show_spec()
        self.post_message(self.Changed(self))

    @on(Input.Changed)
    def _spec_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.show_spec()
        self.post_message(self.Changed(self))
