"""Base of every Parlor screen: access to the session model and the client, and server updates."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual.containers import ScrollableContainer
from textual.events import Resize
from textual.message import Message
from textual.screen import Screen

from tui.client import ParlorClient
from tui.session import Session

if TYPE_CHECKING:
    from tui.app import ParlorApp


NARROW_WIDTH = 110  # below this many columns screens lay out for a small terminal (80x24)


def scroll_pages(box: ScrollableContainer, pages: int) -> None:
    """Scroll `box` by `pages` of what it shows (a line kept from the last page), at once."""
    box.scroll_relative(y=pages * max(1, box.scrollable_content_region.height - 1),
                        animate=False)


class ParlorScreen(Screen):
    """Marked `-narrow` (for the .tcss) while the terminal is under NARROW_WIDTH columns."""

    KIND: ClassVar[str] = ""

    class Update(Message, bubble=False):
        """A server message the app has folded into the session; re-render what it touched."""

        def __init__(self, msg: dict[str, Any]) -> None:
            super().__init__()
            self.msg = msg

    @property
    def parlor(self) -> ParlorApp:
        return cast("ParlorApp", self.app)

    @property
    def session(self) -> Session:
        return self.parlor.session

    @property
    def client(self) -> ParlorClient:
        return self.parlor.client

    def on_resize(self, event: Resize) -> None:
        narrow = event.size.width < NARROW_WIDTH
        if narrow != self.has_class("-narrow"):
            self.set_class(narrow, "-narrow")
            self.refresh_bindings()  # some keys exist only in one layout

    @property
    def narrow(self) -> bool:
        return self.has_class("-narrow")

    def on_parlor_screen_update(self, event: Update) -> None:
        self.server_update(event.msg)

    def server_update(self, msg: dict[str, Any]) -> None:
        """Override to react to server messages while this screen is shown."""
