"""Shown while connecting, and when the connection failed or dropped (with the reason and retry)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.widgets import Static

from tui.screens.base import ParlorScreen
from tui.widgets.key_footer import KeyFooter


class ConnectScreen(ParlorScreen):
    KIND = "connect"
    BINDINGS = [Binding("r,enter", "retry", "Retry")]

    def __init__(self, error: str | None = None) -> None:
        super().__init__()
        self.error = error

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="connect-box"):
            yield Static(Text("Parlor", style="bold"), id="connect-title")
            yield Static(id="connect-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.show_status()

    def show_status(self) -> None:
        status = self.query_one("#connect-status", Static)
        url, name = self.session.url, self.session.name
        if self.error:
            text = Text()
            text.append("Could not connect\n", style="bold red")
            text.append(self.error + "\n\n")
            text.append("Press r to retry, Ctrl+Q to quit.", style="dim")
            status.update(text)
        else:
            status.update(Text(f"Connecting to {url} as {name}…"))

    def action_retry(self) -> None:
        self.error = None
        self.show_status()
        self.parlor.connect()

    def failed(self, error: str) -> None:
        self.error = error
        if self.is_mounted:
            self.show_status()
