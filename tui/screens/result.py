"""After the game: who won, each seat's reward, how it ended and its rating change; then the
paper's metrics in plain words, the final position drawn by the env's own widget, and whatever
was hidden during the game."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.screens.base import ParlorScreen, scroll_pages
from tui.screens.help import HELP_BINDING, open_help
from tui.screens.leaderboard import LeaderboardScreen
from tui.screens.profile import ProfileScreen
from tui.screens.replay import ReplayScreen
from tui.session import Session
from tui.widgets.env_widget import EnvWidget
from tui.widgets.key_footer import KeyFooter
from tui.widgets.metrics_view import MetricsView
from tui.widgets.outcome_table import OutcomeTable
from tui.widgets.registry import widget_for
from tui.widgets.setup_reveal import SetupReveal


def revealed_setup(session: Session) -> dict[str, Any] | None:
    """The hidden setup: from game_over, else the final view, else the `setup_revealed` event."""
    over = session.game_over or {}
    if isinstance(over.get("setup"), dict):
        return over["setup"]
    public = session.public
    if isinstance(public.get("setup"), dict):
        return public["setup"]
    event = next((e for e in reversed(session.events) if e.get("type") == "setup_revealed"), None)
    return (event or {}).get("data") or None


class ResultScreen(ParlorScreen):
    KIND = "result"
    TITLE_FOR_HELP = "Game over"
    BINDINGS = [
        Binding("enter,escape", "lobby", "Back to lobby"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("p", "profile", "Your profile"),
        Binding("r", "replay", "Replay"),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        HELP_BINDING,
    ]

    def compose(self) -> ComposeResult:
        env = self.env_info
        with VerticalScroll(id="result-box"):
            yield Static(id="result-title")
            yield OutcomeTable(id="result-outcome")
            yield Static("Metrics", classes="result-heading")
            yield MetricsView(id="result-metrics")
            yield Static("Final position", classes="result-heading")
            position = widget_for(env)(id="result-position")
            position.can_focus_children = False  # a picture of the end, not a form to fill
            yield position
            yield Static("What was hidden", classes="result-heading")
            yield SetupReveal(id="result-setup")
        yield KeyFooter()

    @property
    def env_id(self) -> str:
        return (self.session.table or {}).get("env", "")

    @property
    def env_info(self) -> dict[str, Any] | None:
        return self.session.env_info(self.env_id)

    def on_mount(self) -> None:
        self.render_result()
        self.query_one("#result-box").focus()

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] in ("game_over", "table", "event"):
            self.render_result()

    def render_result(self) -> None:
        s = self.session
        over = s.game_over or {}
        table = s.table or {}
        env = self.env_info or {}
        names = s.seat_names()
        self.query_one("#result-title", Static).update(
            Text(f"Game over — {table.get('title') or env.get('title') or self.env_id}",
                 style="bold"))
        result = over.get("result") or {}
        reason = s.in_our_names(str(result.get("reason") or ""))
        self.query_one(OutcomeTable).show({**over, "result": {**result, "reason": reason}},
                                          names, s.seat, env.get("rating"))
        self.query_one(MetricsView).show(over.get("metrics"), env.get("metric_labels"), names)
        self.query_one(EnvWidget).show(s)
        setup = revealed_setup(s)
        if setup and over.get("seed"):  # the secret seed that dealt it: the deal can be checked
            setup = {**setup, "seed": over["seed"]}
        drawn = self.query_one(EnvWidget).reveal(setup, names) if setup else None
        self.query_one(SetupReveal).show(setup, names, drawn)

    def action_lobby(self) -> None:
        self.parlor.to_lobby()

    def action_leaderboard(self) -> None:
        self.app.push_screen(LeaderboardScreen(self.env_id or None))

    def action_profile(self) -> None:
        self.app.push_screen(ProfileScreen())

    def action_replay(self) -> None:
        """Watch the game again, from our seat (a spectator: the omniscient view)."""
        game_id = (self.session.game_over or {}).get("game_id")
        if isinstance(game_id, int):
            self.app.push_screen(ReplayScreen(game_id=game_id, seat=self.session.seat))
        else:
            self.notify("This game was not stored: there is no replay of it.",
                        severity="warning")

    def action_help(self) -> None:
        open_help(self, self.env_id or None)

    def action_page(self, pages: int) -> None:
        scroll_pages(self.query_one("#result-box", VerticalScroll), pages)
