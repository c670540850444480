"""A line for what a player says (a speech, a description): open and focused on the player's
turn, with a hint of what to write and the game's length limit; otherwise disabled, empty and
saying when it opens."""

from __future__ import annotations

from textual.widgets import Input


class SpeechLine(Input):
    def __init__(self, quiet: str, *, id: str | None = None) -> None:
        super().__init__(placeholder=quiet, id=id, disabled=True)
        self.quiet_hint = quiet

    def open(self, hint: str, max_chars: int | None) -> None:
        """Ready for the player's words (`max_chars` None or 0: no limit)."""
        self.disabled = False
        self.value = ""
        self.placeholder = hint
        self.max_length = max_chars or 0
        self.focus()

    def quiet(self) -> None:
        """Closed until the player's next turn to speak; what was typed is dropped."""
        if not self.disabled:
            self.value = ""
            self.disabled = True
            self.placeholder = self.quiet_hint
