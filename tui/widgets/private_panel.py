"""What only this seat knows (view["private"]), as labelled lines."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static


def format_value(value: Any) -> str:
    """A value as a person reads it (private panel, metrics, the revealed setup)."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e9 else f"{value:.3g}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {format_value(v)}" for k, v in value.items()) or "—"
    if isinstance(value, list | tuple):
        return ", ".join(format_value(v) for v in value) or "—"
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class PrivatePanel(Static):
    """Renders a mapping as `key  value` lines under a title."""

    def __init__(self, title: str = "Only you see", *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.border_title = title

    def show(self, data: dict[str, Any] | None) -> None:
        text = Text()
        for key, value in (data or {}).items():
            text.append(f"{key.replace('_', ' '):<16}", style="bold")
            text.append(format_value(value) + "\n")
        self.update(text if data else Text("(nothing private)", style="dim"))
