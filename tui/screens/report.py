"""One env's report: people beside models and scripted bots on the paper's metrics, metric by
metric (and role by role), each row with its 95% interval and, for a model or bot, the test
against people; the metric drawn as dots on intervals below. p and b change what is pooled and
whether rows are per player or per kind of player (protocol `report`)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from tui.screens.base import ParlorScreen, scroll_pages
from tui.screens.help import HELP_BINDING, open_help
from tui.session import report_key
from tui.widgets.cycler import Cycler
from tui.widgets.interval_plot import IntervalPlot
from tui.widgets.key_footer import KeyFooter
from tui.widgets.rating_plot import LEAGUE_NAMES, RatingPlot
from tui.widgets.report_table import KINDS, ReportTable, figure, interval, test_text

# What is pooled (None: every game) and how rows are cut (None: per player), in key order.
POOLS = {None: "every game", "people": "games of people only", "bots": "games of bots only",
         "mixed": "games of people with bots"}
BY = {None: "one row per player", "kind": "one row per kind of player"}


def _next(options: dict[str | None, str], now: str | None) -> str | None:
    keys = list(options)
    return keys[(keys.index(now) + 1) % len(keys)]


class ReportScreen(ParlorScreen):
    KIND = "report"
    TITLE_FOR_HELP = "Report"
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("up", "move(-1)", "Pick row", show=False),
        Binding("down", "move(1)", "Pick row", key_display="↑↓"),
        Binding("p", "pool", "Pool"),
        Binding("b", "by", "Rows by"),
        Binding("r", "refresh", "Refresh", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        HELP_BINDING,
    ]

    def __init__(self, env_id: str) -> None:
        super().__init__()
        self.env_id = env_id
        self.pool: str | None = None
        self.by: str | None = None
        self.asked: int | None = None  # the id of our latest request
        self.refused: str | None = None  # why the server refused it

    def compose(self) -> ComposeResult:
        with Vertical(id="report-box"):
            yield Static(id="report-title", classes="section-title")
            yield Static(id="report-pooled")
            yield Static(id="report-choice")
            yield Cycler("Metric", [], id="report-metric")
            with VerticalScroll(id="report-body"):
                yield ReportTable(id="report-rows")
                yield Static(id="report-detail")
                yield IntervalPlot(id="report-plot")
                yield RatingPlot(id="report-ratings")
                yield Static(id="report-notes")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(ReportTable).can_focus = False  # the metric keeps focus; ↑/↓ move rows
        self.query_one("#report-body").can_focus = False
        self.query_one("#report-metric").focus()
        self.ask()

    @property
    def reply(self) -> dict[str, Any] | None:
        return self.session.reports.get(report_key(self.env_id, self.pool, self.by))

    def ask(self) -> None:
        body = {k: v for k, v in (("pool", self.pool), ("by", self.by)) if v}
        self.refused = None
        self.asked = self.client.send("report", env=self.env_id, **body)
        self.show_report()

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "report" and msg.get("env") == self.env_id:
            self.show_report()
        elif msg["type"] == "error" and msg.get("ref") == self.asked:
            self.refused = str(msg.get("message") or msg.get("code"))
            self.show_report()

    # -- rendering -------------------------------------------------------------------------------
    @property
    def sections(self) -> list[dict[str, Any]]:
        return list((self.reply or {}).get("sections") or [])

    def show_report(self) -> None:
        env = self.session.env_info(self.env_id) or {}
        title = env.get("title") or self.env_id
        reply = self.reply
        self.query_one("#report-title", Static).update(f"Report — {title}: people beside bots")
        choice = Text.assemble(("Pooled  ", "bold"), POOLS[self.pool], ("  (p)   ", "dim"),
                               ("Rows  ", "bold"), BY[self.by], ("  (b)", "dim"))
        self.query_one("#report-choice", Static).update(choice)
        pooled = self.query_one("#report-pooled", Static)
        if self.refused:
            pooled.update(Text(f"No report: {self.refused}", style="bold red"))
        elif reply is None:
            pooled.update(Text("Asking the server for the report…", style="italic"))
        else:
            text = Text(str(reply.get("pooled") or ""))
            left = reply.get("left_out") or []
            if left:
                text.append("\nLeft out: " + "; ".join(map(str, left)), style="dim")
            pooled.update(text)
        options = [(str(i), _section_name(s)) for i, s in enumerate(self.sections)]
        self.query_one("#report-metric", Cycler).set_options(options)
        notes = [str(n) for n in (reply or {}).get("notes") or []]
        if reply is not None and not self.sections:
            notes.insert(0, "No metric has figures for these games yet.")
        self.query_one("#report-notes", Static).update("\n".join(notes))
        over = (reply or {}).get("ratings_over_time") or {}
        series = {str(s.get("who")): list(s.get("points") or []) for s in over.get("series") or []}
        league = LEAGUE_NAMES.get(over.get("scheme"), over.get("scheme"))
        self.query_one(RatingPlot).show(
            f"Rating over time ({league}): the leaderboard's top {len(series)}", series)
        self.show_section()

    @property
    def section(self) -> dict[str, Any] | None:
        value = self.query_one("#report-metric", Cycler).value
        sections = self.sections
        return sections[int(value)] if value.isdigit() and int(value) < len(sections) else None

    @on(Cycler.Changed, "#report-metric")
    def show_section(self) -> None:
        section = self.section
        self.query_one(ReportTable).show(section)
        self.query_one("#report-rows").display = section is not None
        plot = self.query_one(IntervalPlot)
        plot.display = section is not None
        if section is not None:
            plot.show(_section_name(section), section.get("kind", "rate"),
                      section.get("rows") or [])
        self.show_detail()

    def show_detail(self) -> None:
        """The highlighted row in full: its interval, and its test against people with the
        warning when the sample is too small to say anything."""
        detail = self.query_one("#report-detail", Static)
        section = self.section
        grid = self.query_one(ReportTable)
        rows = (section or {}).get("rows") or []
        if section is None or not rows:
            detail.update("")
            return
        row = rows[min(grid.cursor_row, len(rows) - 1)]
        kind = section.get("kind", "rate")
        text = Text(f"▸ {row.get('who', '?')}", style="bold")
        text.append(f" ({KINDS.get(str(row.get('group')), row.get('group'))}): "
                    f"{figure(row.get('value'), kind)}")
        if row.get("group") != "paper":
            games = row.get("games", 0)
            text.append(f", 95% interval {interval(row, kind)}, {games} "
                        f"game{'' if games == 1 else 's'}")
        test = row.get("test")
        if isinstance(test, dict):
            text.append(f"\n  against people: {test.get('name', 'test')}, {test_text(row)}")
        if row.get("warning"):
            text.append(f"\n  ⚠ {row['warning']}", style="yellow")
        detail.update(text)

    # -- actions -------------------------------------------------------------------------------
    def action_move(self, delta: int) -> None:
        grid = self.query_one(ReportTable)
        if grid.row_count:
            grid.move_cursor(row=max(0, min(grid.row_count - 1, grid.cursor_row + delta)))
            self.show_detail()

    def action_pool(self) -> None:
        self.pool = _next(POOLS, self.pool)
        self.ask()

    def action_by(self) -> None:
        self.by = _next(BY, self.by)
        self.ask()

    def action_refresh(self) -> None:
        self.ask()

    def action_page(self, pages: int) -> None:
        scroll_pages(self.query_one("#report-body", VerticalScroll), pages)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_help(self) -> None:
        open_help(self, self.env_id)


def _section_name(section: dict[str, Any]) -> str:
    label = str(section.get("label") or section.get("metric") or "?")
    role = section.get("role")
    return f"{label} — {role}" if role else label
