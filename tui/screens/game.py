"""The game: header, the env's own widget (or the generic one), transcript and private panel.

The transcript shows the events the server sent (a resumed player or a late spectator gets the
latest ones). ctrl+o asks the server (`history`) for the page of events just before the earliest
one we have; each press goes one page further back, until the start of the game. The page shows
at the bottom of the transcript as a marked block of earlier lines, scrolled to its top.

After a reconnect, the events that went by while we were away and are not in the catch-up the
server sends (its latest 100) are fetched with `history`, page by page, and shown in their place
(the transcript holds the newer lines back until then); of a huge gap, only the latest
session.MAX_GAP seqs are fetched, and a note says ctrl+o pages back to the rest.

ctrl+l leaves from anywhere on the screen, the chat line included. A player is asked first:
leaving a running game is resigning it (the server rates it as a loss), and the result screen
follows. A spectator just stops watching. On a narrow terminal the transcript and private panel
hide behind ctrl+t, so the game itself keeps the whole width.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical

from tui.screens.base import ParlorScreen
from tui.screens.confirm import ConfirmScreen
from tui.screens.help import HELP_BINDING, open_help
from tui.screens.replay import ReplayScreen
from tui.widgets.action_form import ActionForm
from tui.widgets.env_widget import EnvWidget
from tui.widgets.game_header import GameHeader
from tui.widgets.key_footer import KeyFooter
from tui.widgets.private_panel import PrivatePanel
from tui.widgets.registry import widget_for
from tui.widgets.seat_notice import SeatNotice
from tui.widgets.transcript import Transcript

LEAVE_WAIT = 5.0  # seconds to wait for the server's game_over after leaving, then the lobby


class GameScreen(ParlorScreen):
    KIND = "game"
    # No plain letters (the chat line and forms take typing) and none an Input already uses
    # (ctrl+x is its "cut"). Leave is a priority binding: it works whatever has focus.
    BINDINGS = [
        Binding("ctrl+l", "leave", "Leave game", priority=True),
        Binding("ctrl+l,escape", "stop_watching", "Stop watching", priority=True),
        Binding("ctrl+t", "toggle_side", "Transcript", priority=True),
        Binding("ctrl+o", "earlier", "Earlier events"),
        # A spectator has no form to type in: a plain letter is free.
        Binding("o", "omniscient", "Omniscient (delayed)"),
        Binding("ctrl+b", "scroll_transcript(-1)", "Scroll transcript", key_display="^b/^f",
                show=False),
        Binding("ctrl+f", "scroll_transcript(1)", "Scroll transcript", show=False),
        HELP_BINDING,
        Binding("f1", "help", "Help", show=False, priority=True),
    ]

    _rendered_turn: int | None = None  # the decision of ours the widgets last showed, if any

    def compose(self) -> ComposeResult:
        env_id = (self.session.table or {}).get("env", "")
        yield GameHeader(id="game-header")
        yield SeatNotice(id="seat-notice")
        with Horizontal(id="game-body"):
            yield widget_for(self.session.env_info(env_id))(id="env-widget")
            with Vertical(id="game-side"):
                yield Transcript(id="transcript")
                yield PrivatePanel(id="private")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.leaving = False
        # An env widget that shows the seat's private view itself needs no raw copy beside it.
        self.query_one(PrivatePanel).display = not self.query_one(EnvWidget).SHOWS_PRIVATE
        self.render_session()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        watching = self.session.seat is None
        if action == "leave":
            return not watching
        if action == "stop_watching":
            return watching
        if action == "toggle_side":
            return self.narrow
        if action == "omniscient":
            seats = (self.session.table or {}).get("seats") or []
            return watching and bool(seats) and all(s.get("kind") == "bot" for s in seats)
        return True

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "error":
            self.query_one(Transcript).note(f"{msg.get('code')}: {msg.get('message')}")
        if msg["type"] == "history" and not self.session.for_gap(msg):
            self._history_arrived()
        self.render_session()

    def render_session(self) -> None:
        s = self.session
        if (s.seat is None) != self.has_class("-spectator"):
            self.set_class(s.seat is None, "-spectator")
            self.refresh_bindings()
        self.query_one(GameHeader).show(s)
        self.query_one(SeatNotice).show(s)
        transcript = self.query_one(Transcript)
        env = s.env_info((s.table or {}).get("env", "")) or {}
        transcript.show(s.events, s.seat_name, below=s.complete_below,
                        quiet=env.get("quiet_events") or ())
        self._fill_gap(transcript)
        private = (s.view or {}).get("private") if s.seat is not None else None
        self.query_one(PrivatePanel).show(private)
        self.query_one(EnvWidget).show(s)
        # Queued behind the focus changes `show` asked for: it lands once they have.
        self.app.call_later(self._rendered, s.turn["turn"] if s.awaiting_us and s.turn else None)

    def _rendered(self, turn: int | None) -> None:
        self._rendered_turn = turn

    def ready_for(self, turn: int) -> bool:
        """Whether the widgets for our decision `turn` are built and focused, so keys pressed now
        reach them (they are built a moment after the turn arrives)."""
        return self._rendered_turn == turn and all(form.ready for form in self.query(ActionForm))

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

    @on(EnvWidget.Preview)
    def _preview(self, event: EnvWidget.Preview) -> None:
        s = self.session
        if s.turn is not None and s.table is not None:
            self.client.send("preview", table_id=s.table["id"], turn=s.turn["turn"],
                             action=event.action)

    # -- leaving --------------------------------------------------------------------------------
    def action_leave(self) -> None:
        if self.session.game_over is not None:
            self.parlor.to_lobby()
            return
        self.app.push_screen(ConfirmScreen(
            "Leave this game?",
            "Leaving a game that has started counts as resigning: you lose, and a rated game is "
            "rated as your loss. (A game in which no person has moved yet is void instead: "
            "bots' moves do not count.)",
            yes="Leave and resign", no="Keep playing"), self._leave_answered)

    def _leave_answered(self, yes: bool | None) -> None:
        table = self.session.table
        if not yes or table is None or self.leaving:
            return
        self.leaving = True
        self.client.send("leave", table_id=table["id"])
        self.query_one(Transcript).note("you left the game; waiting for the result…")
        self.set_timer(LEAVE_WAIT, self._left_without_result)

    def _left_without_result(self) -> None:
        if self.is_current and self.session.game_over is None:
            self.parlor.to_lobby()

    def action_stop_watching(self) -> None:
        table = self.session.table
        if table is not None:
            self.client.send("leave", table_id=table["id"])
        self.parlor.to_lobby()

    def action_omniscient(self) -> None:
        """Stop watching and open the table's delayed omniscient view (a server started with
        --omniscient-delay shows it; another says so on the replay screen)."""
        table = self.session.table
        if table is None:
            return
        self.action_stop_watching()
        self.app.push_screen(ReplayScreen(table_id=table["id"]))

    # -- panes and history ------------------------------------------------------------------------
    def action_toggle_side(self) -> None:
        self.toggle_class("-side")

    def action_help(self) -> None:
        open_help(self, (self.session.table or {}).get("env"))

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
