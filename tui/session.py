"""What the TUI knows: the model built only from server messages (never from widget state).

`Session.apply` folds one server message in. Screens render from it; the app decides which
screen to show from it. Nothing here imports Textual, so the model is easy to test.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_EVENTS = 2_000  # recent events kept in the model; the transcript keeps its own scrollback
HISTORY_PAGE = 200  # events asked for per `history` request (the server's page limit)
MAX_GAP = 1_000  # seqs of a reconnect gap fetched at most (its latest); ctrl+o pages further back
CATCH_UP = "catch_up"  # key set (True) on the events fetched to fill a reconnect gap


def seat_display(seat: dict[str, Any]) -> str:
    """How every screen names a seat of a table summary: the server's display name (the person,
    or the bot's identity, told apart when two would read the same), else the person or bot."""
    return (seat.get("display") or seat.get("player") or seat.get("identity")
            or ("open seat" if seat.get("kind") == "human" else f"seat {seat.get('seat')}"))


def watching_text(table: dict[str, Any], spectating: bool = False) -> str:
    """How many spectators a table has, in words ("2 watching"; "" for none). A spectator
    is one of them: "with 1 other" rather than counting themselves."""
    count = table.get("spectators") or 0
    if spectating:
        others = count - 1
        return f"with {others} other{'' if others == 1 else 's'}" if others > 0 else ""
    return f"{count} watching" if count > 0 else ""


