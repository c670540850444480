"""Ratings per env, best conservative skill (μ − 3σ) first, with each player's record."""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from tui.screens.base import ParlorScreen
from tui.screens.help import HELP_BINDING, open_help
from tui.screens.profile import ProfileScreen
from tui.screens.report import ReportScreen
from tui.widgets.cycler import Cycler
from tui.widgets.key_footer import KeyFooter

COLUMNS = ("#", "Player or bot", "Rating", "μ", "σ", "Games", "Wins", "Draws", "Losses")
OTHER_COLUMNS_WIDTH = 62  # every column but the name, with cell padding, border and margins

EXPLAIN = {
    "trueskill": "Rank is by rating = μ − 3σ. μ is the skill we estimate and σ how unsure we "
                 "still are, so μ − 3σ is a skill the player has at least, with about 99% "
                 "confidence. It rises as more games make σ small.",
    "elo": "Elo ratings: μ is the rating itself and σ is 0, so the rank is by rating.",
    "none": "This game is scored by accuracy, not rated: it has no leaderboard.",
}
# An env with more than one league (SocialGrid): what each one holds.
LEAGUES = {
    "trueskill": "People and mixed tables (TrueSkill over sides)",
    "elo": "Crew Elo league (one identity per side)",
}
UNRATED_SHOWN = (1, 5)  # the latest unrated games listed at 80x24, and on a taller screen


def who(identity: str, me: str | None) -> str:
    """How a rated identity reads: a person's name, or the bot's identity."""
    if identity.startswith("human:"):
        name = identity.removeprefix("human:")
        return f"{name} (you)" if name == me else name
    return identity


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[:max(1, width - 1)] + "…"


