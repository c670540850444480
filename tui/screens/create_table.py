"""New table: pick a preset (described in words), the player count (the preset's own counts)
and who sits in each seat: you, another person, a server bot or an LLM bot with its own spec.
Shift+↑/↓ move a seat's choice up or down, so you pick the seat you sit in. For the SocialMaze
envs that play stored instances, an Instance row picks one (`parlor maze import`), asks the
server to draw one in secret (so the person who sits cannot look its answer up by id), or leaves
the table's seed to generate one."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Static

from tui.screens.base import ParlorScreen
from tui.screens.help import open_help
from tui.widgets.cycler import Cycler
from tui.widgets.key_footer import KeyFooter
from tui.widgets.metrics_view import plain_label
from tui.widgets.seat_row import LLM, SeatRow
from tui.widgets.spec_input import EXAMPLE

HUMAN = "human"
TYPED = LLM  # the seat option whose LLM spec is typed in the seat's own input
GENERATED = ""  # the Instance row's first option: the table's seed makes the instance


def default_bot(bots: dict[str, str]) -> str:
    """The strongest-looking baseline: a scripted bot if the server has one, else random."""
    scripted = [b for b in bots if b.startswith("scripted:")]
    if "scripted:adaptive" in scripted:
        return "scripted:adaptive"
    return scripted[0] if scripted else ("random" if "random" in bots else next(iter(bots), HUMAN))


def describe_config(config: dict[str, Any]) -> str:
    """A preset's config in words: "9 rounds, 3 fields, 20 units, exact units: no"."""
    parts = []
    for key, value in config.items():
        label = plain_label(key).lower() if len(key) > 1 else key
        if value == "" or value is None:  # an unset setting (no imported instance, say)
            continue
        if isinstance(value, list):
            parts.append(f"{label}: {', '.join(map(str, value))}")
        elif isinstance(value, bool):
            parts.append(f"{label}: {'yes' if value else 'no'}")
        elif isinstance(value, int | float) and key.endswith("s") and not key.startswith(
                ("max_", "min_")):
            if value == 1:
                label = label.removesuffix("s")
            parts.append(f"{value:g} {label}")  # a count: "9 rounds", "1 communication turn"
        elif isinstance(value, int | float):
            parts.append(f"{label} {value:g}")
        else:
            parts.append(f"{label}: {value}")
    return ", ".join(parts)


