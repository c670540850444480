"""The 5x5 Codenames board. Each card shows its word and, once known, a letter for its colour
(R red, B blue, N neutral, A assassin): upper case on a revealed card, lower case for the key a
spymaster sees. Colours are component classes styled in parlor.tcss.

A card is `m word` (m: the colour letter, blank while unknown), and cards are one space apart;
long words are cut with "…" when the board is narrower than 5 x 14 columns.

On the operative's turn the board takes the keys: arrows move the marker, typing letters jumps
to the first hidden word that starts with them, Backspace takes a letter back, Enter guesses the
marked word (or passes when `pass` is typed), ctrl+p passes.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

COLUMNS = 5
LETTER = {"red": "r", "blue": "b", "neutral": "n", "assassin": "a"}
MAX_WORD = 11  # the bank's longest word


class CnBoard(Widget, can_focus=True):
    COMPONENT_CLASSES = {
        "cn-board--hidden", "cn-board--cursor", "cn-board--hint", "cn-board--red-key",
        "cn-board--blue-key", "cn-board--neutral-key", "cn-board--assassin-key",
        "cn-board--red", "cn-board--blue", "cn-board--neutral", "cn-board--assassin",
    }
    BINDINGS = [
        Binding("up", "move(-5)", "Up", show=False),
        Binding("down", "move(5)", "Down", show=False),
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("backspace", "erase", "Erase a letter", show=False),
        Binding("enter", "guess", "Guess"),
        Binding("ctrl+p", "pass_turn", "Pass"),
    ]

    class Guess(Message):
        def __init__(self, word: str) -> None:
            super().__init__()
            self.word = word

    class Pass(Message):
        """The operative stops guessing."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.words: list[str] = []
        self.revealed: list[str | None] = []
        self.key: list[str] | None = None
        self.active = False  # our guess is awaited
        self.cursor = 0
        self.typed = ""
        self.note = ""

    def show(self, words: Sequence[str], revealed: Sequence[str | None],
             key: Sequence[str] | None, active: bool) -> None:
        self.words, self.revealed = list(words), list(revealed)
        self.key = list(key) if key else None
        if active and not self.active:
            self.typed, self.note = "", ""
            if self.cursor >= len(self.words) or not self._hidden(self.cursor):
                self.cursor = next((i for i in range(len(self.words)) if self._hidden(i)), 0)
        self._activate(active)
        self.refresh(layout=True)

    def _activate(self, active: bool) -> None:
        """Our guess is awaited or not: the footer's Guess and Pass keys follow."""
        if active != self.active:
            self.active = active
            self.refresh_bindings()

    def _hidden(self, i: int) -> bool:
        return 0 <= i < len(self.revealed) and self.revealed[i] is None

    # -- keys ----------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("guess", "pass_turn", "move", "erase"):
            return self.active
        return True

    def action_move(self, step: int) -> None:
        if self.words:
            self.cursor = min(max(self.cursor + step, 0), len(self.words) - 1)
            self.typed = ""
            self.refresh()

    def action_erase(self) -> None:
        self.typed = self.typed[:-1]
        self._jump()

    def on_key(self, event: events.Key) -> None:
        char = event.character
        if self.active and char is not None and char.isascii() and char.isalpha():
            event.stop()
            self.typed += char.lower()
            self._jump()

    def _jump(self) -> None:
        found = next((i for i, w in enumerate(self.words)
                      if self._hidden(i) and w.startswith(self.typed)), None) if self.typed \
            else None
        if found is not None:
            self.cursor, self.note = found, ""
        elif self.typed:
            self.note = ("Enter passes" if "pass".startswith(self.typed) else
                         f"no hidden word starts with '{self.typed}'")
        self.refresh()

    def action_guess(self) -> None:
        if not self.active:
            return
        if self.typed == "pass" and not any(w.startswith("pass") for w in self.words):
            self.action_pass_turn()
            return
        if not self._hidden(self.cursor):
            self.note = f"'{self.words[self.cursor]}' is already revealed"
            self.app.bell()
            self.refresh()
            return
        self._activate(False)
        self.post_message(self.Guess(self.words[self.cursor]))
        self.refresh()

    def action_pass_turn(self) -> None:
        if self.active:
            self._activate(False)
            self.post_message(self.Pass())
            self.refresh()

    # -- drawing -------------------------------------------------------------------------------
    def _gap(self) -> bool:
        return not self.screen.has_class("-narrow")

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        rows = -(-len(self.words) // COLUMNS) if self.words else 0
        return rows + (rows - 1 if self._gap() and rows else 0) + 1

    def on_resize(self) -> None:
        self.refresh(layout=True)

    def render(self) -> Text:
        text = Text()
        if not self.words:
            return text
        longest = max(len(w) for w in self.words)
        width = max(4, min(longest, MAX_WORD, (self.size.width + 1) // COLUMNS - 3))
        for i, word in enumerate(self.words):
            if i and i % COLUMNS == 0:
                text.append("\n\n" if self._gap() else "\n")
            elif i:
                text.append(" ")
            text.append_text(self._card(i, word, width))
        text.append("\n")
        text.append_text(self._hint())
        return text

    def _card(self, i: int, word: str, width: int) -> Text:
        shown = self.revealed[i] if i < len(self.revealed) else None
        known = self.key[i] if self.key and i < len(self.key) else None
        if shown is not None:
            mark, cls = LETTER.get(shown, "?").upper(), f"cn-board--{shown}"
        elif known is not None:
            mark, cls = LETTER.get(known, "?"), f"cn-board--{known}-key"
        else:
            mark, cls = " ", "cn-board--hidden"
        label = word if len(word) <= width else word[:width - 1] + "…"
        style = self.get_component_rich_style(cls, partial=True)
        if self.active and i == self.cursor:
            style += self.get_component_rich_style("cn-board--cursor", partial=True)
        return Text(f"{mark} {label:<{width}}", style=style)

    def _hint(self) -> Text:
        hint = self.get_component_rich_style("cn-board--hint", partial=True)
        if not self.active:
            return Text("")
        line = Text("←↑↓→ move · type to jump · Enter guess · ^p pass", style=hint)
        if self.typed:
            line.append(f"   typed: {self.typed}", style="bold")
        if self.note:
            line.append(f"   {self.note}", style="bold red")
        return line
