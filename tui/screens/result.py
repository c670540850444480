"""After the game: rewards per seat, each seat's status, rating changes and the paper's metrics."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from tui.screens.base import ParlorScreen
from tui.screens.leaderboard import LeaderboardScreen
from tui.widgets.private_panel import format_value


class ResultScreen(ParlorScreen):
    KIND = "result"
    BINDINGS = [
        Binding("enter,escape", "lobby", "Back to lobby"),
        Binding("l", "leaderboard", "Leaderboard"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="result-box"):
            yield Static(id="result-title")
            yield Static(id="result-table")
            yield Static(id="result-final", markup=False)
            yield Static(id="result-metrics")
        yield Footer()

    def on_mount(self) -> None:
        over = self.session.game_over or {}
        result = over.get("result") or {}
        table = self.session.table or {}
        title = Text(f"Game over — {table.get('title') or table.get('env', '')}\n", style="bold")
        if result.get("void"):
            title.append("The game is void (not rated). ", style="yellow")
        title.append(str(result.get("reason", "")))
        self.query_one("#result-title", Static).update(title)
        self.query_one("#result-table", Static).update(self.outcome_table(over))
        self.query_one("#result-metrics", Static).update(metrics_text(over.get("metrics")))
        if self.session.text:
            final = Text("\nFinal position\n", style="bold")
            final.append(self.session.text)
            self.query_one("#result-final", Static).update(final)

    def outcome_table(self, over: dict[str, Any]) -> Table:
        result = over.get("result") or {}
        rewards = result.get("rewards") or {}
        statuses = over.get("statuses") or {}
        changes = over.get("rating_changes") or {}
        winners = set(result.get("winners") or [])
        t = Table(title="Rewards", title_justify="left", expand=False)
        for col in ("Seat", "Player", "Reward", "Status", "Rating μ (before → after)"):
            t.add_column(col)
        for key in sorted(rewards, key=lambda k: int(k)):
            seat = int(key)
            who = self.session.seat_name(seat) + (" (you)" if seat == self.session.seat else "")
            style = "bold green" if seat in winners else ""
            change = changes.get(key) or changes.get(seat)
            rating = "—"
            if change and change.get("after"):
                before, after = change.get("before"), change["after"]
                start = f"{before['mu']:.1f}" if before else "new"  # first rated game
                rating = f"{start} → {after.get('mu', 0):.1f}"
            t.add_row(Text(key, style=style), Text(who, style=style),
                      Text(f"{rewards[key]:+g}", style=style),
                      str(statuses.get(key, statuses.get(seat, ""))), rating)
        return t

    def action_lobby(self) -> None:
        self.parlor.to_lobby()

    def action_leaderboard(self) -> None:
        self.app.push_screen(LeaderboardScreen((self.session.table or {}).get("env")))


def metrics_text(metrics: Any) -> Text:
    """Nested metrics as indented `name  value` lines."""
    text = Text("\nMetrics\n", style="bold")
    if not metrics:
        text.append("(none)\n", style="dim")
        return text

    def walk(node: Any, depth: int) -> None:
        for key, value in node.items():
            if isinstance(value, dict):
                text.append(f"{'  ' * depth}{key}\n", style="bold")
                walk(value, depth + 1)
            else:
                shown = f"{value:.3g}" if isinstance(value, float) else format_value(value)
                text.append(f"{'  ' * depth}{key:<28} {shown}\n")

    walk(metrics if isinstance(metrics, dict) else {"metrics": metrics}, 0)
    return text
