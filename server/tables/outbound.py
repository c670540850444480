"""THE choke point for game data: every message that carries a view or events is built here,
for one recipient seat (None = spectator), from that recipient's view and visible events only.

Events are numbered for their recipient (`Numbering`): `seq` counts the events that recipient
may see and `step` the actions it may know of, so that neither number betrays an event or an
action hidden from it (an opponent's retried invalid answer, a private notice)."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from engine.core import Env, Event, Game
from engine.outcome import seat_outcome
from server.store import ratings
from server.store.ratings import Rating
from server.wire.protocol import message

RECENT_EVENTS = 100  # events a late joiner (spectator, resumed player) gets with the view
RECENT_EVENTS_CHARS = 24_000  # and it gets fewer once their texts and data pass about this
HISTORY_PAGE = 200  # most events in one `history` reply
HISTORY_PAGE_CHARS = 48_000  # and a page stops once its event texts and data pass about this


NUMBERING_BLOCK = 256  # events (and actions) between two counts a Numbering keeps


class Seat(Protocol):
    index: int

    @property
    def identity(self) -> str: ...


class Table(Protocol):
    """What the messages read of a table (server/tables/table.py's `Table`, which builds its
    messages here: so this module need not import it)."""

    id: str
    game_id: int | None
    env: Env
    game: Game | None
    seats: Sequence[Seat]
    numbering: Numbering | None
    describer: tuple[Any, list[str], Callable[[Event, int | None], str]] | None
    rendered: dict[int | None, tuple[Any, Any, dict[str, Any], str]]

    def display_names(self) -> list[str]: ...

    def namer(self, names: list[str] | None = None) -> Callable[[int], str]: ...


class Numbering:
    """One game's events as each recipient counts them. The engine numbers every event (`seq`)
    and action (`step`) of the game; a recipient is shown `seq` = how many events it may see
    came before, and `step` = the event's step less the actions before it that left it no
    visible event. So a spectator's (or an opponent's) numbers are exactly those of the same
    game without the events and actions hidden from them, and a client can tell a gap (events
    it missed) from events it may not see. Reads the game's log as it grows (catches up on
    each use), from when the game was made: its opening events belong to no action.

    Per recipient it keeps the counts of hidden events and actions so far, and the counts
    every NUMBERING_BLOCK events and actions; a number is counted on from the nearer of the
    two, reading at most a block of the game's log. So its memory grows by a few bytes per
    block, not per event (issue 21: a long game's per-recipient lists outgrew its log)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._opening = game.event_count  # the opening events (step 0, before any action)
        self._known = 0  # events read so far
        self._actions = 0  # actions read so far
        self._recipients: list[int | None] = [None, *range(game.players)]
        # Per recipient: hidden events before `_known` and before each block's first seq;
        # actions that left it no visible event before `_actions` and before each block's.
        self._hidden = dict.fromkeys(self._recipients, 0)
        self._hidden_at: dict[int | None, array[int]] = {r: array("q")
                                                         for r in self._recipients}
        self._hidden_steps = dict.fromkeys(self._recipients, 0)
        self._hidden_steps_at: dict[int | None, array[int]] = {r: array("q")
                                                               for r in self._recipients}
        self._last_seen = dict.fromkeys(self._recipients, False)  # the latest action left
        # it a visible event
        self.sync()  # an opening event may be private too (a dealt role, say)

    def sync(self) -> int:
        """Read the events and actions made since the last call; returns the events known."""
        game = self.game
        count, actions = game.event_count, game.step
        known, read = self._known, self._actions
        if count == known and actions == read:
            return count
        new = game.events_between(known, count)
        # Most moves make only public events: read them once for every recipient.
        if all(e.visible_to == "all" for e in new):
            self._sync_public(new, read, actions)
            self._known, self._actions = count, actions
            return count
        for r in self._recipients:
            hidden, at = self._hidden[r], self._hidden_at[r]
            seen: set[int] = set()
            for e in new:
                if e.seq % NUMBERING_BLOCK == 0:
                    at.append(hidden)
                if e.visible(r):
                    if e.seq >= self._opening:
                        seen.add(e.step)
                else:
                    hidden += 1
            self._hidden[r] = hidden
            # An action's events all come at once, after the events of earlier actions; events
            # made outside any action (a void game's) carry the step of the next action.
            hidden, at = self._hidden_steps[r], self._hidden_steps_at[r]
            for j in range(read, actions):
                if j % NUMBERING_BLOCK == 0:
                    at.append(hidden)
                if j not in seen:
                    hidden += 1
            self._hidden_steps[r] = hidden
            if actions > read:
                self._last_seen[r] = actions - 1 in seen
        self._known, self._actions = count, actions
        return count

    def _sync_public(self, new: list[Event], read: int, actions: int) -> None:
        """`sync` when every new event is public: what it adds is the same for every recipient
        (counted once), on top of each one's counts so far."""
        marks = sum(e.seq % NUMBERING_BLOCK == 0 for e in new)
        seen = {e.step for e in new if e.seq >= self._opening}
        unseen, step_marks = 0, []  # actions that left no event; the count at each block start
        for j in range(read, actions):
            if j % NUMBERING_BLOCK == 0:
                step_marks.append(unseen)
            if j not in seen:
                unseen += 1
        last_seen = actions - 1 in seen
        hidden_steps = self._hidden_steps
        for r in self._recipients:
            if marks:
                self._hidden_at[r].extend([self._hidden[r]] * marks)
            hidden = hidden_steps[r]
            if step_marks:
                self._hidden_steps_at[r].extend([hidden + k for k in step_marks])
            hidden_steps[r] = hidden + unseen
            if actions > read:
                self._last_seen[r] = last_seen

    def _hidden_before(self, r: int | None, seq: int) -> int:
        """Events before `seq` that `r` may not see."""
        block = seq // NUMBERING_BLOCK
        start, at, known = block * NUMBERING_BLOCK, self._hidden_at[r], self._known
        if block < len(at) and seq - start <= known - seq:
            return at[block] + sum(not e.visible(r) for e in self.game.events_between(start, seq))
        return self._hidden[r] - sum(not e.visible(r)
                                     for e in self.game.events_between(seq, known))

    def _seen_steps(self, r: int | None, start: int, stop: int) -> int:
        """Actions in [start, stop) that left `r` a visible event."""
        seen: set[int] = set()
        first = max(self.game.first_event_at(start), self._opening)
        for e in self.game.events_between(first, self._known):
            if e.step >= stop:
                break
            if e.visible(r):
                seen.add(e.step)
        return len(seen)

    def seq(self, r: int | None, seq: int) -> int:
        """The number `r` sees for the event `seq` (one it may see)."""
        return seq - self._hidden_before(r, seq)

    def step(self, r: int | None, step: int) -> int:
        block = step // NUMBERING_BLOCK
        start, at, read = block * NUMBERING_BLOCK, self._hidden_steps_at[r], self._actions
        if step >= read:  # the next action's (a void game's last events)
            return step - self._hidden_steps[r]
        if step == read - 1:  # the latest action's (most numbers asked for): no log to read
            return step - self._hidden_steps[r] + (not self._last_seen[r])
        if block < len(at) and step - start <= read - step:
            hidden = at[block] + (step - start) - self._seen_steps(r, start, step)
        else:
            hidden = self._hidden_steps[r] - (read - step) + self._seen_steps(r, step, read)
        return step - hidden

    def game_seq(self, r: int | None, shown: int) -> int:
        """The game's seq of the event `r` numbers `shown` (or of where it would come): from
        the last block that starts at or before it, reading on."""
        shown = max(shown, 0)
        at = self._hidden_at[r]
        lo, hi = 0, len(at)  # the last block whose first seq r numbers <= shown
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if mid * NUMBERING_BLOCK - at[mid] <= shown:
                lo = mid
            else:
                hi = mid
        start = lo * NUMBERING_BLOCK
        number = start - (at[lo] if at else 0)
        for e in self.game.events_between(start, self._known):
            if e.visible(r):
                if number == shown:
                    return e.seq
                number += 1
        return shown + self._hidden[r]


def _numbering(table: Table) -> Numbering:
    numbering = table.numbering
    assert numbering is not None and numbering.game is table.game
    numbering.sync()
    return numbering


def _describer(table: Table) -> Callable[[Event, int | None], str]:
    """The env's transcript line for an event, naming seats by the table's display names: one
    describer for the game while the names stay (making its namer costs more than a line)."""
    names = table.display_names()
    kept = table.describer
    if kept is None or kept[0] is not table.game or kept[1] != names:
        kept = table.describer = (table.game, names, table.env.describer(table.namer(names)))
    return kept[2]


def _event_json(e: Event, seat: int | None, describe: Callable[[Event, int | None], str],
                numbering: Numbering) -> dict[str, Any]:
    return {"seq": numbering.seq(seat, e.seq), "step": numbering.step(seat, e.step),
            "clock": dict(e.clock), "type": e.type, "data": dict(e.data),
            "text": describe(e, seat)}


def events_message(table: Table, seat: int | None, events: Iterable[Event]
                   ) -> dict[str, Any] | None:
    """New events visible to `seat`, with its current view and the view rendered as text;
    None when `seat` may see none of them (then it is sent nothing: not even that something
    happened)."""
    return events_messages(table, list(events))(seat)


def events_messages(table: Table, events: list[Event], turns: frozenset[int] = frozenset()
                    ) -> Callable[[int | None], dict[str, Any] | None]:
    """`events_message` for any seat of the table, each seat's built once when first asked
    for; what every seat's message needs (the namer, the numbering) is made once for all.
    Seats in `turns` are sent their turn right after, with the same view and text: their
    messages leave the view and text out."""
    describe, numbering = _describer(table), _numbering(table)
    built: dict[int | None, dict[str, Any] | None] = {}

    def message_for(seat: int | None) -> dict[str, Any] | None:
        if seat not in built:
            visible = [e for e in events if e.visible(seat)]
            built[seat] = _events_message(table, seat, visible, describe, numbering,
                                          with_view=seat not in turns) if visible else None
        return built[seat]
    return message_for


def _view_and_text(table: Table, seat: int | None) -> tuple[dict[str, Any], str]:
    """`seat`'s current view and its text. A seat usually reads one state twice (the event
    that made it, then its turn): the text rendered last for the seat is kept and used again
    while the view is the same (the same public part, an equal private part: a view is made of
    those two and nothing else, and a text of its view)."""
    game = table.game
    assert game is not None
    view = game.view(seat)
    public, private = view["public"], view["private"]
    kept = table.rendered.get(seat)
    if kept is not None and kept[0] is public and kept[1] == private:
        return kept[2], kept[3]
    text = table.env.render(view)
    table.rendered[seat] = (public, private, view, text)
    return view, text


def _events_message(table: Table, seat: int | None, visible: list[Event],
                    describe: Callable[[Event, int | None], str] | None = None,
                    numbering: Numbering | None = None, with_view: bool = True
                    ) -> dict[str, Any]:
    describe = describe or _describer(table)
    numbering = numbering or _numbering(table)
    events = [_event_json(e, seat, describe, numbering) for e in visible]
    if not with_view:
        return message("event", table_id=table.id, seat=seat, events=events)
    view, text = _view_and_text(table, seat)
    return message("event", table_id=table.id, seat=seat, events=events, view=view, text=text)


def _size(item: Mapping[str, Any]) -> int:
    """About how much an event adds to a message (its transcript line and its data)."""
    return len(item["text"]) + len(repr(item["data"]))


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
    describe, numbering = _describer(table), _numbering(table)
    for e in game.events_for(seat, numbering.game_seq(seat, since), limit + 1):
        if len(page) >= limit or size > HISTORY_PAGE_CHARS:
            next_seq = numbering.seq(seat, e.seq)
            break
        item = _event_json(e, seat, describe, numbering)
        size += _size(item)
        page.append(item)
    return message("history", table_id=table.id, seat=seat, events=page, next=next_seq)


def turn_message(table: Table, seat: int, turn: int, deadline: float | None) -> dict[str, Any]:
    game = table.game
    assert game is not None
    view, text = _view_and_text(table, seat)
    return message("your_turn", table_id=table.id, seat=seat, turn=turn, view=view,
                   legal=game.legal(seat).to_json(), text=text, deadline=deadline)


def game_over_message(table: Table, metrics: dict[str, Any], statuses: Mapping[int, str],
                      changes: Mapping[int, tuple[Rating | None, Rating]],
                      unrated: str | None = None, plan: ratings.Plan | None = None
                      ) -> dict[str, Any]:
    """The end of a game: the same for every recipient (only post-game, public data: the
    hidden setup is revealed to everyone now, and the seed that dealt it, as text since it
    may pass JSON's safe integers). `unrated`: why the game was not rated ("not rated: …");
    `plan`: how a rated game was rated — its league (`rating_scheme`), the seats whose
    identity was held at its rating (`rating_held`) and, when not the plain case, how in
    words (`rating_note`)."""
    game = table.game
    assert game is not None and game.result is not None
    held = set(plan.held) if plan is not None else set()
    return message("game_over", table_id=table.id, game_id=table.game_id,
                   rating_scheme=plan.league if plan is not None else None,
                   rating_note=plan.note if plan is not None else None,
                   rating_held=[str(s.index) for s in table.seats if s.identity in held],
                   result=game.result.to_json(), metrics=metrics,
                   outcomes={str(i): seat_outcome(game.result, i) for i in range(len(table.seats))},
                   statuses={str(k): v for k, v in statuses.items()},
                   display={str(i): name for i, name in enumerate(table.display_names())},
                   setup=game.hidden_setup(), seed=str(game.seed), unrated=unrated,
                   rating_changes={str(s): {"identity": table.seats[s].identity,
                                            "before": _rating(before), "after": _rating(after)}
                                   for s, (before, after) in changes.items()})


def _rating(r: Rating | None) -> dict[str, float] | None:
    return None if r is None else {"mu": r[0], "sigma": r[1]}


def catch_up_message(table: Table, seat: int | None) -> dict[str, Any]:
    """The current view and the latest events `seat` may see, at most RECENT_EVENTS of them and
    about RECENT_EVENTS_CHARS of text and data (for spectators joining late and resumed
    players; older events are fetched with `history`); sent even with no event."""
    game = table.game
    assert game is not None
    latest = game.latest_events_for(seat, RECENT_EVENTS)
    describe, size, first = _describer(table), 0, len(latest)
    while first > 0:  # newest first while the budget lasts (the newest one always goes)
        e = latest[first - 1]
        size += len(describe(e, seat)) + len(repr(e.data))
        if size > RECENT_EVENTS_CHARS and first < len(latest):
            break
        first -= 1
    return _events_message(table, seat, latest[first:], describe)
