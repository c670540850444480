"""The lobby: games this server hosts, open tables, and the way to a new table or a leaderboard."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, OptionList, Static
from textual.widgets.option_list import Option

from tui.screens.base import ParlorScreen
from tui.screens.create_table import CreateTableScreen
from tui.screens.leaderboard import LeaderboardScreen

REFRESH_SECONDS = 5.0


class LobbyScreen(ParlorScreen):
    KIND = "lobby"
    BINDINGS = [
        Binding("n", "new_table", "New table"),
        Binding("j", "join", "Join table"),
        Binding("w", "spectate", "Watch table"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("r", "refresh", "Refresh"),
        Binding("tab", "focus_next", "Games/tables"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-title")
        with Horizontal(id="lobby-body"):
            with Vertical(id="lobby-envs"):
                yield Static("Games  (Enter or n: new table)", classes="section-title")
                yield OptionList(id="env-list")
            with Vertical(id="lobby-tables"):
                yield Static("Open tables  (Enter or j: join, w: watch)", classes="section-title")
                yield DataTable(id="table-list", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        player = self.session.player or {}
        self.query_one("#lobby-title", Static).update(
            Text(f" Parlor — {self.session.url} — you are {player.get('name', self.session.name)}",
                 style="bold"))
        self.query_one("#table-list", DataTable).add_columns("Table", "Game", "Status", "Seats",
                                                             "Players")
        self.show_envs()
        self.show_tables()
        self.action_refresh()
        self.set_interval(REFRESH_SECONDS, self.action_refresh)
        self.query_one("#env-list").focus()

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] in ("welcome", "envs"):
            self.show_envs()
        if msg["type"] in ("tables", "table"):
            self.show_tables()

    # -- rendering -------------------------------------------------------------------------------
    def show_envs(self) -> None:
        options = self.query_one("#env-list", OptionList)
        keep = options.highlighted
        options.clear_options()
        for env in self.session.envs:
            line = Text()
            line.append(env.get("title") or env["id"], style="bold")
            players = "/".join(map(str, env.get("players", [])))
            line.append(f"  ({players} players)\n", style="dim")
            line.append(env.get("description", ""), style="italic")
            options.add_option(Option(line, id=env["id"]))
        if self.session.envs:
            options.highlighted = min(keep or 0, len(self.session.envs) - 1)

    def show_tables(self) -> None:
        grid = self.query_one("#table-list", DataTable)
        keep = grid.cursor_row
        grid.clear()
        for t in self.session.tables:
            seats = t.get("seats", [])
            taken = sum(1 for s in seats if s.get("kind") == "bot" or s.get("player"))
            players = ", ".join(s.get("player") or s.get("identity") or "open" for s in seats)
            grid.add_row(t["id"], t.get("title") or t.get("env"), t.get("status", ""),
                         f"{taken}/{len(seats)}", players, key=t["id"])
        if grid.row_count:
            grid.move_cursor(row=min(keep, grid.row_count - 1))

    # -- actions -------------------------------------------------------------------------------
    def selected_env(self) -> str | None:
        options = self.query_one("#env-list", OptionList)
        if options.highlighted is None or not self.session.envs:
            return None
        return options.get_option_at_index(options.highlighted).id

    def selected_table(self) -> str | None:
        grid = self.query_one("#table-list", DataTable)
        if not grid.row_count:
            return None
        return str(grid.coordinate_to_cell_key(grid.cursor_coordinate).row_key.value)

    def action_new_table(self) -> None:
        env = self.selected_env()
        if env is not None:
            self.app.push_screen(CreateTableScreen(env))

    def action_join(self) -> None:
        table = self.selected_table()
        if table is not None:
            self.client.send("join", table_id=table)

    def action_spectate(self) -> None:
        table = self.selected_table()
        if table is not None:
            self.session.watching = table
            self.client.send("spectate", table_id=table)

    def action_leaderboard(self) -> None:
        self.app.push_screen(LeaderboardScreen(self.selected_env()))

    def action_refresh(self) -> None:
        self.client.send("list_tables")

    @on(OptionList.OptionSelected, "#env-list")
    def _env_chosen(self) -> None:
        self.action_new_table()

    @on(DataTable.RowSelected, "#table-list")
    def _table_chosen(self) -> None:
        self.action_join()
