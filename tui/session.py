"""What the TUI knows: the model built only from server messages (never from widget state).

`Session.apply` folds one server message in. Screens render from it; the app decides which
screen to show from it. Nothing here imports Textual, so the model is easy to test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Session:
    name: str
    url: str
    player: dict[str, Any] | None = None
    envs: list[dict[str, Any]] = field(default_factory=list)
    bots: Any = None
    tables: list[dict[str, Any]] = field(default_factory=list)
    table: dict[str, Any] | None = None  # the table we sit at (or watch)
    watching: str | None = None  # table id we asked to spectate
    seat: int | None = None
    turn: dict[str, Any] | None = None  # latest your_turn for our table
    answered_turn: int | None = None  # turn number of the act we sent last
    view: dict[str, Any] | None = None
    text: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)
    game_over: dict[str, Any] | None = None
    leaderboards: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    last_error: dict[str, Any] | None = None

    # -- folding server messages ------------------------------------------------------------
    def apply(self, msg: dict[str, Any]) -> None:
        handler = getattr(self, f"_on_{msg['type']}", None)
        if handler is not None:
            handler(msg)

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        self.player = msg.get("player")
        self.envs = list(msg.get("envs") or [])
        self.bots = msg.get("bots")

    def _on_envs(self, msg: dict[str, Any]) -> None:
        self.envs = list(msg.get("envs") or [])

    def _on_tables(self, msg: dict[str, Any]) -> None:
        self.tables = list(msg.get("tables") or [])

    def _on_table(self, msg: dict[str, Any]) -> None:
        table = msg["table"]
        mine = msg.get("your_seat")
        current = self.table is not None and self.table["id"] == table["id"]
        if mine is not None or current or table["id"] == self.watching:
            if self.table is None or self.table["id"] != table["id"]:
                self._enter(table)
            self.table = table
            if mine is not None:
                self.seat = mine
        self.tables = [table if t["id"] == table["id"] else t for t in self.tables]

    def _on_your_turn(self, msg: dict[str, Any]) -> None:
        if not self._ours(msg):
            return
        self.turn = msg
        self.answered_turn = None
        self.view = msg.get("view")
        self.text = msg.get("text") or self.text
        self.seat = msg.get("seat", self.seat)

    def _on_event(self, msg: dict[str, Any]) -> None:
        if not self._ours(msg):
            return
        seen = {e["seq"] for e in self.events}
        self.events.extend(e for e in msg.get("events") or [] if e.get("seq") not in seen)
        if msg.get("view") is not None:
            self.view = msg["view"]
        self.text = msg.get("text") or self.text

    def _on_game_over(self, msg: dict[str, Any]) -> None:
        if not self._ours(msg):
            return
        self.game_over = msg
        self.turn = None

    def _on_leaderboard(self, msg: dict[str, Any]) -> None:
        self.leaderboards[msg["env"]] = list(msg.get("rows") or [])

    def _on_error(self, msg: dict[str, Any]) -> None:
        self.last_error = msg
        # A refused action (bad input, retry) leaves our turn open: let the player answer again.
        if msg.get("code") in ("bad_action", "not_your_turn", "bad_message"):
            self.answered_turn = None

    # -- helpers ------------------------------------------------------------------------------
    def _ours(self, msg: dict[str, Any]) -> bool:
        return self.table is not None and msg.get("table_id") == self.table["id"]

    def _enter(self, table: dict[str, Any] | None) -> None:
        """Start following a table (or none): forget everything about the previous one."""
        self.table = table
        self.seat = None
        self.turn = None
        self.answered_turn = None
        self.view = None
        self.text = ""
        self.events = []
        self.game_over = None

    def leave_table(self) -> None:
        self._enter(None)

    def answered(self) -> None:
        """We sent an act for the current turn; wait for the server's next word."""
        if self.turn is not None:
            self.answered_turn = self.turn["turn"]

    @property
    def awaiting_us(self) -> bool:
        """Whether the server waits for our decision and we have not answered yet."""
        return (self.turn is not None and self.game_over is None
                and self.answered_turn != self.turn["turn"])

    @property
    def legal(self) -> dict[str, Any] | None:
        return self.turn["legal"] if self.awaiting_us and self.turn else None

    def env_info(self, env_id: str) -> dict[str, Any] | None:
        return next((e for e in self.envs if e["id"] == env_id), None)

    def seat_name(self, seat: int) -> str:
        """How to call a seat: the player's name, else the bot identity, else the env's name."""
        if self.table is not None:
            for s in self.table.get("seats", []):
                if s["seat"] == seat:
                    return s.get("player") or s.get("identity") or s.get("name") or f"seat {seat}"
        return f"seat {seat}"

    def bots_for(self, env_id: str) -> dict[str, str]:
        """Bot identities the server can seat at `env_id`, with descriptions.

        `welcome.bots` is either {identity: description}, {env: {identity: description}} or a
        list of {identity, description, envs?}; all three are read the same way.
        """
        bots = self.bots
        if isinstance(bots, dict) and env_id in bots and isinstance(bots[env_id], dict | list):
            bots = bots[env_id]
        out: dict[str, str] = {}
        if isinstance(bots, dict):
            for ident, desc in bots.items():
                if isinstance(desc, str):
                    out[ident] = desc
        elif isinstance(bots, list):
            for b in bots:
                if isinstance(b, str):
                    out[b] = ""
                elif isinstance(b, dict) and "identity" in b:
                    envs = b.get("envs")
                    if envs is None or env_id in envs:
                        out[b["identity"]] = b.get("description", "")
        return out
