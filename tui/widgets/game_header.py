"""The lines above the game: env title, round, whose move and its clock, who you are, how many
watch, the score.
Short enough for 80 columns; it wraps to a second line rather than cut anything."""

from __future__ import annotations

import time

from rich.text import Text
from textual.widgets import Static

from tui.session import Session, watching_text

SEP = ("  ·  ", "dim")


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
        public = session.public
        text = Text()
        text.append(f" {table.get('title') or table.get('env', 'Game')} ", style="bold reverse")
        parts: list[Text] = []
        if "round" in public:
            total = f"/{public['rounds']}" if "rounds" in public else ""
            parts.append(Text(f"Round {public['round']}{total}", style="bold"))
        if session.game_over:
            parts.append(Text("GAME OVER", style="bold yellow"))
        elif session.awaiting_us:
            move = Text("YOUR MOVE", style="bold green")
            deadline = (session.turn or {}).get("deadline")
            if deadline:
                left = max(0, int(deadline - time.time()))
                move.append(f" {left // 60}:{left % 60:02d}",
                            style="bold red" if left < 30 else "bold")
            parts.append(move)
        if session.seat is not None:
            parts.append(Text(f"you are {session.seat_name(session.seat)}"))
        else:
            parts.append(Text("watching", style="italic"))
        watchers = watching_text(table, session.seat is None)
        if watchers:
            parts.append(Text(watchers, style="dim"))
        score = public.get("score") if isinstance(public.get("score"), list) else \
            public.get("scores")
        if isinstance(score, list) and score:
            parts.append(Text(" – ".join(f"{session.seat_name(i)} {s}"
                                          for i, s in enumerate(score))))
        for part in parts:
            text.append(*SEP)
            text.append_text(part)
        self.update(text)