def report_key(env: str, pool: str | None, by: str | None) -> tuple[str, str | None, str | None]:
    """Where `Session.reports` keeps the report of `env` for `pool` and `by` (None: default)."""
    return env, pool or None, by or None


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
class _Gap:
    """Seqs [since, stop) we may have missed while disconnected (the catch-up `event` after a
    reconnect starts at `stop`): fetched with `history`, page by page, into `events`."""

    since: int
    stop: int
    asked: int  # everything below it is in `events` (or was not visible to us)
    ref: Any = None  # the id of the request in flight
    waiting: bool = False  # a request is out (or about to be) for the page from `asked`


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
    # The server's latest `preview` reply for our turn: what the rules would say of a draft.
    preview: dict[str, Any] | None = None
    answered_turn: int | None = None  # turn number of the act we sent last
    view: dict[str, Any] | None = None
    text: str = ""
    # Events we were sent, ascending seq, each once; at most MAX_EVENTS (the oldest drop out).
    events: list[dict[str, Any]] = field(default_factory=list)
    last_seq: int = -1  # highest seq folded in: `event` messages at or below it are repeats
    # Every visible event from here to last_seq has been seen (once any reconnect gap is filled).
    first_seq: int | None = None
    # Events fetched with `history` from before first_seq: each completed fetch is appended, so
    # later fetches (older events) come last. Bounded like `events`.
    earlier: list[dict[str, Any]] = field(default_factory=list)
    _more: dict[str, Any] | None = field(default=None, repr=False)  # see history_request()
    _fetch: _Fetch | None = field(default=None, repr=False)
    # Reconnect gaps being filled, oldest first (see gap_request()).
    gaps: list[_Gap] = field(default_factory=list)
    _resync: bool = field(default=False, repr=False)  # reconnected: check the next `event`
    # Spans of a huge gap left unfetched, as (its first seq, the first_seq to go back to once
    # ctrl+o has paged back to it); the latest last. See ask_earlier().
    _skips: list[tuple[int, int]] = field(default_factory=list, repr=False)
    _skip_notice: tuple[int, int] | None = field(default=None, repr=False)
    _gap_refs: set[Any] = field(default_factory=set, repr=False)  # ids of gap requests sent
    left: str | None = None  # the table we last left (a running game keeps our seat)
    game_over: dict[str, Any] | None = None
    leaderboards: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # The latest leaderboard reply per env, whole: its league and the games not rated, and why.
    leaderboard_replies: dict[str, dict[str, Any]] = field(default_factory=dict)
    instances: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # stored, by env
    # The latest `report` reply per (env, pool, by) as asked (None: the server's default).
    reports: dict[tuple[str, str | None, str | None], dict[str, Any]] = field(
        default_factory=dict)
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict)  # the latest, by name
    last_error: dict[str, Any] | None = None
    study: dict[str, Any] | None = None  # `welcome.study`, then the `study` reply

    # -- folding server messages ------------------------------------------------------------
    def apply(self, msg: dict[str, Any]) -> None:
        handler = getattr(self, f"_on_{msg['type']}", None)
        if handler is not None:
            handler(msg)

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        self.player = msg.get("player")
        self.study = msg.get("study")  # the study this server runs: name, hash, our answer
        self.envs = list(msg.get("envs") or [])
        self.bots = msg.get("bots")
        # A (re)connection: requests sent on a previous connection will never be answered.
        self._fetch = None
        self._more = None
        for gap in self.gaps:
            gap.waiting = False
            gap.ref = None
        # Back at a table we followed: events went by while we were away.
        self._resync = self.table is not None and self.last_seq >= 0

    def _on_study(self, msg: dict[str, Any]) -> None:
        self.study = msg.get("study")  # whole: its consent text and form too

    @property
    def consent_needed(self) -> bool:
        """The server runs a study we have not agreed to (its current text): no game yet."""
        return bool(self.study) and self.study.get("status") != "agreed"

    def _on_envs(self, msg: dict[str, Any]) -> None:
        self.envs = list(msg.get("envs") or [])

    def _on_tables(self, msg: dict[str, Any]) -> None:
        self.tables = list(msg.get("tables") or [])

    def _on_table(self, msg: dict[str, Any]) -> None:
        table = msg["table"]
        mine = msg.get("your_seat")
        if table["id"] == self.left and msg.get("ref") is None:
            mine = None  # we left; the server's broadcasts about our seat do not take us back
        current = self.table is not None and self.table["id"] == table["id"]
        if mine is not None or current or table["id"] == self.watching:
            if self.table is None or self.table["id"] != table["id"]:
                self._enter(table)
            self.table = table
            if mine is not None:
                self.seat = mine
                self.left = None
        self.tables = [table if t["id"] == table["id"] else t for t in self.tables]

    def _on_your_turn(self, msg: dict[str, Any]) -> None:
        if not self._ours(msg):
            return
        self.turn = msg
        self.answered_turn = None
        self.view = msg.get("view")
        self.text = msg.get("text") or self.text
        self.seat = msg.get("seat", self.seat)

    def _on_preview(self, msg: dict[str, Any]) -> None:
        if self._ours(msg) and self.turn is not None and msg.get("turn") == self.turn["turn"]:
            self.preview = msg

    def _on_event(self, msg: dict[str, Any]) -> None:
        if not self._ours(msg):
            return
        events = msg.get("events") or []
        if self._resync:  # the first events since we reconnected (the catch-up, or newer)
            self._resync = False
            first = next((e["seq"] for e in events if isinstance(e.get("seq"), int)
                          and e["seq"] > self.last_seq), None)
            if first is not None and first > self.last_seq + 1:
                self._open_gap(self.last_seq + 1, first)
        self._fold(events)
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

    def _open_gap(self, since: int, stop: int) -> None:
        """Seqs [since, stop) went by while we were away (only possibly: events we may not see
        take seqs too). A huge gap is fetched from its last MAX_GAP seqs only; the rest is left
        to ctrl+o, which pages back from there (and then jumps over what we have)."""
        if stop - since > MAX_GAP:
            cut = stop - MAX_GAP
            self._skip_notice = (cut - since, cut)
            if self.first_seq is not None:
                self._skips.append((since, self.first_seq))
            self.first_seq = cut
            self._fetch = None  # a page it was fetching would now land in the wrong place
            self._more = None
            since = cut
        self.gaps.append(_Gap(since=since, stop=stop, asked=since))

    def _on_history(self, msg: dict[str, Any]) -> None:
        """A page of the event log we asked for: for a reconnect gap (`gap_request`) its
        events in the gap go into `events`, marked CATCH_UP; for `ask_earlier` its events before
        our first_seq go to `earlier` once the fetch is complete (a page the server cut short is
        finished by `history_request()`). Any newer than last_seq are folded in as new."""
        if not self._ours(msg):
            return
        gap = self.gaps[0] if self.gaps else None
        if gap is not None and gap.waiting and msg.get("ref") == gap.ref:
            self._gap_page(gap, msg)
            return
        fetch = self._fetch
        if fetch is None or msg.get("ref") != fetch.ref:
            return
        newer, page = self._split_page(msg, fetch.asked, fetch.stop,
                                       fetch.events[-1]["seq"] if fetch.events else -1)
        fetch.events.extend(page)
        self._fold(newer)
        more = msg.get("next")
        if isinstance(more, int) and fetch.asked < more < fetch.stop:
            fetch.asked = more
            self._more = self._history_request(more)
            return
        self.first_seq = fetch.since
        if self._skips and fetch.since <= self._skips[-1][0]:  # back at what we had: jump
            self.first_seq = self._skips.pop()[1]
        if not fetch.events and self.first_seq > 0:  # nothing we may see there: look further back
            self._fetch = None
            self._more = self.ask_earlier()
            return
        self._fetch = None
        self._more = None
        self.earlier.extend(fetch.events)
        if len(self.earlier) > MAX_EVENTS:
            del self.earlier[:-MAX_EVENTS]

    def _split_page(self, msg: dict[str, Any], asked: int, stop: int, after: int
                    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """A history reply as (events newer than last_seq, to fold in as new; events of the
        asked range [asked, stop) above `after`, each seq once, ascending)."""
        newer: list[dict[str, Any]] = []
        page: list[dict[str, Any]] = []
        for event in msg.get("events") or []:
            seq = event.get("seq")
            if not isinstance(seq, int):
                continue
            if seq > self.last_seq:
                newer.append(event)
            elif asked <= seq < stop and seq > (page[-1]["seq"] if page else after):
                page.append(event)
        return newer, page

    def _gap_page(self, gap: _Gap, msg: dict[str, Any]) -> None:
        newer, page = self._split_page(msg, gap.asked, gap.stop, -1)
        page = [{**event, CATCH_UP: True} for event in page]
        if page:
            at = bisect.bisect_left(self.events, page[0]["seq"], key=lambda e: e["seq"])
            self.events[at:at] = page
        self._fold(newer)
        gap.waiting = False
        gap.ref = None
        more = msg.get("next")
        if isinstance(more, int) and gap.asked < more < gap.stop:
            gap.asked = more  # the rest of the gap: gap_request() hands it out
        else:
            self.gaps.pop(0)

    def _on_game_over(self, msg: dict[str, Any]) -> None:
        if not self._ours(msg):
            return
        self.game_over = msg
        self.turn = None

    def _on_leaderboard(self, msg: dict[str, Any]) -> None:
        self.leaderboards[msg["env"]] = list(msg.get("rows") or [])
        self.leaderboard_replies[msg["env"]] = msg

    def _on_report(self, msg: dict[str, Any]) -> None:
        self.reports[report_key(msg["env"], msg.get("pool"), msg.get("by"))] = msg

    def _on_profile(self, msg: dict[str, Any]) -> None:
        self.profiles[msg["name"]] = msg

    def _on_instances(self, msg: dict[str, Any]) -> None:
        self.instances[msg["env"]] = list(msg.get("instances") or [])

    def _on_error(self, msg: dict[str, Any]) -> None:
        self.last_error = msg
        if self._fetch is not None and msg.get("ref") == self._fetch.ref:
            self._fetch = None  # the history request was refused: the key may ask again
            self._more = None
        if self.gaps and self.gaps[0].waiting and msg.get("ref") == self.gaps[0].ref:
            self.gaps.pop(0)  # refused: show what comes after it rather than wait forever
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
        self.gaps = []
        self._gap_refs = set()
        self._resync = False
        self._skips = []
        self._skip_notice = None
        self.game_over = None

    def leave_table(self) -> None:
        if self.table is not None:
            self.left = self.table["id"]
        self.watching = None  # a spectator who left is not pulled back by the next broadcast
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
        floor = self._skips[-1][0] if self._skips else 0  # not into what we have
        since = max(floor, first - HISTORY_PAGE)
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

    def gap_request(self) -> dict[str, Any] | None:
        """The `history` request for the next page of the oldest reconnect gap, once (until
        its reply, or a reconnect); None when there is no gap or its request is out."""
        if not self.gaps or self.gaps[0].waiting or self.table is None:
            return None
        gap = self.gaps[0]
        gap.waiting = True
        return self._history_request(gap.asked)

    def gap_sent(self, ref: Any) -> None:
        """The request from `gap_request` went out with this id."""
        if self.gaps and self.gaps[0].waiting:
            self.gaps[0].ref = ref
            self._gap_refs.add(ref)

    def for_gap(self, msg: dict[str, Any]) -> bool:
        """Whether a message answers one of our gap requests (not ctrl+o's)."""
        return msg.get("ref") in self._gap_refs

    @property
    def complete_below(self) -> int | None:
        """While a reconnect gap is being filled, the seq up to which (excluded) `events` has
        every event we may see; None when it has them all. A transcript stops there."""
        return self.gaps[0].asked if self.gaps else None

    def take_skip_notice(self) -> tuple[int, int] | None:
        """Once, after a huge gap: (how many seqs were not fetched, the first seq fetched)."""
        notice, self._skip_notice = self._skip_notice, None
        return notice

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
    def public(self) -> dict[str, Any]:
        """The public part of the latest view ({} before any)."""
        return (self.view or {}).get("public") or {}

    @property
    def private(self) -> dict[str, Any]:
        """Our seat's private part of the latest view ({} for a spectator)."""
        return ((self.view or {}).get("private") or {}) if self.seat is not None else {}

    @property
    def over(self) -> bool:
        """The game has ended: the view says so, or game_over came."""
        return bool(self.public.get("over") or self.game_over)

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

    def seat_names(self) -> dict[int, str]:
        """Seat -> the one name every screen calls it by (`seat_display`; once the game is
        over, the names its game_over carries)."""
        names = {s["seat"]: seat_display(s) for s in (self.table or {}).get("seats", [])}
        shown = (self.game_over or {}).get("display")
        if isinstance(shown, dict):
            names |= {int(k): v for k, v in shown.items() if str(k).isdigit() and v}
        return names

    def seat_name(self, seat: int) -> str:
        return self.seat_names().get(seat, f"seat {seat}")

    def in_our_names(self, text: str) -> str:
        """`text` the engine wrote (a result's reason, say) with the env's seat names ("Commander
        Alpha", "Player 0") replaced by the names every screen uses."""
        names = self.seat_names()
        seats = sorted((self.table or {}).get("seats", []), key=lambda s: -len(s.get("name") or ""))
        for seat in seats:
            env_name, ours = seat.get("name"), names.get(seat["seat"])
            if env_name and ours and env_name != ours:
                text = re.sub(rf"(?<!\w){re.escape(env_name)}(?!\w)", lambda _, o=ours: o, text)
        return text

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
