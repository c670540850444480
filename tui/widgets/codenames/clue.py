"""The spymaster's clue box: type `ocean 2`, see at once whether the clue is legal, Enter sends.

The TUI never imports the engine (docs/architecture.md), so the illegal-clue rule is written
here again from the rules page (docs/rules/codenames.md): a clue may not be a board word, part
of one, or contain one, ignoring case, revealed words included. The server judges the clue
again with the engine's own rule; this copy only keeps a person from sending a clue that would
lose the game, and tests/codenames checks that both agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

MAX_CLUE_CHARS = 24
PLACEHOLDER = "Clue: a word and a number, e.g. ocean 2"
CLOSED = "The clue box opens on your turn"


@dataclass(frozen=True)
class ClueCheck:
    """What the typed text would be: `action` to send (None: nothing sendable yet), a message,
    and whether it is a problem (`bad`) or a note on a clue still being typed."""

    action: dict[str, Any] | str | None
    message: str
    bad: bool = False


def conflict(word: str, words: Sequence[str]) -> str | None:
    """The board word that makes `word` an illegal clue, or None."""
    clue = word.casefold()
    for board_word in words:
        other = board_word.casefold()
        if clue in other or other in clue:
            return board_word
    return None


def check_clue(text: str, words: Sequence[str], max_number: int) -> ClueCheck:
    """Judge what the spymaster has typed so far."""
    parts = text.strip().strip("[]").split()
    if not parts:
        return ClueCheck(None, "Type a clue word, a space and a number, e.g. ocean 2.")
    if len(parts) == 1 and parts[0].lower() == "pass":
        return ClueCheck("[pass]", "Enter gives no clue: the turn goes to the other team.")
    word = parts[0]
    if not (word.isascii() and word.isalpha()) or len(word) > MAX_CLUE_CHARS:
        return ClueCheck(None, f"A clue is one word of letters a-z (at most {MAX_CLUE_CHARS}).",
                         bad=True)
    found = conflict(word, words)
    if found is not None:
        how = ("is on the board" if word.casefold() == found.casefold() else
               f"is part of '{found}'" if word.casefold() in found.casefold() else
               f"contains '{found}'")
        return ClueCheck(None, f"Illegal: '{word.lower()}' {how}. This clue would lose the "
                               f"game; it will not be sent.", bad=True)
    if len(parts) == 1:
        return ClueCheck(None, f"'{word.lower()}' is legal. Now a space and the number "
                               f"(0-{max_number}).")
    if len(parts) > 2:
        return ClueCheck(None, "One word only, then its number.", bad=True)
    number = parts[1]
    if not (number.isascii() and number.isdigit()) or int(number) > max_number:
        return ClueCheck(None, f"The number is a whole number from 0 to {max_number}.", bad=True)
    count = int(number)
    return ClueCheck({"word": word.lower(), "number": count},
                     f"[{word.lower()} {count}] is legal: your operative may guess up to "
                     f"{count + 1} word{'s' if count else ''}. Enter sends it.")


class ClueBox(Vertical):
    """The clue line and its live verdict. Posts `Submitted` with a sendable action only."""

    DEFAULT_CSS = "ClueBox { height: auto; }"

    class Submitted(Message):
        def __init__(self, action: dict[str, Any] | str) -> None:
            super().__init__()
            self.action = action

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.words: list[str] = []
        self.max_number = 9

    def compose(self) -> ComposeResult:
        yield Input(placeholder=CLOSED, id="cn-clue", disabled=True,
                    max_length=MAX_CLUE_CHARS + 8)
        yield Static("", id="cn-check")

    def open(self, words: list[str], max_number: int) -> None:
        """Our turn to give a clue."""
        self.words, self.max_number = words, max_number
        line = self.query_one(Input)
        if line.disabled:
            line.disabled = False
            line.placeholder = PLACEHOLDER
            line.value = ""
            self._verdict(check_clue("", words, max_number))
        line.focus()

    def close(self, note: str = "") -> None:
        line = self.query_one(Input)
        if not line.disabled:
            line.disabled = True
            line.placeholder = CLOSED
            line.value = ""
        self.query_one("#cn-check", Static).update(Text(note, style="dim"))

    @property
    def is_open(self) -> bool:
        return not self.query_one(Input).disabled

    @on(Input.Changed, "#cn-clue")
    def _typed(self, event: Input.Changed) -> None:
        if self.is_open:
            self._verdict(check_clue(event.value, self.words, self.max_number))

    @on(Input.Submitted, "#cn-clue")
    def _send(self, event: Input.Submitted) -> None:
        event.stop()
        verdict = check_clue(event.value, self.words, self.max_number)
        if verdict.action is None:
            self._verdict(ClueCheck(None, f"Not sent. {verdict.message}", bad=True))
            self.app.bell()
            return
        self.post_message(self.Submitted(verdict.action))

    def _verdict(self, verdict: ClueCheck) -> None:
        style = "bold red" if verdict.bad else "green" if verdict.action else "dim"
        self.query_one("#cn-check", Static).update(Text(verdict.message, style=style))
