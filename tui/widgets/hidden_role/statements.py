"""Hidden Role Deduction's statements so far, as a table grouped by round: a row per statement
that reads as a sentence under the headers Player / says ("Player 3 | Player 5 | IS the
criminal"), the round's number on every row (dimmed after its first), the newest round
highlighted and marked "▸" while the game runs, Player 1's
own rows and the statements about Player 1 marked "(you)" (for a spectator, "(solver)"). Once
the game is over each speaker's true role follows their name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widgets import DataTable

COLUMNS = ("Round", "Player", "says", "")
SOLVER = 1  # the puzzle's Player 1 is the seat's own player
NEW = "▸ "  # before the newest round's number


def player_label(player: int, me: str = "you") -> str:
    """"Player 3", or "Player 1 (you)" for the seat's own player."""
    return f"Player {player}" + (f" ({me})" if player == SOLVER and me else "")


def verdict(claim: bool) -> str:
    return "IS the criminal" if claim else "is NOT the criminal"


def statement_cells(speaker: int, target: int, claim: bool, me: str = "you",
                    role: str | None = None) -> tuple[str, str, str]:
    """The plain Player / says (the player spoken of) / claim cells of one statement (`role`: the speaker's true role,
    shown once the game is over)."""
    who = player_label(speaker, me) + (f" · {role}" if role else "")
    return who, player_label(target, me), verdict(claim)


class HrStatements(DataTable):
    """`show` rebuilds the rows when a round is revealed (or the game ends) and scrolls so that
    the newest round is in view, with as much of the earlier rounds above it as fits."""

    COMPONENT_CLASSES = {"hr-statements--newest", "hr-statements--you", "hr-statements--is",
                         "hr-statements--not", "hr-statements--round", "hr-statements--later"}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, cursor_type="none", zebra_stripes=False)
        self._state: tuple[Any, ...] | None = None
        self._newest_row: int | None = None  # scroll to it once the new rows are measured

    def on_mount(self) -> None:
        # The table measures new rows when idle, and the widgets around it may take or give back
        # lines (a new answer, the form): scroll again whenever either size changes.
        self.watch(self, "virtual_size", self._show_newest, init=False)

    def on_resize(self) -> None:
        self._show_newest()

    def show(self, statements: Sequence[Sequence[Any]], newest: int, *, me: str = "you",
             roles: Mapping[str, str] | None = None, over: bool = False) -> None:
        """`statements`: the view's [round, speaker, target, claim] rows; `newest`: the round
        revealed last; `roles`: "Player N" -> true role, once revealed."""
        rows = [tuple(s) for s in statements if len(s) == 4]
        state = (tuple(rows), newest, me, tuple((roles or {}).items()), over)
        if state == self._state:
            return
        self._state = state
        self.clear()
        if not self.columns:
            self.add_columns(*COLUMNS)
        style = {name: self.get_component_rich_style(f"hr-statements--{name}", partial=True)
                 for name in ("newest", "you", "is", "not", "round", "later")}
        first_new: int | None = None
        previous = None
        for index, (round_, speaker, target, claim) in enumerate(rows):
            fresh = round_ == newest and not over
            if fresh and first_new is None:
                first_new = index
            first = round_ != previous  # the round's number on every row, plain on its first
            label = (NEW if fresh and first else "  " if fresh else "") + str(round_)
            previous = round_
            who, says, said = statement_cells(speaker, target, claim, me,
                                              (roles or {}).get(f"Player {speaker}"))
            base = style["newest"] if fresh else Style()
            self.add_row(Text(label, style=base + style["round" if first else "later"]),
                         Text(who, style=base + (style["you"] if speaker == SOLVER else Style())),
                         Text(says, style=base + (style["you"] if target == SOLVER else Style())),
                         Text(said, style=base + style["is" if claim else "not"]))
        self._newest_row = first_new
        self.call_after_refresh(self._show_newest)

    def _show_newest(self) -> None:
        """Scroll to the end, but no further than the newest round's first row at the top."""
        if self._newest_row is not None:
            self.scroll_to(y=min(self._newest_row, self.max_scroll_y), animate=False)

    def lines(self) -> list[str]:
        """The rows as a person reads them: the cells' text joined by " | " (tests, tools)."""
        return [" | ".join((cell.plain if isinstance(cell, Text) else str(cell)).strip()
                           for cell in self.get_row_at(i)) for i in range(self.row_count)]
