"""A player's profile: games, win/draw/loss and ratings per game and pool, the player's own
metrics and recent games, and a rating over time (protocol `profile`). Another player's shows
what the leaderboards show of them: their rated games, ratings and how those moved."""

from __future__ import annotations

import time
from typing import Any

from rich.console import Group
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from tui.screens.base import ParlorScreen, scroll_pages
from tui.screens.help import HELP_BINDING, open_help
from tui.screens.replay import ReplayScreen
from tui.widgets.cycler import Cycler
from tui.widgets.key_footer import KeyFooter
from tui.widgets.metrics_view import pairs_table
from tui.widgets.rating_plot import LEAGUE_NAMES, RatingPlot

ENV_COLUMNS = ("Game", "Games", "Won", "Drawn", "Lost", "Rating")
RECENT_COLUMNS = ("Table", "Game", "Ended", "Outcome", "Rated")
OUTCOMES = {"win": "won", "loss": "lost", "draw": "drawn", "void": "void"}


def rating_text(rating: dict[str, Any]) -> str:
    """"12.3 people, provisional" (TrueSkill's μ − 3σ); another league says its name: "1532
    Elo, bots"."""
    scheme = rating.get("scheme")
    league = "" if scheme == "trueskill" else f" {LEAGUE_NAMES.get(scheme, scheme)},"
    return (f"{float(rating.get('rating', 0)):.1f}{league} {rating.get('pool')}"
            + (", provisional" if rating.get("provisional") else ""))


