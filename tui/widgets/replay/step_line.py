"""The replay's step line: where we are, the env's clock, the perspective and the play speed."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static


def clock_text(clock: dict[str, Any] | None) -> str:
    """"round 3 · phase night" (the env's clock in words; an env's own "step", SocialGrid's
    timestep, is called that, apart from the replay's step)."""
    return " · ".join(f"{'timestep' if k == 'step' else str(k).replace('_', ' ')} {v}"
                      for k, v in (clock or {}).items())


class StepLine(Static):
    def show(self, title: str, perspective: str, at: int, count: int, clock: dict[str, Any] | None,
             playing: bool, speed: float, live: bool, note: str = "") -> None:
        text = Text()
        text.append(f"Replay — {title}", style="bold")
        text.append(f"  ·  {perspective}", style="bold")
        if live:
            text.append("  ·  live (delayed)", style="italic")
        text.append("\n")
        text.append(f"step {at} / {max(count - 1, 0)}")
        if clock:
            text.append(f" · {clock_text(clock)}")
        text.append("   ")
        text.append("▶ playing" if playing else "⏸ paused", style="bold" if playing else "dim")
        text.append(f" {speed:g} fps")
        if note:
            text.append(f"   {note}", style="italic")
        self.update(text)
