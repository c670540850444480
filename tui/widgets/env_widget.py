"""Base of every game widget: shows the session's game and asks the screen to send actions."""

from __future__ import annotations

from typing import Any

from textual.message import Message
from textual.widget import Widget

from tui.session import Session


class EnvWidget(Widget):
    """A game area for one env. The game screen calls `show` whenever the model changes."""

    SHOWS_PRIVATE = False  # True: it shows the seat's private view (the screen's panel hides)

    class Act(Message):
        """The player decided: `action` is a structured action built from `legal` (or text)."""

        def __init__(self, action: str | dict[str, Any]) -> None:
            super().__init__()
            self.action = action

    def show(self, session: Session) -> None:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def seat_name(self, session: Session, seat: int) -> str:
        return session.seat_name(seat)
