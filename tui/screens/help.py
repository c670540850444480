"""Help over any screen: the keys of the screen it was opened from, then the rules of the game.

A screen opens it with `open_help(self, env_id)` (bound to ? and F1 with `HELP_BINDING`). The
keys are read from the opening screen's active bindings at that moment (the focused widget's
first), so the list is always the one the footer draws from. The rules are the env's `help`
markdown from the server's env description; an older server without it gets the one-line
description instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Markdown, Static

from tui.screens.base import ParlorScreen, scroll_pages
from tui.widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    from tui.session import Session

# Add to a screen's BINDINGS, with an `action_help` that calls `open_help`.
HELP_BINDING = Binding("question_mark,f1", "help", "Help", key_display="?")
KeyRow = tuple[str, str]  # (keys as shown, what they do)


def screen_keys(screen: Screen) -> list[KeyRow]:
    """Each key Parlor binds on `screen` now (the focused widget's first), with what it does;
    keys doing the same are merged (`enter/esc`). Textual's own defaults (focus cycling, copy,
    the command palette) are left out: they work everywhere and the footer shows what counts."""
    rows: dict[tuple[int, str], list[str]] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if (not binding.description or binding.system or not active.enabled
                or (key, binding.action) not in _parlor_actions(active.node)):
            continue
        shown = screen.app.get_key_display(Binding(key, binding.action))
        group = rows.setdefault((id(active.node), binding.description), [])
        if shown not in group:
            group.append(shown)
    return [("/".join(keys), description) for (_, description), keys in rows.items()]


def _parlor_actions(node: object) -> set[tuple[str, str]]:
    """The (key, action) pairs bound by the Parlor classes (tui.*) that `node` is made of."""
    pairs: set[tuple[str, str]] = set()
    for cls in type(node).__mro__:
        if cls.__module__.startswith("tui."):
            for binding in cls.__dict__.get("BINDINGS", []):
                keys, action = ((binding.key, binding.action) if isinstance(binding, Binding)
                                else (binding[0], binding[1]))
                pairs |= {(key.strip(), action) for key in keys.split(",")}
    return pairs


def rules_markdown(env: dict[str, Any] | None) -> str:
    """The env's rules for people; its description when the server sends no rules."""
    if not env:
        return "*No game is chosen here, so there are no rules to show.*"
    rules = env.get("help")
    if isinstance(rules, str) and rules.strip():
        return rules
    described = env.get("description") or ""
    return f"{described}\n\n*This server sends no full rules for this game.*".strip()


def open_help(screen: Screen, env_id: str | None) -> None:
    """Show help over `screen`: its keys now and the rules of `env_id` (None: keys only)."""
    session: Session = screen.app.session  # type: ignore[attr-defined]
    env = session.env_info(env_id) if env_id else None
    title = getattr(screen, "TITLE_FOR_HELP", "") or type(screen).__name__.removesuffix("Screen")
    screen.app.push_screen(HelpScreen(screen, title, screen_keys(screen), env))


class HelpScreen(ParlorScreen, ModalScreen[None]):
    """Keys and rules, scrollable; closes with Escape, q, ? or F1.

    For the app it is the screen it was opened over: it reports that screen's KIND (so a
    server message never rebuilds the game under it) and passes it every server update."""

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "Close help"),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
    ]

    def __init__(self, opener: Screen, where: str, keys: list[KeyRow],
                 env: dict[str, Any] | None) -> None:
        super().__init__()
        self.opener = opener
        self.where = where
        self.keys = keys
        self.env = env

    @property  # type: ignore[override]
    def KIND(self) -> str:
        return getattr(self.opener, "KIND", "")

    def server_update(self, msg: dict[str, Any]) -> None:
        if isinstance(self.opener, ParlorScreen) and self.opener.is_attached:
            self.opener.post_message(ParlorScreen.Update(msg))

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Static(Text(f"Help — {self.where}", style="bold"), id="help-title")
            with VerticalScroll(id="help-scroll"):
                yield Static(Text("Keys on this screen", style="bold"), classes="help-heading")
                yield Static(keys_table(self.keys), id="help-keys")
                if self.env is not None:
                    rules = rules_markdown(self.env)
                    if not rules.lstrip().startswith("#"):  # the rules bring their own title
                        title = self.env.get("title") or self.env.get("id", "")
                        yield Static(Text(f"How to play {title}", style="bold"),
                                     classes="help-heading")
                    yield Markdown(rules, id="help-rules")
            yield Static(Text("↑/↓ and PgUp/PgDn scroll · Esc, q or ? closes", style="dim"),
                         id="help-hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_page(self, pages: int) -> None:
        scroll_pages(self.query_one("#help-scroll", VerticalScroll), pages)


def keys_table(keys: list[KeyRow]) -> Table | Text:
    if not keys:
        return Text("(no keys)", style="dim")
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for shown, description in keys:
        table.add_row(shown, description)
    return table
