"""Base of every game widget: shows the session's game and asks the screen to send actions."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from rich.console import RenderableType
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

    class Preview(Message):
        """Ask what the rules would say of a draft `action` (a live warning while typing): the
        server's answer arrives in the session as `preview`."""

        def __init__(self, action: str | dict[str, Any]) -> None:
            super().__init__()
            self.action = action

    def show(self, session: Session) -> None:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def reveal(self, setup: Mapping[str, Any], names: Mapping[int, str]
               ) -> tuple[RenderableType, Collection[str]] | None:
        """The hidden setup drawn as the game shows it, and the setup keys that covers; None:
        the result screen lists every key in words."""
        return None

    def seat_name(self, session: Session, seat: int) -> str:
        return session.seat_name(seat)
