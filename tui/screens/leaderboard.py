"""Ratings per env, best conservative skill (μ − 3σ) first."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Static

from tui.screens.base import ParlorScreen
from tui.widgets.cycler import Cycler


class LeaderboardScreen(ParlorScreen):
    KIND = "leaderboard"
    BINDINGS = [Binding("escape", "back", "Back")]

    def __init__(self, env_id: str | None = None) -> None:
        super().__init__()
        self.env_id = env_id

    def compose(self) -> ComposeResult:
        envs = [(e["id"], e.get("title") or e["id"]) for e in self.session.envs]
        with Vertical(id="leaderboard-box"):
            yield Static("Leaderboard — ←/→ change game", classes="section-title")
            yield Cycler("Game", envs, self.env_id, id="lb-env")
            yield DataTable(id="lb-rows", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#lb-rows", DataTable).add_columns("#", "Player or bot", "μ − 3σ", "μ",
                                                          "σ", "Games")
        self.query_one("#lb-env").focus()
        self.ask()

    @property
    def env(self) -> str:
        return self.query_one("#lb-env", Cycler).value

    def ask(self) -> None:
        if self.env:
            self.client.send("leaderboard", env=self.env)
        self.show_rows()

    @on(Cycler.Changed, "#lb-env")
    def _env_changed(self) -> None:
        self.ask()

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "leaderboard":
            self.show_rows()

    def show_rows(self) -> None:
        grid = self.query_one("#lb-rows", DataTable)
        grid.clear()
        for i, row in enumerate(self.session.leaderboards.get(self.env, []), 1):
            mu, sigma = float(row.get("mu", 0)), float(row.get("sigma", 0))
            grid.add_row(str(i), row.get("identity", "?"), f"{mu - 3 * sigma:.1f}", f"{mu:.1f}",
                         f"{sigma:.2f}", str(row.get("games", "")))

    def action_back(self) -> None:
        self.app.pop_screen()