class ProfileScreen(ParlorScreen):
    KIND = "profile"
    TITLE_FOR_HELP = "Profile"
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("r", "refresh", "Refresh", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", key_display="PgDn"),
        HELP_BINDING,
    ]

    def __init__(self, name: str | None = None) -> None:
        """`name`: a person's name or a bot's identity; None: our own."""
        super().__init__()
        self.player_name = name
        self.asked: int | None = None
        self.refused: str | None = None

    @property
    def me(self) -> str:
        return str((self.session.player or {}).get("name") or self.session.name)

    @property
    def who(self) -> str:
        return self.player_name or self.me

    @property
    def own(self) -> bool:
        return self.who == self.me

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="profile-box"):
            yield Static(id="profile-title", classes="section-title")
            yield Static(id="profile-summary")
            yield DataTable(id="profile-envs", zebra_stripes=True, cursor_type="none")
            yield Static("Rating over time", classes="result-heading")
            yield Cycler("Rating in", [], id="profile-series")
            yield RatingPlot(id="profile-plot")
            yield Static(id="profile-metrics")
            yield Static("Recent games  (Enter: replay)", classes="result-heading",
                         id="profile-recent-heading")
            yield DataTable(id="profile-recent", zebra_stripes=True, cursor_type="row")
        yield KeyFooter()

    def on_resize(self, event: events.Resize) -> None:
        was = self.narrow
        super().on_resize(event)
        if was != self.narrow:  # metrics go one to a line at 80 columns
            self.show_metrics(self.profile)

    def on_mount(self) -> None:
        self.query_one("#profile-envs", DataTable).add_columns(*ENV_COLUMNS)
        self.query_one("#profile-recent", DataTable).add_columns(*RECENT_COLUMNS)
        self.query_one("#profile-envs", DataTable).can_focus = False
        self.query_one("#profile-series").focus()
        self.ask()

    def ask(self) -> None:
        self.refused = None
        body = {"name": self.player_name} if self.player_name else {}
        self.asked = self.client.send("profile", **body)
        self.show_profile()

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "profile" and msg.get("ref") == self.asked:
            self.player_name = self.player_name and msg["name"]  # however the server spells it
            self.show_profile()
        elif msg["type"] == "error" and msg.get("ref") == self.asked:
            self.refused = str(msg.get("message") or msg.get("code"))
            self.show_profile()

    @property
    def profile(self) -> dict[str, Any] | None:
        return self.session.profiles.get(self.who)

    def title_of(self, env_id: str) -> str:
        return (self.session.env_info(env_id) or {}).get("title") or env_id

    # -- rendering -------------------------------------------------------------------------------
    def show_profile(self) -> None:
        found = self.profile
        self.query_one("#profile-title", Static).update(
            f"Profile — {self.who}" + (" (you)" if self.own else ""))
        summary = self.query_one("#profile-summary", Static)
        if self.refused:
            summary.update(Text(f"No profile: {self.refused}", style="bold red"))
        elif found is None:
            summary.update(Text("Asking the server…", style="italic"))
        else:
            envs = found.get("envs") or []
            text = Text(f"{_plural(found.get('games', 0), 'game')} played" +
                        (f", of {len(envs)} kinds" if len(envs) > 1 else ""))
            if not self.own:
                text.append("\nAs the leaderboards show them: rated games only. Metrics and "
                            "recent games show on each player's own profile.", style="dim")
            summary.update(text)
        self.show_envs(found)
        self.show_metrics(found)
        self.show_recent(found)
        series = sorted({(p.get("env"), p.get("scheme")) for p in (found or {}).get("history")
                         or []}, key=str)
        self.query_one("#profile-series", Cycler).set_options(
            [(f"{env}\t{scheme}", f"{self.title_of(str(env))} ({LEAGUE_NAMES.get(scheme, scheme)})")
             for env, scheme in series])
        self.show_plot()

    def show_envs(self, found: dict[str, Any] | None) -> None:
        grid = self.query_one("#profile-envs", DataTable)
        grid.clear()
        for env in (found or {}).get("envs") or []:
            ratings = "; ".join(rating_text(r) for r in env.get("ratings") or []) or "not rated"
            grid.add_row(self.title_of(str(env.get("env"))), *(str(env.get(k, 0)) for k in (
                "games", "wins", "draws", "losses")), ratings)
        grid.display = grid.row_count > 0

    def show_metrics(self, found: dict[str, Any] | None) -> None:
        """Each game's metrics, the mean over our games; those that are zero (the error
        counts of clean games) are counted, not listed."""
        parts: list[Any] = []
        for env in (found or {}).get("envs") or []:
            metrics = env.get("metrics") or []
            shown = [(str(m.get("label")), m.get("value")) for m in metrics if m.get("value")]
            if metrics:
                parts.append(Text(f"\n{self.title_of(str(env.get('env')))}: mean per game",
                                  style="bold"))
                parts.append(pairs_table(shown, 1 if self.narrow else 2))
            if len(shown) < len(metrics):
                parts.append(Text(f"{len(metrics) - len(shown)} more figures are zero.",
                                  style="dim"))
        box = self.query_one("#profile-metrics", Static)
        box.update(Group(Text("Metrics", style="bold"), *parts) if parts else "")
        box.display = bool(parts)

    def show_recent(self, found: dict[str, Any] | None) -> None:
        grid = self.query_one("#profile-recent", DataTable)
        grid.clear()
        for game in (found or {}).get("recent") or []:
            ended = game.get("ended")
            when = time.strftime("%d %b %H:%M", time.localtime(ended)) if ended else "—"
            grid.add_row(str(game.get("table_id", "?")), self.title_of(str(game.get("env"))),
                         when, OUTCOMES.get(game.get("outcome"), str(game.get("outcome"))),
                         "yes" if game.get("rated") else "no", key=str(game.get("game_id")))
        shown = grid.row_count > 0
        grid.display = shown
        self.query_one("#profile-recent-heading").display = shown

    @on(Cycler.Changed, "#profile-series")
    def show_plot(self) -> None:
        picked = self.query_one("#profile-series", Cycler).value
        env, _, scheme = picked.partition("\t")
        points = [float(p["rating"]) for p in (self.profile or {}).get("history") or []
                  if p.get("env") == env and p.get("scheme") == scheme]
        self.query_one(RatingPlot).show(
            f"{self.who}'s rating in {self.title_of(env)} after each rated game", {self.who: points})

    # -- actions -------------------------------------------------------------------------------
    @on(DataTable.RowSelected, "#profile-recent")
    def _replay(self, event: DataTable.RowSelected) -> None:
        game_id = str(event.row_key.value)
        if game_id.isdigit():
            self.app.push_screen(ReplayScreen(game_id=int(game_id)))

    def action_refresh(self) -> None:
        self.ask()

    def action_page(self, pages: int) -> None:
        scroll_pages(self.query_one("#profile-box", VerticalScroll), pages)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_help(self) -> None:
        open_help(self, None)


def _plural(n: Any, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
