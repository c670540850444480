"""What every league's report shares: a finished game of the league as the store keeps it, and
the report's last line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import Result


@dataclass(frozen=True)
class StoredGame:
    """A finished game of the league as the store keeps it."""

    id: int
    result: Result
    metrics: dict[str, Any]


def run_line(played: int, stored: int, seconds: float) -> str:
    """A league report's last line: the games this run played, those it found already stored
    (a run again on its --db), the wall time."""
    found = f", {stored} found already stored" if stored else ""
    return f"{played} games played now{found}; wall time {seconds:.1f} s"
