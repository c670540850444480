"""Asks for the player's name before connecting: the first screen of a browser tab
(`parlor web`), where nobody typed `--name`. A name the server refused comes back here with
the server's reason, to pick another; on an invite-only server a new name's refusal for want
of a good invite comes back here too, now also asking for the host's invite code, the name
kept as typed."""

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

    def __init__(self, error: str | None = None, *, ask_invite: bool = False) -> None:
        super().__init__()
        self.error = error
        self.ask_invite = ask_invite

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="connect-box"):
            yield Static(Text("Parlor", style="bold"), id="connect-title")
            yield Static(f"Your name at {self.session.url}:", classes="form-prompt")
            yield Input(self.session.name, placeholder="a name (Enter to join)",
                        max_length=MAX_NAME_CHARS, id="name-input")
            if self.ask_invite:
                yield Static("Invite code from the host:", classes="form-prompt")
                # the code typed before, to mend a typo (focus selects it: typing replaces it)
                yield Input(self.parlor.invite or "", placeholder="the code (Enter to join)",
                            id="invite-input")
            yield Static(self.error or "", id="name-error", classes="form-error")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#invite-input" if self.ask_invite else "#name-input", Input).focus()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        name = self.query_one("#name-input", Input).value.strip()
        if not name:
            self._refuse("#name-input", "Type a name first.")
            return
        invite = None
        if self.ask_invite:
            invite = self.query_one("#invite-input", Input).value.strip()
            if not invite:
                self._refuse("#invite-input", "Type the invite code the host gave you.")
                return
        self.parlor.join_as(name, invite)

    def _refuse(self, field: str, reason: str) -> None:
        self.query_one("#name-error", Static).update(reason)
        self.query_one(field, Input).focus()
