"""What was hidden during the game (roles, the map, a secret word...), revealed at its end."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widgets import Static

from tui.widgets.metrics_view import plain_label
from tui.widgets.private_panel import format_value


def setup_lines(setup: Mapping[str, Any], names: Mapping[int, str]) -> list[tuple[str, str]]:
    """(label, text) lines: a list with one entry per seat (e.g. roles) gets a line per seat
    named after its player; other values are written out in words."""
    lines: list[tuple[str, str]] = []
    for key, value in setup.items():
        label = plain_label(str(key))
        if _per_seat(str(key), value, len(names)):
            for seat, item in enumerate(value):
                lines.append((f"{label}: {names.get(seat, f'seat {seat}')}", _item(item)))
        elif isinstance(value, Mapping) and value:
            for sub, inner in value.items():
                lines.append((f"{label}: {plain_label(str(sub))}", _item(inner)))
        else:
            lines.append((label, _item(value)))
    return lines


def _per_seat(key: str, value: Any, seats: int) -> bool:
    """A list with one entry per seat: roles, sides, each seat's word..."""
    if not isinstance(value, list) or not value or len(value) != seats:
        return False
    return key.endswith(("roles", "sides", "words", "seats")) or all(
        isinstance(v, Mapping) for v in value)


def _item(value: Any) -> str:
    if isinstance(value, Mapping) and "name" in value:
        side = value.get("side")
        return f"{value['name']}" + (f" ({side} side)" if side and side != value["name"] else "")
    return format_value(value)


def setup_renderable(setup: Mapping[str, Any] | None, names: Mapping[int, str],
                     drawn: tuple[RenderableType, Collection[str]] | None = None
                     ) -> RenderableType:
    """`drawn`: the env widget's picture of part of the setup and the keys it covers (the rest
    is listed in words below it)."""
    if not setup:
        return Text("Nothing was hidden in this game.", style="dim")
    text = Text()
    covered = drawn[1] if drawn else ()
    lines = setup_lines({k: v for k, v in setup.items() if k not in covered}, names)
    width = min(30, max((len(label) for label, _ in lines), default=0))
    for label, value in lines:
        text.append(f"{label:<{width}}  ", style="bold")
        text.append(value + "\n")
    text.rstrip()
    return Group(drawn[0], text) if drawn else text


class SetupReveal(Static):
    def show(self, setup: Mapping[str, Any] | None, names: Mapping[int, str],
             drawn: tuple[RenderableType, Collection[str]] | None = None) -> None:
        self.update(setup_renderable(setup, names, drawn))
