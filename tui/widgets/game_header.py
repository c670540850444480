"""One line above the game: env title, who you are, round and score when the view has them."""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual.widgets import Static

from tui.session import Session


class GameHeader(Static):
    """Redrawn on every server message, and each second while a deadline runs."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._session: Session | None = None

    def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        if self._session is not None and self._session.awaiting_us:
            self.show(self._session)

    def show(self, session: Session) -> None:
        self._session = session
        table = session.table or {}
        public: dict[str, Any] = (session.view or {}).get("public") or {}
        text = Text()
        text.append(f" {table.get('title') or table.get('env', 'Game')} ", style="bold reverse")
        if "round" in public:
            total = f"/{public['rounds']}" if "rounds" in public else ""
            text.append(f"  Round {public['round']}{total}", style="bold")
        if session.game_over:
            text.append("  GAME OVER", style="bold yellow")
        elif session.awaiting_us:
            text.append("  YOUR MOVE", style="bold green")
            deadline = (session.turn or {}).get("deadline")
            if deadline:
                left = max(0, int(deadline - time.time()))
                text.append(f" ({left // 60}:{left % 60:02d} left)",
                            style="bold red" if left < 30 else "")
        if session.seat is not None:
            text.append(f"  you: seat {session.seat}", style="bold")
            seat_label = _seat_label(table, session.seat)
            if seat_label:
                text.append(f" ({seat_label})")
        else:
            text.append("  spectating", style="italic")
        score = public.get("score")
        if isinstance(score, list) and score:
            text.append("   Score ")
            text.append(" – ".join(f"{session.seat_name(i)} {s}" for i, s in enumerate(score)))
        self.update(text)


def _seat_label(table: dict[str, Any], seat: int) -> str:
    for s in table.get("seats", []):
        if s.get("seat") == seat:
            return s.get("name") or ""
    return ""
