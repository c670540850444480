"""THE choke point for game data: every message that carries a view or events is built here,
for one recipient seat (None = spectator), from that recipient's view and visible events only."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from engine.core import Event
from engine.outcome import seat_outcome
from server.protocol import message
from server.ratings import Rating

if TYPE_CHECKING:
    from server.tables import Table


RECENT_EVENTS = 100  # events a late joiner (spectator, resumed player) gets with the view
HISTORY_PAGE = 200  # most events in one `history` reply
HISTORY_PAGE_CHARS = 48_000  # and a page stops once its event texts and data pass about this


def _describer(table: Table) -> Callable[[Event, int | None], str]:
    """The env's transcript line for an event, naming seats by the table's display names."""
    describe, name = table.env.describe_event, table.namer()
    return lambda e, seat: describe(e, seat, name=name)


def _event_json(e: Event, seat: int | None, describe: Callable[[Event, int | None], str]
                ) -> dict[str, Any]:
    return {"seq": e.seq, "step": e.step, "clock": dict(e.clock), "type": e.type,
            "data": dict(e.data), "text": describe(e, seat)}


def events_message(table: Table, seat: int | None, events: Iterable[Event]) -> dict[str, Any]:
    """New events visible to `seat`, with its current view and the view rendered as text."""
    game = table.game
    assert game is not None
    view = game.view(seat)
    describe = _describer(table)
    return message("event", table_id=table.id, seat=seat,
                   events=[_event_json(e, seat, describe) for e in events if e.visible(seat)],
                   view=view, text=table.env.render(view))


def history_page(table: Table, seat: int | None, since: int, limit: int = HISTORY_PAGE
                 ) -> dict[str, Any]:
    """Events visible to `seat` from seq `since` on, one bounded page; `next` is the seq to ask
    for next (None when the page reaches the latest event)."""
    game = table.game
    assert game is not None
    limit = max(1, min(limit, HISTORY_PAGE))
    page: list[dict[str, Any]] = []
    size = 0
    next_seq: int | None = None
    describe = _describer(table)
    for e in game.events_for(seat, max(since, 0), limit + 1):
        if len(page) >= limit or size > HISTORY_PAGE_CHARS:
            next_seq = e.seq
            break
        item = _event_json(e, seat, describe)
        size += len(item["text"]) + len(repr(item["data"]))
        page.append(item)
    return message("history", table_id=table.id, seat=seat, events=page, next=next_seq)


def turn_message(table: Table, seat: int, turn: int, deadline: float | None) -> dict[str, Any]:
    game = table.game
    assert game is not None
    view = game.view(seat)
    return message("your_turn", table_id=table.id, seat=seat, turn=turn, view=view,
                   legal=game.legal(seat).to_json(), text=table.env.render(view),
                   deadline=deadline)


def game_over_message(table: Table, metrics: dict[str, Any], statuses: Mapping[int, str],
                      changes: Mapping[int, tuple[Rating | None, Rating]]) -> dict[str, Any]:
    """The end of a game: the same for every recipient (only post-game, public data: the
    hidden setup is revealed to everyone now)."""
    game = table.game
    assert game is not None and game.result is not None
    return message("game_over", table_id=table.id, game_id=table.game_id,
                   result=game.result.to_json(), metrics=metrics,
                   outcomes={str(i): seat_outcome(game.result, i) for i in range(len(table.seats))},
                   statuses={str(k): v for k, v in statuses.items()},
                   display={str(i): name for i, name in enumerate(table.display_names())},
                   setup=game.hidden_setup(),
                   rating_changes={str(s): {"identity": table.seats[s].identity,
                                            "before": _rating(before), "after": _rating(after)}
                                   for s, (before, after) in changes.items()})


def _rating(r: Rating | None) -> dict[str, float] | None:
    return None if r is None else {"mu": r[0], "sigma": r[1]}


def catch_up_message(table: Table, seat: int | None) -> dict[str, Any]:
    """The current view and the latest events `seat` may see (for spectators joining late and
    resumed players); older events are fetched with `history`."""
    game = table.game
    assert game is not None
    return events_message(table, seat, game.latest_events_for(seat, RECENT_EVENTS))
