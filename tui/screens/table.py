"""The waiting room: the table's seats and who has joined; the game starts once every seat is full."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from tui.screens.base import ParlorScreen
from tui.screens.help import HELP_BINDING, open_help
from tui.session import watching_text
from tui.widgets.key_footer import KeyFooter
from tui.widgets.seat_list import SeatList


class TableScreen(ParlorScreen):
    KIND = "table"
    BINDINGS = [Binding("escape", "leave", "Leave table"), HELP_BINDING]

    def compose(self) -> ComposeResult:
        with Vertical(id="table-box"):
            yield Static(id="table-title")
            yield SeatList(id="seat-list")
            yield Static(id="table-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.show_table()

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "table" and msg["table"].get("status") == "closed" \
                and msg["table"]["id"] == (self.session.table or {}).get("id"):
            self.notify(f"The table closed: {msg['table'].get('closed', 'the server closed it')}.",
                        severity="warning")
            self.parlor.to_lobby()
        elif msg["type"] == "table" and msg.get("removed") \
                and msg["table"]["id"] == (self.session.table or {}).get("id"):
            self.notify(f"You were {msg['removed']}.", severity="warning")
            self.parlor.to_lobby()
        elif msg["type"] == "table":
            self.show_table()

    def show_table(self) -> None:
        table = self.session.table or {}
        preset = f" — preset {table['preset']}" if table.get("preset") else ""
        self.query_one("#table-title", Static).update(
            Text(f"Table {table.get('id', '?')}: {table.get('title') or table.get('env')}{preset}",
                 style="bold"))
        self.query_one(SeatList).show(table, self.session.seat)
        seats = table.get("seats", [])
        open_seats = sum(1 for s in seats if s.get("kind") == "human" and not s.get("player"))
        status = (f"Waiting for {open_seats} more player{'s' if open_seats != 1 else ''} — the "
                  f"game starts when every seat is taken. Others join from their lobby."
                  if open_seats else "Every seat is taken; starting…")
        watchers = watching_text(table)
        if watchers:
            status += f" ({watchers})"
        self.query_one("#table-status", Static).update(Text(status, style="italic"))

    def action_help(self) -> None:
        open_help(self, (self.session.table or {}).get("env"))

    def action_leave(self) -> None:
        table = self.session.table
        if table is not None:
            self.client.send("leave", table_id=table["id"])
        self.parlor.to_lobby()