class CreateTableScreen(ParlorScreen):
    KIND = "create"
    TITLE_FOR_HELP = "New table"
    BINDINGS = [
        Binding("ctrl+s", "create", "Create", key_display="^s/⏎"),
        Binding("enter", "create", "Create", show=False),
        Binding("escape", "cancel", "Cancel"),
        # Priority: the scrolling form would otherwise take ↑/↓ to scroll, not to move rows.
        Binding("down", "app.focus_next", "Move between rows", show=False, priority=True),
        Binding("up", "app.focus_previous", "Move between rows", show=False, priority=True),
        Binding("f1,question_mark", "help", "Help"),  # ? types into a spec, F1 works anywhere
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
        with VerticalScroll(id="create-box"):
            yield Static(Text(f"New table: {env.get('title') or env['id']}", style="bold"),
                         id="create-title")
            yield Static(Text("↑/↓ rows · ←/→ change · shift+↑/↓ move a seat · Enter or "
                              "Ctrl+S creates · Esc cancels", style="dim"))
            presets = list((env.get("presets") or {}).keys()) or ["default"]
            yield Cycler("Preset", [(p, p) for p in presets], env.get("default_preset"),
                         id="preset")
            yield Static(id="preset-config", classes="form-hint")
            counts = [str(n) for n in self.player_counts(env.get("default_preset"))]
            yield Cycler("Players", [(c, c) for c in counts],
                         self.default_count(env.get("default_preset"), counts), id="players")
            if self.plays_instances:
                yield Cycler("Instance", self.instance_options(), GENERATED, id="instance")
            yield Vertical(id="seat-rows")
            yield Static(id="create-error", classes="form-error")
        yield KeyFooter()

    @property
    def plays_instances(self) -> bool:
        """The server says a table of this env can play a stored instance."""
        return bool(self.env.get("stored_instances"))

    def player_counts(self, preset: str | None) -> list[int]:
        by_preset = self.env.get("preset_players") or {}
        return list(by_preset.get(preset or "") or self.env.get("players") or [2])

    def default_count(self, preset: str | None, counts: list[str]) -> str:
        """The count a table of `preset` starts with: the preset's own (the server says which:
        SocialGrid's league seats 7), else its first."""
        own = str((self.env.get("preset_default_players") or {}).get(preset or ""))
        return own if own in counts else counts[0]

    def instance_options(self) -> list[tuple[str, str]]:
        """The stored instances, each by its id and source (two files may reuse an id); the
        option's value is both, as JSON."""
        options = [(GENERATED, "generated from the table's seed")]
        stored = self.session.instances.get(self.env_id) or []
        sources = sorted({i.get("source") or "" for i in stored})
        if stored:  # drawn by the server: value {"random": source or null (any)}
            options.append((json.dumps({"random": None}),
                            "random stored instance, drawn in secret"
                            + (" (any source)" if len(sources) > 1 else "")))
        if len(sources) > 1:
            options += [(json.dumps({"random": s}), f"random stored instance from {s}")
                        for s in sources]
        for i in stored:
            label = f"{i['id']} ({i['source']})" if i.get("source") else i["id"]
            options.append((json.dumps([i["id"], i.get("source") or ""]),
                            label + (f" — {i['summary']}" if i.get("summary") else "")))
        return options

    async def on_mount(self) -> None:
        self.query_one("#create-box").can_focus = False  # focus goes to the rows, not the box
        if self.plays_instances:
            self.client.send("list_instances", env=self.env_id)
        self.show_preset()
        await self.build_seats()
        self.query_one("#preset").focus()

    def show_preset(self) -> None:
        presets = self.env.get("presets") or {}
        config = presets.get(self.query_one("#preset", Cycler).value) or {}
        self.query_one("#preset-config", Static).update(describe_config(config))

    @property
    def rows(self) -> list[SeatRow]:
        return list(self.query(SeatRow).results(SeatRow))

    async def build_seats(self) -> None:
        rows = self.query_one("#seat-rows", Vertical)
        count = int(self.query_one("#players", Cycler).value or 2)
        if len(self.rows) == count:  # a preset change and its player count both asked
            return
        await rows.remove_children()
        bots = self.session.bots_for(self.env_id)
        options = [(HUMAN, "human (a person)")] + [
            (ident, f"{ident} — {desc}" if desc else ident) for ident, desc in bots.items()] + [
            (TYPED, "typed spec: an LLM bot (its spec below)")]
        await rows.mount(*[SeatRow(seat, self.seat_label(seat), options,
                                   HUMAN if seat == 0 else default_bot(bots), id=f"seat-{seat}")
                           for seat in range(count)])
        self.show_seats()

    def seat_label(self, seat: int, you: bool = False) -> str:
        names = self.env.get("seat_names") or []
        name = f" {names[seat]}" if seat < len(names) else ""
        return f"Seat {seat}{name}" + (" (you)" if you else "")

    def show_seats(self) -> None:
        """Mark the seat you will sit in (the first one set to a person); values line up."""
        specs = self.seats()
        you = specs.index(HUMAN) if HUMAN in specs else None
        labels = [self.seat_label(row.seat, row.seat == you) for row in self.rows]
        width = max(map(len, labels), default=0)
        for row, label in zip(self.rows, labels, strict=True):
            row.set_label(label.ljust(width))

    def seats(self) -> list[str]:
        return [row.spec for row in self.rows]

    @on(Cycler.Changed, "#preset")
    async def _preset_changed(self) -> None:
        self.show_preset()
        players = self.query_one("#players", Cycler)
        before = players.value
        counts = [str(n) for n in self.player_counts(self.query_one("#preset", Cycler).value)]
        players.set_options([(c, c) for c in counts],
                            self.default_count(self.query_one("#preset", Cycler).value, counts))
        if players.value != before:
            await self.build_seats()

    @on(Cycler.Changed, "#players")
    async def _players_changed(self) -> None:
        await self.build_seats()

    @on(SeatRow.Changed)
    def _seat_changed(self) -> None:
        self.show_seats()
        if not self.creating:
            self.query_one("#create-error", Static).update("")

    @on(SeatRow.Move)
    def _move_seat(self, event: SeatRow.Move) -> None:
        rows = self.rows
        here = rows.index(event.row)
        there = here + event.delta
        if not 0 <= there < len(rows):
            self.app.bell()
            return
        a, b = rows[here], rows[there]
        mine, theirs = (a.kind, a.typed), (b.kind, b.typed)
        a.assign(*theirs)
        b.assign(*mine)
        b.focus_kind()
        self.show_seats()

    @on(Input.Submitted)
    def _spec_submitted(self) -> None:
        self.action_create()

    def action_create(self) -> None:
        if self.creating:  # one table per request: keys pressed while it is made do nothing
            return
        error = self.query_one("#create-error", Static)
        for row in self.rows:
            problem = row.problem
            if problem is not None:
                row.show_spec(shout=True)
                row.scroll_visible(animate=False)  # its own note says what is wrong
                error.update(Text(f"Fix the bot spec for seat {row.seat}: {problem}"
                                  if row.typed else f"Type the bot spec for seat {row.seat}, "
                                  f"e.g. {EXAMPLE}", style="bold red"))
                return
        seats = self.seats()
        body: dict[str, Any] = {"env": self.env_id, "seats": seats}
        if self.env.get("presets"):
            body["preset"] = self.query_one("#preset", Cycler).value
        if HUMAN in seats:
            body["join_seat"] = seats.index(HUMAN)
        if self.plays_instances and self.query_one("#instance", Cycler).value != GENERATED:
            chosen = json.loads(self.query_one("#instance", Cycler).value)
            if isinstance(chosen, dict):
                body["instance_random"] = True
                if chosen["random"] is not None:
                    body["instance_source"] = chosen["random"]
            else:
                body["instance"], body["instance_source"] = chosen
        self.creating = True
        self.client.send("create_table", **body)
        error.update(Text("Creating…", style="dim"))

    def action_cancel(self) -> None:
        self.app.pop_screen()

    def action_help(self) -> None:
        open_help(self, self.env_id)

    @on(Cycler.Changed, "#instance")
    def _instance_changed(self) -> None:
        """A stored instance of an env that plays it with its own preset (Find the Spy's
        one-solver `passive`) switches the preset, and so the seats, to it."""
        wanted = self.env.get("instance_preset")
        if self.query_one("#instance", Cycler).value != GENERATED and wanted in (
                self.env.get("presets") or {}):
            preset = self.query_one("#preset", Cycler)
            preset.set_options(preset.options, wanted)

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "instances" and msg.get("env") == self.env_id and self.plays_instances:
            picker = self.query_one("#instance", Cycler)
            picker.set_options(self.instance_options(), picker.value)
            return
        if msg["type"] == "error":
            self.creating = False
            self.query_one("#create-error", Static).update(
                Text(f"{msg.get('code')}: {msg.get('message')}", style="bold red"))
