"""What the TUI knows: the model built only from server messages (never from widget state).

`Session.apply` folds one server message in. Screens render from it; the app decides which
screen to show from it. Nothing here imports Textual, so the model is easy to test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_EVENTS = 2_000  # recent events kept in the model; the transcript keeps its own scrollback
HISTORY_PAGE = 200  # events asked for per `history` request (the server's page limit)


def events_after(events: Sequence[dict[str, Any]], seq: int) -> list[dict[str, Any]]:
    """The events of `events` (ascending `seq`) with a seq above `seq`, oldest first. It reads
    from the end, so a renderer that keeps its own cursor pays only for what is new."""
    i = len(events)
    while i > 0 and events[i - 1].get("seq", -1) > seq:
        i -= 1
    return list(events[i:])


def events_before(earlier: Sequence[dict[str, Any]], seq: int) -> list[dict[str, Any]]:
    """The fetched earlier events with a seq below `seq`, oldest first. Each completed fetch is
    appended to `earlier` and lies before every previous one, so these are at its end."""
    i = len(earlier)
    while i > 0 and earlier[i - 1].get("seq", seq) < seq:
        i -= 1
    return sorted(earlier[i:], key=lambda e: e["seq"])


@dataclass
class _Fetch:
    """A `history` fetch under way for the events in [since, stop) (the page before `stop`)."""

    since: int
    stop: int
    asked: int  # the `since` of the request in flight
    ref: Any = None  # its request id: replies carry it back as `ref`
    events: list[dict[str, Any]] = field(default_factory=list)


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
    # Events we were sent, ascending seq, each once; at most MAX_EVENTS (the oldest drop out).
    events: list[dict[str, Any]] = field(default_factory=list)
    last_seq: int = -1  # highest seq folded in: `event` messages at or below it are repeats
    first_seq: int | None = None  # every visible event from here to last_seq has been seen
    # Events fetched with `history` from before first_seq: each completed fetch is appended, so
    # later fetches (older events) come last. Bounded like `events`.
    earlier: list[dict[str, Any]] = field(default_factory=list)
    _more: dict[str, Any] | None = field(default=None, repr=False)  # see history_request()
    _fetch: _Fetch | None = field(default=None, repr=False)
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
        self._fold(msg.get("events") or [])
        if msg.get("view") is not None:
            self.view = msg["view"]
        self.text = msg.get("text") or self.text

    def _fold(self, events: list[dict[str, Any]]) -> None:
        """Keep the events newer than any we have (repeats and stale ones are dropped)."""
        for event in events:
            seq = event.get("seq")
            if not isinstance(seq, int) or seq <= self.last_seq:
                continue
            self.events.append(event)
            self.last_seq = seq
            if self.first_seq is None:
                self.first_seq = seq
        if len(self.events) > MAX_EVENTS:
            del self.events[:-MAX_EVENTS]

    def _on_history(self, msg: dict[str, Any]) -> None:
        """A page of the event log we asked for with `ask_earlier`: its events before our
        first_seq go to `earlier` once the fetch is complete (a page the server cut short is
        finished by `history_request()`); any newer than last_seq are folded in as new."""
        fetch = self._fetch
        if not self._ours(msg) or fetch is None or msg.get("ref") != fetch.ref:
            return
        newer = []
        for event in msg.get("events") or []:
            seq = event.get("seq")
            if not isinstance(seq, int):
                continue
            if seq > self.last_seq:
                newer.append(event)
            elif fetch.asked <= seq < fetch.stop and (not fetch.events
                                                      or seq > fetch.events[-1]["seq"]):
                fetch.events.append(event)
        self._fold(newer)
        more = msg.get("next")
        if isinstance(more, int) and fetch.asked < more < fetch.stop:
            fetch.asked = more
            self._more = self._history_request(more)
            return
        self.first_seq = fetch.since
        if not fetch.events and fetch.since > 0:  # nothing we may see there: look further back
            self._fetch = None
            self._more = self.ask_earlier()
            return
        self._fetch = None
        self._more = None
        self.earlier.extend(fetch.events)
        if len(self.earlier) > MAX_EVENTS:
            del self.earlier[:-MAX_EVENTS]

    def _on_game_over(self, msg: dict[str, Any]) -> None:
        if not self._ours(msg):
            return
        self.game_over = msg
        self.turn = None

    def _on_leaderboard(self, msg: dict[str, Any]) -> None:
        self.leaderboards[msg["env"]] = list(msg.get("rows") or [])

    def _on_error(self, msg: dict[str, Any]) -> None:
        self.last_error = msg
        if self._fetch is not None and msg.get("ref") == self._fetch.ref:
            self._fetch = None  # the history request was refused: the key may ask again
            self._more = None
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
        self.last_seq = -1
        self.first_seq = None
        self.earlier = []
        self._more = None
        self._fetch = None
        self.game_over = None

    def leave_table(self) -> None:
        self._enter(None)

    def answered(self) -> None:
        """We sent an act for the current turn; wait for the server's next word."""
        if self.turn is not None:
            self.answered_turn = self.turn["turn"]

    def ask_earlier(self) -> dict[str, Any] | None:
        """Start fetching the page of events before the earliest we have: the body of the
        `history` request to send, or None when there is nothing earlier (we have the start of
        the game, or no event yet) or a fetch is already under way."""
        first = self.first_seq
        if self.table is None or self._fetch is not None or first is None or first <= 0:
            return None
        since = max(0, first - HISTORY_PAGE)
        self._fetch = _Fetch(since=since, stop=first, asked=since)
        return self._history_request(since)

    def history_sent(self, ref: Any) -> None:
        """The request from `ask_earlier` or `history_request` went out with this id."""
        if self._fetch is not None:
            self._fetch.ref = ref

    def history_request(self) -> dict[str, Any] | None:
        """The `history` request that goes on with the fetch under way, once (after a page the
        server cut short, or one with nothing we may see); None when there is none to send."""
        more, self._more = self._more, None
        return more

    @property
    def fetching_earlier(self) -> bool:
        return self._fetch is not None

    @property
    def at_start(self) -> bool:
        """Whether we have every event from the start of the game on (nothing earlier to ask)."""
        return self.first_seq == 0

    def _history_request(self, since: int) -> dict[str, Any]:
        assert self.table is not None
        return {"table_id": self.table["id"], "since": since, "limit": HISTORY_PAGE}

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