class LeaderboardScreen(ParlorScreen):
    KIND = "leaderboard"
    TITLE_FOR_HELP = "Leaderboard"
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("up", "move(-1)", "Pick row", show=False),
        Binding("down", "move(1)", "Pick row", key_display="↑↓"),
        Binding("r", "refresh", "Refresh"),
        Binding("t", "league", "Other league"),
        Binding("p", "profile", "Profile"),
        Binding("c", "report", "Report"),
        HELP_BINDING,
    ]

    def __init__(self, env_id: str | None = None) -> None:
        super().__init__()
        self.env_id = env_id
        self.league: str | None = None  # None: the server's choice (where people play)

    def compose(self) -> ComposeResult:
        envs = [(e["id"], e.get("title") or e["id"]) for e in self.session.envs]
        with Vertical(id="leaderboard-box"):
            yield Static("Leaderboard — ←/→ change game", classes="section-title")
            yield Cycler("Game", envs, self.env_id, id="lb-env")
            yield Static(id="lb-league")
            yield DataTable(id="lb-rows", cursor_type="row", zebra_stripes=True)
            yield Static(id="lb-detail")
            yield Static(id="lb-unrated")
            yield Static(id="lb-explain")
        yield KeyFooter()

    def on_mount(self) -> None:
        grid = self.query_one("#lb-rows", DataTable)
        grid.can_focus = False  # the game cycler keeps focus; ↑/↓ move the rows from anywhere
        grid.add_columns(*COLUMNS)
        self.query_one("#lb-env").focus()
        self.ask()

    @property
    def env(self) -> str:
        return self.query_one("#lb-env", Cycler).value

    def ask(self) -> None:
        if self.env:
            league = {"scheme": self.league} if self.league else {}
            self.client.send("leaderboard", env=self.env, **league)
        self.show_rows()

    @on(Cycler.Changed, "#lb-env")
    def _env_changed(self) -> None:
        self.league = None
        self.ask()

    @property
    def reply(self) -> dict[str, Any]:
        return self.session.leaderboard_replies.get(self.env, {})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "league":
            return len(self.reply.get("leagues") or []) > 1
        if action == "profile":
            return bool(self.rows)
        return True

    def action_league(self) -> None:
        leagues = list(self.reply.get("leagues") or [])
        if len(leagues) > 1:
            now = self.reply.get("league")
            self.league = leagues[(leagues.index(now) + 1) % len(leagues)] \
                if now in leagues else leagues[0]
            self.ask()

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "leaderboard":
            self.show_rows()

    def on_resize(self, event: events.Resize) -> None:
        self.show_rows()

    @property
    def rows(self) -> list[dict[str, Any]]:
        return self.session.leaderboards.get(self.env, [])

    def show_rows(self) -> None:
        grid = self.query_one("#lb-rows", DataTable)
        keep = grid.cursor_row
        grid.clear()
        me = (self.session.player or {}).get("name")
        width = max(12, self.size.width - OTHER_COLUMNS_WIDTH)
        for rank, row in enumerate(self.rows, 1):
            mu, sigma = float(row.get("mu", 0)), float(row.get("sigma", 0))
            rating = float(row.get("conservative", mu - 3 * sigma))
            grid.add_row(str(rank), clip(who(str(row.get("identity", "?")), me), width),
                         f"{rating:.1f}", f"{mu:.1f}", f"{sigma:.2f}", _count(row, "games"),
                         _count(row, "wins"), _count(row, "draws"), _count(row, "losses"))
        if grid.row_count:
            grid.move_cursor(row=min(keep, grid.row_count - 1))
        env = self.session.env_info(self.env) or {}
        scheme = env.get("rating") or "trueskill"
        reply = self.reply
        league = reply.get("league") or ("elo" if scheme == "elo" else scheme)
        leagues = reply.get("leagues") or []
        self.query_one("#lb-league", Static).update(
            Text.assemble(("League  ", "bold"), LEAGUES.get(league, league),
                          ("   t: the other league", "dim")) if len(leagues) > 1 else "")
        self.query_one("#lb-league").display = len(leagues) > 1
        self.query_one("#lb-explain", Static).update(
            EXPLAIN.get(league if scheme != "none" else "none", EXPLAIN["trueskill"]))
        self.show_unrated(scheme)
        self.refresh_bindings()
        self.show_detail()

    def show_unrated(self, scheme: str) -> None:
        """How many of this game's games were not rated, and why the latest were not."""
        box = self.query_one("#lb-unrated", Static)
        count = self.reply.get("unrated_count") or 0
        if scheme == "none" or not count:
            box.update("")
            box.display = False
            return
        box.display = True
        shown = UNRATED_SHOWN[0] if self.size.height < 30 else UNRATED_SHOWN[1]
        games = (self.reply.get("unrated") or [])[:shown]
        text = Text(f"{_plural(count, 'game')} not rated" +
                    (f"; the latest {len(games)}:" if count > 1 and len(games) > 1 else
                     ("; the latest:" if count > 1 else ":")), style="bold")
        for game in games:
            when = time.strftime("%d %b %H:%M", time.localtime(game.get("ended") or 0))
            why = str(game.get("unrated") or "not rated")
            text.append(f"\n{game.get('table_id', '?')} · {when} · ", style="dim")
            text.append(why[:1].upper() + why[1:], style="yellow")
        box.update(text)

    def show_detail(self) -> None:
        """The highlighted row in full (a long bot identity is clipped in the table)."""
        grid = self.query_one("#lb-rows", DataTable)
        detail = self.query_one("#lb-detail", Static)
        if not grid.row_count:
            title = (self.session.env_info(self.env) or {}).get("title") or self.env
            detail.update(Text(f"No rated games of {title} yet.", style="italic"))
            return
        row = self.rows[min(grid.cursor_row, len(self.rows) - 1)]
        me = (self.session.player or {}).get("name")
        detail.update(Text(f"▸ {who(str(row.get('identity', '?')), me)}: "
                           f"{_plural(row.get('games'), 'rated game')} — {_count(row, 'wins')} won, "
                           f"{_count(row, 'draws')} drawn, {_count(row, 'losses')} lost"))

    def action_move(self, delta: int) -> None:
        grid = self.query_one("#lb-rows", DataTable)
        if grid.row_count:
            grid.move_cursor(row=max(0, min(grid.row_count - 1, grid.cursor_row + delta)))
            self.show_detail()

    def action_profile(self) -> None:
        """The highlighted row's player (a person by name, a bot by identity)."""
        grid = self.query_one("#lb-rows", DataTable)
        if self.rows:
            identity = str(self.rows[min(grid.cursor_row, len(self.rows) - 1)]["identity"])
            self.app.push_screen(ProfileScreen(identity.removeprefix("human:")))

    def action_report(self) -> None:
        if self.env:
            self.app.push_screen(ReportScreen(self.env))

    def action_refresh(self) -> None:
        self.ask()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_help(self) -> None:
        open_help(self, self.env or None)


def _plural(n: Any, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}" if isinstance(n, int) else f"— {noun}s"


def _count(row: dict[str, Any], key: str) -> str:
    value = row.get(key)
    return "—" if value is None else str(value)
