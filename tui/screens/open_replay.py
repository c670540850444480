"""Asks for a stored game's id to watch again (the lobby's g): any game of the server's
database, including those that were never a table of this run (`parlor sim`, campaigns).
Anything but a whole number the protocol accepts is refused here, in a line under the input;
what the server says of the id (no such game, a study's game one did not play, a rebuild that
differs) is the replay screen's to show."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from server.wire.protocol import MAX_SAFE_INT
from tui.widgets.key_footer import KeyFooter


def game_id_problem(text: str) -> str | None:
    """Why `text` is no game id (None: it is one)."""
    if not text:
        return "Type the game's id first: its number (`parlor sim --db` says which it stored)."
    if not (text.isascii() and text.isdigit()):
        return f"{text[:20]!r} is not a game id: type its number, digits only."
    if int(text) < 1:
        return "Game ids start at 1."
    if int(text) > MAX_SAFE_INT:
        return f"{text} is larger than any game id."
    return None


class OpenReplayScreen(ModalScreen[int | None]):
    """Dismissed with the game id typed, or None (Esc)."""

    KIND = "open_replay"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="open-replay-box"):
            yield Static(Text("Replay a game", style="bold"), classes="form-prompt")
            yield Static("The id of any game stored in this server's database:",
                         classes="form-hint")
            yield Input(placeholder="a game id (Enter to watch)", max_length=20,
                        id="open-replay-input")
            yield Static("", id="open-replay-error", classes="form-error")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#open-replay-input", Input).focus()

    @on(Input.Changed, "#open-replay-input")
    def _typed(self) -> None:
        self.query_one("#open-replay-error", Static).update("")

    @on(Input.Submitted, "#open-replay-input")
    def _chosen(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        problem = game_id_problem(text)
        if problem is not None:
            self.query_one("#open-replay-error", Static).update(problem)
            return
        self.dismiss(int(text))

    def action_cancel(self) -> None:
        self.dismiss(None)
