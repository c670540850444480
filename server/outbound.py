"""THE choke point for game data: every message that carries a view or events is built here,
for one recipient seat (None = spectator), from that recipient's view and visible events only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from engine.core import Event
from server.protocol import message
from server.ratings import Rating

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


def game_over_message(table: Table, metrics: dict[str, Any], statuses: Mapping[int, str],
                      changes: Mapping[int, tuple[Rating | None, Rating]]) -> dict[str, Any]:
    """The end of a game: the same for every recipient (only post-game, public data)."""
    game = table.game
    assert game is not None and game.result is not None
    return message("game_over", table_id=table.id, game_id=table.game_id,
                   result=game.result.to_json(), metrics=metrics,
                   statuses={str(k): v for k, v in statuses.items()},
                   rating_changes={str(s): {"identity": table.seats[s].identity,
                                            "before": _rating(before), "after": _rating(after)}
                                   for s, (before, after) in changes.items()})


def _rating(r: Rating | None) -> dict[str, float] | None:
    return None if r is None else {"mu": r[0], "sigma": r[1]}


def history_message(table: Table, seat: int | None) -> dict[str, Any]:
    """Everything `seat` may see so far (for spectators joining late and resumed players)."""
    game = table.game
    assert game is not None
    return events_message(table, seat, game.events_for(seat))
