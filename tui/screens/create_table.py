"""New table: pick a preset, the player count and who sits in each seat (you, others or a bot)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Input, Static

from tui.screens.base import ParlorScreen
from tui.widgets.cycler import Cycler

HUMAN = "human"
TYPED = "typed"  # seat option: the bot spec typed in the input below the seats
SPEC_HINT = "openai:gpt-4o-mini, anthropic:claude-haiku-4-5, openai-compatible:MODEL@URL"


def default_bot(bots: dict[str, str]) -> str:
    """The strongest-looking baseline: a scripted bot if the server has one, else random."""
    scripted = [b for b in bots if b.startswith("scripted:")]
    if "scripted:adaptive" in scripted:
        return "scripted:adaptive"
    return scripted[0] if scripted else ("random" if "random" in bots else next(iter(bots), HUMAN))


class CreateTableScreen(ParlorScreen):
    KIND = "create"
    BINDINGS = [
        Binding("ctrl+s", "create", "Create table"),
        Binding("escape", "cancel", "Cancel"),
        Binding("down", "app.focus_next", "Next row", show=False),
        Binding("up", "app.focus_previous", "Prev row", show=False),
    ]

    def __init__(self, env_id: str) -> None:
        super().__init__()
        self.env_id = env_id
        self.creating = False

    @property
    def env(self) -> dict[str, Any]:
        return self.session.env_info(self.env_id) or {"id": self.env_id, "players": [2]}

    def compose(self) -> ComposeResult:
        env = self.env
        with Vertical(id="create-box"):
            yield Static(Text(f"New table: {env.get('title') or env['id']}", style="bold"),
                         id="create-title")
            yield Static(Text("↑/↓ move between rows, ←/→ change a value, Enter or Ctrl+S "
                              "creates the table, Esc cancels.", style="dim"))
            presets = list((env.get("presets") or {}).keys()) or ["default"]
            yield Cycler("Preset", [(p, p) for p in presets], env.get("default_preset"),
                         id="preset")
            yield Static(id="preset-config", classes="form-hint")
            counts = [str(n) for n in env.get("players", [2])]
            yield Cycler("Players", [(c, c) for c in counts], id="players")
            yield Vertical(id="seat-rows")
            yield Static(Text("Bot spec for seats set to “typed spec” (LLM bots; keys come from "
                              "the server's environment):", style="dim"))
            yield Input(placeholder=SPEC_HINT, id="typed-spec")
            yield Static(id="create-error", classes="form-error")
        yield Footer()

    async def on_mount(self) -> None:
        self.show_preset()
        await self.build_seats()
        self.query_one("#preset").focus()

    def show_preset(self) -> None:
        presets = self.env.get("presets") or {}
        config = presets.get(self.query_one("#preset", Cycler).value) or {}
        self.query_one("#preset-config", Static).update(
            Text(", ".join(f"{k}={v}" for k, v in config.items()), style="dim"))

    async def build_seats(self) -> None:
        rows = self.query_one("#seat-rows", Vertical)
        await rows.remove_children()
        count = int(self.query_one("#players", Cycler).value or 2)
        bots = self.session.bots_for(self.env_id)
        options = [(HUMAN, "human (a person)")] + [
            (ident, f"{ident} — {desc}" if desc else ident) for ident, desc in bots.items()] + [
            (TYPED, "typed spec (an LLM bot: type its spec below)")]
        names = self.env.get("seat_names") or []
        cyclers = []
        for seat in range(count):
            label = f"Seat {seat}" + (f" {names[seat]}" if seat < len(names) else "")
            value = HUMAN if seat == 0 else default_bot(bots)
            cyclers.append(Cycler(label, options, value, id=f"seat-{seat}", classes="seat-row"))
        await rows.mount(*cyclers)

    @on(Cycler.Changed, "#preset")
    def _preset_changed(self) -> None:
        self.show_preset()

    @on(Cycler.Changed, "#players")
    async def _players_changed(self) -> None:
        await self.build_seats()

    def key_enter(self) -> None:
        self.action_create()

    def seats(self) -> list[str]:
        typed = self.query_one("#typed-spec", Input).value.strip()
        return [typed if c.value == TYPED else c.value
                for c in self.query(".seat-row").results(Cycler)]

    @on(Input.Submitted, "#typed-spec")
    def _spec_submitted(self) -> None:
        self.action_create()

    def action_create(self) -> None:
        if self.creating:  # one table per request: keys pressed while it is made do nothing
            return
        seats = self.seats()
        if "" in seats:
            self.query_one("#create-error", Static).update(
                Text(f"Type the bot spec for the “typed spec” seats, e.g. {SPEC_HINT}",
                     style="bold red"))
            return
        body: dict[str, Any] = {"env": self.env_id, "seats": seats}
        if self.env.get("presets"):
            body["preset"] = self.query_one("#preset", Cycler).value
        if HUMAN in seats:
            body["join_seat"] = seats.index(HUMAN)
        self.creating = True
        self.client.send("create_table", **body)
        self.query_one("#create-error", Static).update(Text("Creating…", style="dim"))

    def action_cancel(self) -> None:
        self.app.pop_screen()

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "error":
            self.creating = False
            self.query_one("#create-error", Static).update(
                Text(f"{msg.get('code')}: {msg.get('message')}", style="bold red"))
