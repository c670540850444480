"""THE choke point for game data: every message that carries a view or events is built here,
for one recipient seat (None = spectator), from that recipient's view and visible events only."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engine.core import Event
from server.protocol import message

if TYPE_CHECKING:
    from server.tables import Table


def _event_json(e: Event) -> dict[str, Any]:
    return {"seq": e.seq, "step": e.step, "type": e.type, "data": dict(e.data)}


def events_message(table: Table, seat: int | None, events: Iterable[Event]) -> dict[str, Any]:
    """New events visible to `seat`, with its current view and the view rendered as text."""
    game = table.game
    assert game is not None
    view = game.view(seat)
    return message("event", table_id=table.id, seat=seat,
                   events=[_event_json(e) for e in events if e.visible(seat)],
                   view=view, text=table.env.render(view))


def turn_message(table: Table, seat: int, turn: int, deadline: float | None) -> dict[str, Any]:
    game = table.game
    assert game is not None
    view = game.view(seat)
    return message("your_turn", table_id=table.id, seat=seat, turn=turn, view=view,
                   legal=game.legal(seat).to_json(), text=table.env.render(view),
                   deadline=deadline)


def history_message(table: Table, seat: int | None) -> dict[str, Any]:
    """Everything `seat` may see so far (for spectators joining late and resumed players)."""
    game = table.game
    assert game is not None
    return events_message(table, seat, game.events_for(seat))
