"""A game's metrics for people: game-level figures, then one table of per-seat figures, each
named by the env's plain label (`metric_labels`) or, failing that, its key in words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from server.wire.protocol import plain_label
from tui.widgets.private_panel import format_value

Labels = Mapping[str, str]


def flatten(metrics: Mapping[str, Any], labels: Labels | None, prefix: str = ""
            ) -> dict[str, tuple[str, Any]]:
    """{key path: (label, value)}; a nested mapping (e.g. a bot's `usage`) becomes one row per
    entry, labelled "Usage: tokens in" unless the env labels the path ("usage.tokens_in")."""
    rows: dict[str, tuple[str, Any]] = {}
    for key, value in metrics.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            for sub, (label, inner) in flatten(value, labels, f"{path}.").items():
                if not (labels and sub in labels):
                    label = f"{plain_label(key, labels)}: {label[:1].lower()}{label[1:]}"
                rows[sub] = (label, inner)
        else:
            rows[path] = (plain_label(path if labels and path in labels else key, labels), value)
    return rows


class MetricsView(Static):
    """`show(metrics, labels, names)`: metrics as the env reports them ({"game": {...},
    "seats": {"0": {...}}}; any other mapping counts as game-level), `names` per seat."""

    _shown: tuple[Any, ...] | None = None  # the last show's arguments, drawn at _width
    _width = 0

    def on_resize(self) -> None:
        if self._shown is not None and self.size.width != self._width:
            self.show(*self._shown)

    def show(self, metrics: Any, labels: Labels | None, names: Mapping[int, str]) -> None:
        self._shown, self._width = (metrics, labels, names), self.size.width
        if not isinstance(metrics, Mapping) or not metrics:
            self.update(Text("No metrics for this game.", style="dim"))
            return
        if "game" in metrics or "seats" in metrics:
            game, seats = metrics.get("game") or {}, metrics.get("seats") or {}
        else:
            game, seats = metrics, {}
        parts: list[RenderableType] = []
        if game:
            parts.append(pairs_table(flatten(game, labels).values()))
        if seats:
            parts.extend(_seat_table(seats, labels, names, self.size.width
                                     or self.app.size.width))
        self.update(Group(*parts) if parts else Text("No metrics for this game.", style="dim"))


def pairs_table(rows: Iterable[tuple[str, Any]], per_line: int = 2) -> Table:
    """Label/value pairs, `per_line` pairs to a line."""
    table = Table.grid(padding=(0, 2))
    for _ in range(per_line):
        table.add_column(style="bold")
        table.add_column()
    items = [r for r in rows if r[1] != ""]  # an empty text (a task's one kind) says nothing
    for i in range(0, len(items), per_line):
        cells: list[str] = []
        for label, value in items[i:i + per_line]:
            cells += [label, format_value(value)]
        table.add_row(*cells)
    return table


LABEL_ROOM = 30  # columns a figure's label may take before it wraps
VALUE_ROOM = 5  # columns a figure takes: "0.667", "-10.3" (format_value)


def _seat_table(seats: Mapping[str, Any], labels: Labels | None, names: Mapping[int, str],
                width: int = 0) -> list[RenderableType]:
    """One row per metric, one column per seat; a figure that is zero (or none) for every
    seat is left out, said in the caption: the error columns of a clean game are a dozen rows
    of zeros. Where the names do not fit as column heads beside the labels (seven players at
    80 columns), the columns are headed by seat number and a line above names them."""
    order = sorted(seats, key=lambda k: int(k) if str(k).isdigit() else 0)
    per_seat = {k: flatten(seats[k] or {}, labels) for k in order}
    paths: dict[str, str] = {}
    for rows in per_seat.values():
        for path, (label, _) in rows.items():
            paths.setdefault(path, label)
    table = Table(title="Per seat", title_justify="left", box=None, padding=(0, 1),
                  header_style="bold")
    heads = {key: names.get(int(key) if str(key).isdigit() else -1, f"seat {key}")
             for key in order}
    longest = max((len(label) for label in paths.values()), default=0)
    needed = min(longest, LABEL_ROOM) + sum(max(len(h), VALUE_ROOM) + 2 for h in heads.values())
    numbered = bool(width) and needed > width
    seat_key: RenderableType = Text("")
    if numbered:  # each seat's name whole on one line, as many to a line as fit
        seat_key = Columns([Text.assemble((f"{k}", "bold"), f" {head}") for k, head in heads.items()],
                      padding=(0, 2), title=None)
        heads = {k: str(k) for k in order}
        table.title = None  # the title goes above the names instead
    table.add_column("")
    for key in order:
        table.add_column(heads[key], justify="right", overflow="fold", no_wrap=numbered)
    zero = 0
    for path, label in paths.items():
        values = [per_seat[k][path][1] if path in per_seat[k] else None for k in order]
        if all(v is None or (v == 0 and not isinstance(v, str)) for v in values):
            zero += 1
            continue
        table.add_row(Text(label, style="bold"),
                      *["—" if v is None else format_value(v) for v in values])
    if zero:
        table.caption = f"{zero} more figures are zero for every seat."
        table.caption_justify = "left"
        table.caption_style = "dim"
    return [Text("Per seat", style="bold"), seat_key, table] if numbered else [table]
