"""Codenames turn history: each turn's clue and guesses (coloured by what they revealed), newest
at the bottom, read from the public view (finished turns, then the turn being played)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

LABELS = ("red", "blue", "neutral", "assassin")
ENDED = {"wrong": "wrong guess", "limit": "no guesses left", "pass": "passed",
         "skipped": "skipped: invalid answer", "no clue": "no clue given"}


def turn_line(entry: Mapping[str, Any], styles: Mapping[str, Style] | None = None) -> Text:
    """One turn: `3 blue [ocean 2] → whale✓ ship✗ (wrong guess)`; `styles` colour the labels."""
    styles = styles or {}
    team = entry.get("team", "?")
    line = Text(f"{entry.get('turn', '?'):>2} ", style="dim")
    line.append(f"{team:<4} ", style=styles.get(team, ""))
    if entry.get("clue"):
        line.append(f"[{entry['clue']} {entry.get('number')}]", style="bold")
    else:
        line.append("(no clue)", style="dim")
    guesses: Sequence[Mapping[str, Any]] = entry.get("guesses") or []
    if guesses:
        line.append(" →")
    for g in guesses:
        label = g.get("label", "")
        right = label == team
        line.append(f" {g.get('word')}", style=styles.get(label, ""))
        line.append("✓" if right else "✗", style="green" if right else "red")
    ended = entry.get("ended")
    if ended:
        line.append(f"  ({ENDED.get(ended, ended)})", style="dim")
    return line


class CnHistory(VerticalScroll):
    """Scrolls to the newest turn whenever a turn is added."""

    COMPONENT_CLASSES = {f"cn-history--{label}" for label in LABELS}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[Any, ...] = ()

    def compose(self) -> ComposeResult:
        yield Static("", id="cn-history-text")

    def show(self, public: Mapping[str, Any]) -> None:
        history = list(public.get("history") or [])
        current = public.get("clue")
        if current is not None or public.get("this_turn"):
            history.append({"turn": public.get("turn"), "team": public.get("team"),
                            "clue": (current or {}).get("word"),
                            "number": (current or {}).get("number"),
                            "guesses": public.get("this_turn") or [], "ended": None})
        state = tuple((h.get("turn"), h.get("ended"), len(h.get("guesses") or []))
                      for h in history)
        if state == self._shown:
            return
        self._shown = state
        text = Text("Turns", style="bold")
        if not history:
            text.append("\n  none yet", style="dim")
        styles = {label: self.get_component_rich_style(f"cn-history--{label}", partial=True)
                  for label in LABELS}
        for entry in history:
            text.append("\n")
            text.append_text(turn_line(entry, styles))
        self.query_one("#cn-history-text", Static).update(text)
        self.scroll_end(animate=False)
