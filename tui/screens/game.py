"""The game: header, the env's own widget (or the generic one), transcript and private panel."""

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
    BINDINGS = [Binding("ctrl+x", "leave", "Leave game")]

    def compose(self) -> ComposeResult:
        env_id = (self.session.table or {}).get("env", "")
        yield GameHeader(id="game-header")
        with Horizontal(id="game-body"):
            yield widget_for(env_id)(id="env-widget")
            with Vertical(id="game-side"):
                yield Transcript(id="transcript")
                yield PrivatePanel(id="private")
        yield Footer()

    def on_mount(self) -> None:
        self.render_session()

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "error":
            self.query_one(Transcript).note(f"{msg.get('code')}: {msg.get('message')}")
        self.render_session()

    def render_session(self) -> None:
        s = self.session
        self.query_one(GameHeader).show(s)
        self.query_one(Transcript).show(s.events, s.seat_name)
        self.query_one(PrivatePanel).show((s.view or {}).get("private"))
        self.query_one(EnvWidget).show(s)

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
