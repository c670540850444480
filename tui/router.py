"""Which screen a server message leads to, given the session after the message was applied."""

from __future__ import annotations

from typing import Any

from tui.screens.base import ParlorScreen
from tui.screens.consent import ConsentScreen
from tui.screens.game import GameScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.result import ResultScreen
from tui.screens.table import TableScreen
from tui.session import Session

# Screens a game message may not pull the player away from.
_AT_GAME = ("game", "result")


def next_screen(session: Session, msg: dict[str, Any], current: str) -> type[ParlorScreen] | None:
    kind = msg["type"]
    if kind == "welcome":
        if current == "connect" and session.consent_needed:
            return ConsentScreen  # a study: its consent text before any game
        # Back from a reconnect at a running table: stay put until `resume` answers.
        if current == "connect" and (session.table is None or session.game_over):
            return LobbyScreen
        return None
    if kind == "study" and current == "consent" and not session.consent_needed:
        return LobbyScreen  # agreed: on to the games
    table = session.table
    if table is None:
        return None
    if kind == "table" and msg["table"]["id"] == table["id"]:
        status = table.get("status")
        if status == "waiting" and session.seat is not None and current != "table":
            return TableScreen
        if status == "playing" and current not in _AT_GAME:
            return GameScreen
        return None
    if msg.get("table_id") != table["id"]:
        return None
    if kind == "game_over" and current != "result":
        return ResultScreen
    if kind in ("your_turn", "event") and current not in _AT_GAME and session.game_over is None:
        return GameScreen
    return None
