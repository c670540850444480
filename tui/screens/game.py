"""The game: header, the env's own widget (or the generic one), transcript and private panel.

The transcript shows the events the server sent (a resumed player or a late spectator gets the
latest ones). ctrl+o asks the server (`history`) for the page of events just before the earliest
one we have; each press goes one page further back, until the start of the game. The page shows
at the bottom of the transcript as a marked block of earlier lines, scrolled to its top.

After a reconnect, the events that went by while we were away and are not in the catch-up the
server sends (its latest 100) are fetched with `history`, page by page, and shown in their place
(the transcript holds the newer lines back until then); of a huge gap, only the latest
session.MAX_GAP seqs are fetched, and a note says ctrl+o pages back to the rest.

ctrl+l leaves the game from anywhere on the screen, the chat line included.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer

from tui.screens.base import ParlorScreen
from tui.widgets.env_widget import EnvWidget
from tui.widgets.game_header import GameHeader
from tui.widgets.private_panel import PrivatePanel
from tui.widgets.registry import widget_for
from tui.widgets.transcript import Transcript


class GameScreen(ParlorScreen):
    KIND = "game"
    # No plain letters (the chat line and forms take typing) and none an Input already uses
    # (ctrl+x is its "cut"). Leave is a priority binding: it works whatever has focus.
    BINDINGS = [
        Binding("ctrl+l", "leave", "Leave game", priority=True),
        Binding("ctrl+o", "earlier", "Earlier events"),
        Binding("ctrl+b", "scroll_transcript(-1)", "Scroll transcript", key_display="^b/^f"),
        Binding("ctrl+f", "scroll_transcript(1)", "Scroll transcript", show=False),
    ]

    def compose(self) -> ComposeResult:
        env_id = (self.session.table or {}).get("env", "")
        yield GameHeader(id="game-header")
        with Horizontal(id="game-body"):
            yield widget_for(self.session.env_info(env_id))(id="env-widget")
            with Vertical(id="game-side"):
                yield Transcript(id="transcript")
                yield PrivatePanel(id="private")
        yield Footer()

    def on_mount(self) -> None:
        self.render_session()

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "error":
            self.query_one(Transcript).note(f"{msg.get('code')}: {msg.get('message')}")
        if msg["type"] == "history" and not self.session.for_gap(msg):
            self._history_arrived()
        self.render_session()

    def render_session(self) -> None:
        s = self.session
        self.query_one(GameHeader).show(s)
        transcript = self.query_one(Transcript)
        transcript.show(s.events, s.seat_name, below=s.complete_below)
        self._fill_gap(transcript)
        self.query_one(PrivatePanel).show((s.view or {}).get("private"))
        self.query_one(EnvWidget).show(s)

    def _fill_gap(self, transcript: Transcript) -> None:
        """Ask for the next page of a reconnect gap (one request at a time)."""
        s = self.session
        skipped = s.take_skip_notice()
        if skipped is not None:
            transcript.skipped(*skipped)
        request = s.gap_request()
        if request is not None:
            s.gap_sent(self.client.send("history", **request))

    @on(EnvWidget.Act)
    def _act(self, event: EnvWidget.Act) -> None:
        s = self.session
        if s.turn is None or s.table is None:
            return
        self.client.send("act", table_id=s.table["id"], turn=s.turn["turn"], action=event.action)
        s.answered()
        self.render_session()

    def action_leave(self) -> None:
        table = self.session.table
        if table is not None:
            self.client.send("leave", table_id=table["id"])
        self.parlor.to_lobby()

    def action_earlier(self) -> None:
        s = self.session
        if s.fetching_earlier:
            return
        request = s.ask_earlier()
        if request is None:
            self.query_one(Transcript).note(
                "this is the start of the game" if s.at_start else "no events yet")
            return
        s.history_sent(self.client.send("history", **request))

    def action_scroll_transcript(self, pages: int) -> None:
        transcript = self.query_one(Transcript)
        transcript.scroll_relative(y=pages * max(1, transcript.scrollable_content_region.height
                                                 - 1), animate=False)

    def _history_arrived(self) -> None:
        s = self.session
        more = s.history_request()  # the rest of a page the server cut short
        if more is not None:
            s.history_sent(self.client.send("history", **more))
            return
        if s.fetching_earlier:
            return
        if not self.query_one(Transcript).show_earlier(s.earlier, s.seat_name) and s.at_start:
            self.query_one(Transcript).note("no earlier events: this is the start of the game")
