"""Asks for the player's name before connecting: the first screen of a browser tab
(`parlor web`), where nobody typed `--name`. A name the server refused comes back here with
the server's reason, to pick another."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Center, Vertical
from textual.widgets import Input, Static

from server.wire.protocol import MAX_NAME_CHARS
from tui.screens.base import ParlorScreen
from tui.widgets.key_footer import KeyFooter


class NameScreen(ParlorScreen):
    KIND = "name"

    def __init__(self, error: str | None = None) -> None:
        super().__init__()
        self.error = error

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="connect-box"):
            yield Static(Text("Parlor", style="bold"), id="connect-title")
            yield Static(f"Your name at {self.session.url}:", classes="form-prompt")
            yield Input(placeholder="a name (Enter to join)", max_length=MAX_NAME_CHARS,
                        id="name-input")
            yield Static(self.error or "", id="name-error", classes="form-error")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#name-input", Input).focus()

    @on(Input.Submitted, "#name-input")
    def _named(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if not name:
            self.query_one("#name-error", Static).update("Type a name first.")
            return
        self.parlor.join_as(name)
