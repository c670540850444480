"""A one-line picker: a label and a value changed with left/right (keyboard-first Select)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class Cycler(Widget, can_focus=True):
    """Shows `label  ‹ value ›`; ←/→ step through `options` (id, label) pairs."""

    DEFAULT_CSS = "Cycler { height: 1; width: 1fr; }"
    BINDINGS = [
        Binding("left", "step(-1)", "Prev", show=True),
        Binding("right", "step(1)", "Next", show=True),
    ]
    index: reactive[int] = reactive(0)

    class Changed(Message):
        def __init__(self, cycler: Cycler, value: str) -> None:
            super().__init__()
            self.cycler = cycler
            self.value = value

        @property
        def control(self) -> Cycler:
            return self.cycler

    def __init__(self, label: str, options: Sequence[tuple[str, str]], value: str | None = None,
                 *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.label = label
        self.options = list(options) or [("", "(none)")]
        ids = [o[0] for o in self.options]
        self.set_reactive(Cycler.index, ids.index(value) if value in ids else 0)

    @property
    def value(self) -> str:
        return self.options[self.index][0]

    def set_options(self, options: Sequence[tuple[str, str]], value: str | None = None) -> None:
        keep = value if value is not None else self.value
        self.options = list(options) or [("", "(none)")]
        ids = [o[0] for o in self.options]
        self.index = ids.index(keep) if keep in ids else 0
        self.refresh()

    def render(self) -> Text:
        text = Text()
        text.append(f"{self.label:<14} ", style="bold")
        text.append("‹ ", style="dim")
        text.append(self.options[self.index][1], style="reverse" if self.has_focus else "")
        text.append(" ›", style="dim")
        text.append(f"   ({self.index + 1}/{len(self.options)})", style="dim")
        return text

    def action_step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.options)

    def watch_index(self) -> None:
        self.post_message(self.Changed(self, self.value))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
