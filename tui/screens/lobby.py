"""The lobby: games this server hosts, live tables (yours first), finished ones apart, and the way
to a new table or a leaderboard."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from server.wire.protocol import players_text
from tui.screens.base import ParlorScreen
from tui.screens.create_table import CreateTableScreen
from tui.screens.help import HELP_BINDING, open_help
from tui.screens.leaderboard import LeaderboardScreen
from tui.screens.open_replay import OpenReplayScreen
from tui.screens.profile import ProfileScreen
from tui.screens.replay import ReplayScreen
from tui.screens.report import ReportScreen
from tui.session import seat_display, watching_text
from tui.widgets.key_footer import KeyFooter

REFRESH_SECONDS = 5.0
EMPTY_HINT = "No tables yet. Pick a game {where} and press n to open one."


def empty_hint(narrow: bool) -> str:
    """Where the games are depends on the layout: beside the tables, or above them at 80x24."""
    return EMPTY_HINT.format(where="above" if narrow else "on the left")


class LobbyScreen(ParlorScreen):
    KIND = "lobby"
    BINDINGS = [
        Binding("n", "new_table", "New table"),
        Binding("j", "join", "Join"),
        Binding("w", "spectate", "Watch"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("c", "report", "Report"),
        Binding("p", "profile", "Profile"),
        Binding("g", "open_replay", "Replay a game"),
        Binding("r", "refresh", "Refresh", show=False),
        Binding("tab", "focus_next", "Next list", show=False),
        Binding("shift+tab", "focus_previous", "Previous list", show=False),
        HELP_BINDING,
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-title")
        with Horizontal(id="lobby-body"):
            with Vertical(id="lobby-envs"):
                yield Static("Games  (n: new table)", classes="section-title")
                yield OptionList(id="env-list")
            with Vertical(id="lobby-tables"):
                yield Static("Live tables  (j: join or return, w: watch)",
                             classes="section-title")
                yield DataTable(id="table-list", cursor_type="row", zebra_stripes=True)
                yield Static(empty_hint(self.narrow), id="lobby-empty", classes="form-hint")
                yield Static("Finished  (Enter: replay, w: result; g: any game by id)",
                             classes="section-title")
                yield DataTable(id="finished-list", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        player = self.session.player or {}
        title = Text(" Parlor ", style="bold reverse")
        title.append(f"  you are {player.get('name', self.session.name)}", style="bold")
        title.append("  (to play as someone else: parlor --name NAME)", style="dim")
        if self.parlor.database is not None:  # an embedded server: say where games are kept
            title.append(f"\n Games are saved in {self.parlor.database}", style="dim")
        self.query_one("#lobby-title", Static).update(title)
        for grid in self.query(DataTable):
            grid.add_columns("Table", "Game", "Status", "Players")
        self.show_envs()
        self.show_tables()
        self.action_refresh()
        self.set_interval(REFRESH_SECONDS, self.action_refresh)
        self.query_one("#env-list").focus()

    def on_resize(self, event: Resize) -> None:
        was = self.narrow
        super().on_resize(event)
        if self.narrow or was:  # the one-line games are cut to the width
            self.show_envs()
            self.query_one("#lobby-empty", Static).update(empty_hint(self.narrow))

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
            # At 80x24 one line per game (its description cut), so most of the list shows.
            line = Text()
            line.append(env.get("title") or env["id"], style="bold")
            players = players_text(env.get("players", []))
            line.append(f"  ({players} player{'' if players == '1' else 's'})", style="dim")
            line.append("  " if self.narrow else "\n")
            line.append(env.get("description", ""), style="italic")
            if self.narrow:
                line.truncate(max(self.size.width - 6, 20), overflow="ellipsis")
            options.add_option(Option(line, id=env["id"]))
        if self.session.envs:
            options.highlighted = min(keep or 0, len(self.session.envs) - 1)

    def show_tables(self) -> None:
        me = (self.session.player or {}).get("name")
        live = [t for t in self.session.tables if t.get("status") not in ("over", "closed")]
        live.sort(key=lambda t: (not _seated(t, me), t.get("status") != "waiting"))
        finished = [t for t in self.session.tables if t.get("status") == "over"][::-1]
        _fill(self.query_one("#table-list", DataTable), live, me)
        _fill(self.query_one("#finished-list", DataTable), finished, me)
        self.query_one("#lobby-empty").display = not live
        self.query_one("#table-list").display = bool(live)

    # -- actions -------------------------------------------------------------------------------
    def selected_env(self) -> str | None:
        options = self.query_one("#env-list", OptionList)
        if options.highlighted is None or not self.session.envs:
            return None
        return options.get_option_at_index(options.highlighted).id

    def selected_table(self) -> str | None:
        """The highlighted row of the table list that has (or last had) the focus."""
        grid = self.query_one("#finished-list" if self._in_finished() else "#table-list",
                              DataTable)
        if not grid.row_count:
            return None
        return str(grid.coordinate_to_cell_key(grid.cursor_coordinate).row_key.value)

    def _in_finished(self) -> bool:
        return self.focused is self.query_one("#finished-list")

    def action_new_table(self) -> None:
        env = self.selected_env()
        if env is not None:
            self.app.push_screen(CreateTableScreen(env))

    def action_join(self) -> None:
        if self._in_finished():
            self.notify("That game has ended: press w to see its result.", severity="warning")
            return
        table = self.selected_table()
        if table is None:
            self.notify(empty_hint(self.narrow), severity="warning")
            return
        self.client.send("join", table_id=table)

    def action_spectate(self) -> None:
        table = self.selected_table()
        if table is not None:
            self.session.watching = table
            self.client.send("spectate", table_id=table)

    def action_leaderboard(self) -> None:
        self.app.push_screen(LeaderboardScreen(self.selected_env()))

    def action_report(self) -> None:
        env = self.selected_env()
        if env is not None:
            self.app.push_screen(ReportScreen(env))

    def action_profile(self) -> None:
        self.app.push_screen(ProfileScreen())

    def action_open_replay(self) -> None:
        """Any stored game by its id, also one that was never a table here (`parlor sim`)."""
        def chosen(game_id: int | None) -> None:
            if game_id is not None:
                self.app.push_screen(ReplayScreen(game_id=game_id))
        self.app.push_screen(OpenReplayScreen(), chosen)

    def action_refresh(self) -> None:
        self.client.send("list_tables")

    def action_focus_next(self) -> None:
        self.focus_next()

    def action_focus_previous(self) -> None:
        self.focus_previous()

    def action_help(self) -> None:
        open_help(self, self.selected_env())

    @on(OptionList.OptionSelected, "#env-list")
    def _env_chosen(self) -> None:
        self.action_new_table()

    @on(DataTable.RowSelected, "#table-list")
    def _table_chosen(self) -> None:
        self.action_join()

    @on(DataTable.RowSelected, "#finished-list")
    def _finished_chosen(self) -> None:
        table = next((t for t in self.session.tables if t["id"] == self.selected_table()), {})
        if isinstance(table.get("game_id"), int):
            self.app.push_screen(ReplayScreen(game_id=table["game_id"]))
        else:  # an older server's summary without its game: its result, as before
            self.action_spectate()


def _seated(table: dict[str, Any], me: str | None) -> bool:
    return me is not None and any(s.get("player") == me for s in table.get("seats", []))


def _status(table: dict[str, Any], me: str | None) -> Text:
    seats = table.get("seats", [])
    status = table.get("status", "")
    if status == "waiting":
        taken = sum(1 for s in seats if s.get("kind") == "bot" or s.get("player"))
        text = Text(f"waiting {taken}/{len(seats)}", style="green")
    elif status == "over":
        text = Text("finished", style="dim")
    else:
        text = Text(status)
    if status != "over" and _seated(table, me):
        text.append("  your seat", style="bold")
    watchers = watching_text(table) if status != "over" else ""
    if watchers:
        text.append(f"  {watchers}", style="dim")
    return text


def _fill(grid: DataTable, tables: list[dict[str, Any]], me: str | None) -> None:
    keep = grid.cursor_row
    grid.clear()
    for t in tables:
        players = ", ".join(seat_display(s) for s in t.get("seats", []))
        grid.add_row(t["id"], t.get("title") or t.get("env"), _status(t, me), players,
                     key=t["id"])
    if grid.row_count:
        grid.move_cursor(row=min(keep, grid.row_count - 1))
