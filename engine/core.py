"""The engine contract every environment implements.

An `Env` describes a game (id, player counts, config, presets) and starts `Game`s. A `Game` is a
pure state machine: it says whose decision is awaited (`pending`), what each seat may know (`view`)
and do (`legal`), and applies actions (`act`), emitting `Event`s with a visibility. No I/O, no wall
clock, no global randomness: a game is fully determined by (config, seed, players, actions).
"""

from __future__ import annotations

import copy
import hashlib
import random
import sys
from abc import ABC, abstractmethod
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources
from operator import attrgetter
from types import ModuleType
from typing import Any, ClassVar, Protocol

from engine.config import Config, field_names
from engine.describe import Namer, Naming, describe_generic, naming
from engine.errors import (
    ConfigError,
    EngineError,
    GameOverError,
    NotYourTurnError,
    UnknownEnvError,
    UnknownSeatError,
)
from engine.policy import (
    DEFAULT,
    ELIMINATE,
    ERROR_CLASSES,
    FORFEIT,
    OTHER,
    SKIP_TURN,
    VOID_BALLOT,
    InvalidMovePolicy,
)
from engine.records import (
    JSON,
    NO_CLOCK,
    ActionRecord,
    Event,
    GameRecord,
    Result,
    Role,
    Visibility,
)
from engine.spaces import NO_ACTION, ActionSpace, Field, Option

Action = str | Mapping[str, Any]
"""What `Game.act` accepts: raw text in the env's syntax, or a structured (form/choice) dict."""

# One stored action, its step being its index in the list: an accepted move as (seat, raw,
# *meta) (an even length), any other as (seat, raw, meta, outcome, error, category, fatal);
# `meta` flat, (key, value, key, value...), or None. ActionRecords are built from these when asked for: a long
# game keeps tens of thousands of them (issue 21).
_Stored = tuple[Any, ...]
_event_step = attrgetter("step")
EVENT_PAGE = 256  # events read from the archive at a time
DESCRIBED_LINES = 512  # event lines a describer keeps (`Env.describer`)
SHARED_ACTIONS = 256  # distinct small structured actions a game shares one copy of (`_shared`)


class Archive(Protocol):
    """Where a game reads back the events and actions it let go of (`Game.forget_old`): the
    server's store, which wrote each of them before the game forgot it. Ranges are by seq
    (events) and step (actions), `start` inclusive and `stop` exclusive."""

    def events(self, start: int, stop: int) -> list[Event]: ...

    def actions(self, start: int, stop: int) -> list[ActionRecord]: ...

    def first_event_at(self, step: int) -> int | None:
        """The seq of the first stored event of action `step` or later (None: none)."""
        ...


def derive_seed(seed: int, label: str) -> int:
    """A sub-seed for one purpose (e.g. "roles"), the same on every machine and Python run.

    All 256 bits of the digest: a hidden setup dealt from a sub-seed keeps every bit of secret a
    128-bit table seed has (64 bits would cap it at 64, within reach of a search)."""
    digest = hashlib.sha256(f"{seed}:{label}".encode()).digest()
    return int.from_bytes(digest, "big")


# ---------------------------------------------------------------------------------------- game
class Game(ABC):
    """A game in progress. Subclasses implement the rules in `_apply` and the two halves of a view.

    The base class owns bookkeeping shared by every env: turn checks, the action record, event
    sequencing, visibility and clock, the views' envelope, roles and the hidden setup, the
    invalid-move policy (`reject`), default moves (`act_default`) and abort. `act` never raises
    for a player's bad move. Subclasses keep the seats whose decision is awaited in
    `self._waiting`, and their clock (round, phase, tick...) in `self.clock`.

    Games declare `__slots__` (every subclass lists its own state): attribute access is on the
    path of every move, and slots keep it fast however many attributes a game has.
    """

    # Attributes a `fork` shares rather than copies: what never changes, or caches of a pure
    # function of their inputs (SocialGrid's board and planning oracle).
    SHARED_ON_FORK: ClassVar[tuple[str, ...]] = ()

    __slots__ = ("env", "config", "seed", "players", "step", "roles", "clock", "_env_id",
                 "_waiting", "_events", "_actions", "_result", "over", "_aborted", "_public",
                 "_rng", "_errors", "_last_errors", "_judged", "_shared_actions",
                 "_events_base", "_actions_base", "_archive")

    def __init__(self, env: Env, config: Config, seed: int, players: int) -> None:
        self.env = env
        self.config = config
        self.seed = seed
        self.players = players
        self.step = 0  # number of accepted act() calls; increases on every action
        self.roles: tuple[Role, ...] = env.assign_roles(config, seed, players)
        # The env's clock, stamped on every event; replace it (never change it in place).
        self.clock: Mapping[str, Any] = NO_CLOCK
        self._env_id = env.id
        self._waiting: frozenset[int] = frozenset()
        self._events: list[Event] = []  # seq `_events_base` on; the rest is in `_archive`
        self._actions: list[_Stored] = []  # step `_actions_base` on
        self._events_base = 0
        self._actions_base = 0
        self._archive: Archive | None = None
        self._result: Result | None = None
        self.over = False  # set by finish() only; read after every move, so not a property
        self._aborted: str | None = None
        self._public: dict[str, Any] | None = None  # the public view of the current state
        self._rng: random.Random | None = None
        self._errors = [0] * players  # invalid moves in a row, per seat
        self._last_errors: list[str | None] = [None] * players
        self._judged: tuple[str, bool] | None = None  # (category, fatal) of the move in hand
        self._shared_actions: dict[tuple[Any, ...], dict[str, Any]] = {}  # see `_shared`

    @property
    def rng(self) -> random.Random:
        """The game's only source of randomness, seeded from `seed` (made on first use: seeding
        costs more than a whole move of the simplest games)."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    # -- the contract ------------------------------------------------------------------------
    def pending(self) -> frozenset[int]:
        """Seats whose decision is awaited now (several = simultaneous decision)."""
        return self._waiting

    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-serialisable dict of exactly what `seat` may know (None = spectator): the
        current state and a bounded recent window, never the whole history (that is the event
        log). A snapshot its reader may keep: later moves never change it."""
        public = self._public or self._build_public()
        if seat is None:
            return {"env": self._env_id, "seat": None, "public": public, "private": {}}
        if seat.__class__ is not int or not 0 <= seat < self.players:
            self._check_seat(seat)
        return {"env": self._env_id, "seat": seat, "public": public,
                "private": self._private_state(seat)}

    @abstractmethod
    def legal(self, seat: int) -> ActionSpace:
        """What `seat` may do now (NO_ACTION when it is not pending)."""

    @abstractmethod
    def _public_state(self) -> dict[str, Any]:
        """What everyone may know now: a fresh dict that shares nothing the game will change
        (the base class adds "over", "result" and, once over, the revealed "setup")."""

    @abstractmethod
    def _private_state(self, seat: int) -> dict[str, Any]:
        """What only `seat` may know now (fresh, like the public part)."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> str | None:
        """Apply the rules to one action; emit events; return None, or why the move is invalid
        (normally `return self.reject(...)`, which applies the invalid-move policy)."""

    def default_action(self, seat: int) -> Action | None:
        """The env's harmless move for a pending seat (NOOP, skip vote, cooperate, pass), made in
        its place on a turn timeout or a failed bot; None when the env has none."""
        return None

    def pace(self, seat: int) -> float | None:
        """Seconds a person has for this decision before the default move is made for them and
        the game goes on (a game played in real time, e.g. SocialGrid's `tick` pace); None: the
        table's turn timer and timeout policy apply."""
        return None

    def invalid_move_policy(self, seat: int, category: str) -> InvalidMovePolicy:
        """The policy for an invalid move of `seat` in MindGames `category` (env hook)."""
        return self.env.invalid_moves

    def preview(self, seat: int, action: Action) -> list[str]:
        """What the rules would say of `action` by pending `seat` now, without making it: the
        problems a person is warned of while typing (the Impostor game's word leak). Only
        what the seat may know goes into them. The default warns of nothing."""
        return []

    def hidden_setup(self) -> dict[str, Any]:
        """What was dealt in secret (roles, map, word pair, dataset instance id and hash):
        kept in the record and revealed to everyone when the game ends. Envs extend it."""
        if not self.env.hidden_roles:
            return {}
        return {"roles": [r.to_json() for r in self.roles]}

    def revealed_roles(self) -> frozenset[str]:
        """Role names the rules have made public before the end (SocialGrid announces an
        ejected player's role): the conformance suite no longer treats them as secrets."""
        return frozenset()

    def public_view(self) -> dict[str, Any]:
        """The public part of every view of the current state."""
        return self._public or self._build_public()

    def _build_public(self) -> dict[str, Any]:
        """Built at most once per state (`act` and `abort` drop it): the env's part, then whether
        the game is over and its result, which every env's view carries."""
        public = self._public_state()
        result = self._result
        public["over"] = result is not None
        public["result"] = result.to_json() if result else None
        if result is not None:
            setup = self.hidden_setup()
            if setup:
                public["setup"] = setup
        self._public = public
        return public

    @property
    def result(self) -> Result | None:
        return self._result

    def act(self, seat: int, action: Action, *, meta: Mapping[str, Any] | None = None
            ) -> list[Event]:
        """Submit `seat`'s action; returns the events it produced (all visibilities)."""
        if seat.__class__ is not int or seat not in self._waiting:
            self._refuse(seat)
        if action.__class__ is not str:
            if not isinstance(action, Mapping):
                raise TypeError("an action is text or a mapping of a structured action")
            action = dict(action)  # the record keeps its own copy
        events = self._events
        first = len(events)
        step = self.step
        self._public = None
        self._judged = None
        error = self._apply(seat, action)
        if error is None:
            if self._errors[seat]:
                self._errors[seat] = 0
                self._last_errors[seat] = None
            self._actions.append((seat, self._shared(action), *(_flat(meta) or ())))
        else:
            if self._judged is None:  # the env returned a reason without judging it
                self.reject(seat, error, OTHER)
            category, fatal = self._judged or (OTHER, False)
            self._actions.append((seat, self._shared(action), _flat(meta), "invalid", error,
                                  category, fatal))
        self.step = step + 1
        return events[first:]

    def act_default(self, seat: int, reason: str, *, meta: Mapping[str, Any] | None = None
                    ) -> list[Event]:
        """Make the env's default move for `seat` (reason: e.g. "timeout"); recorded with outcome
        "defaulted". Raises EngineError when the env has no default move. A default the rules
        refuse (an env bug the conformance suite catches) is still recorded as made, so the
        record replays to the same events."""
        if seat.__class__ is not int or seat not in self._waiting:
            self._refuse(seat)
        action = self.default_action(seat)
        if action is None:
            raise EngineError(f"{self._env_id} has no default move")
        if action.__class__ is not str:
            action = dict(action)  # type: ignore[arg-type]
        first = len(self._events)
        step = self.step
        self._public = None
        self._judged = None
        self.emit("move_defaulted", {"seat": seat, "reason": reason}, self.notice_audience(seat))
        if self._apply(seat, action) is None:
            self._errors[seat] = 0
            self._last_errors[seat] = None
        self._actions.append((seat, self._shared(action), _flat(meta), "defaulted", reason, None,
                              False))
        self.step = step + 1
        return self._events[first:]

    def _shared(self, action: Action) -> Action:
        """The copy of a structured action the record keeps: one shared by every equal action
        (a SocialGrid game repeats a handful thousands of times) when its fields are scalars
        (keyed by type too: True is not 1 in a record), else its own. Records hand out copies."""
        if action.__class__ is str:
            return action
        shared = self._shared_actions
        try:
            key = tuple((k, v.__class__, v) for k, v in action.items())  # type: ignore[union-attr]
            found = shared.get(key)
        except TypeError:  # a list or dict field: not hashable, not shared
            return action
        if found is not None:
            return found
        if len(shared) < SHARED_ACTIONS and len(key) <= 3:  # a vote with its thoughts is
            # one of a kind: it would only take the place of a move made thousands of times
            shared[key] = action  # type: ignore[assignment]
        return action

    def _refuse(self, seat: int) -> None:
        """Raise the error that says why `seat` may not act now."""
        self._check_seat(seat)
        if self._result is not None:
            raise GameOverError("the game is over")
        raise NotYourTurnError(f"seat {seat} is not to act now "
                               f"(waiting for {sorted(self._waiting)})")

    def resign(self, seat: int, reason: str, *, meta: Mapping[str, Any] | None = None
               ) -> list[Event]:
        """`seat` gives up (its person left, never came back, or ran out of time): a `forfeit`
        event {seat, reason}, then the env's forfeit rule (`_on_forfeit`: the seat's side
        loses and the game ends). Any seat may resign while the game runs, awaited or not.
        Recorded with outcome "resigned" (`error` = reason), so the record replays exactly.
        `reason` completes a sentence about the seat ("left the game")."""
        self._check_seat(seat)
        if self._result is not None:
            raise GameOverError("the game is over")
        first = len(self._events)
        step = self.step
        self._public = None
        self._judged = None
        self.emit("forfeit", {"seat": seat, "reason": reason})
        self._on_forfeit(seat, f"{self.env.seat_name(seat)} {reason}")
        self._actions.append((seat, "", _flat(meta), "resigned", reason, None, False))
        self.step = step + 1
        return self._events[first:]

    def abort(self, reason: str) -> list[Event]:
        """End the game as void (timeouts, provider failures, disconnects): no rewards."""
        if self.over:
            raise GameOverError("the game is over")
        first = len(self._events)
        self._aborted = reason
        self._public = None
        self.emit("game_aborted", {"reason": reason})
        self.finish({s: 0.0 for s in range(self.players)}, (), reason, void=True)
        return self._events[first:]

    def events_for(self, seat: int | None, since: int = 0, limit: int | None = None
                   ) -> list[Event]:
        """Events `seat` may see with seq >= since, the first `limit` of them (all if None);
        reads no further than it must, so a page of a long game's log costs a page."""
        since = max(since, 0)
        if limit is None:
            return [e for e in self.events_between(since) if e.visible(seat)]
        found: list[Event] = []
        while since < self.event_count and len(found) < limit:
            page = self.events_between(since, since + max(limit, EVENT_PAGE))
            for e in page:
                if e.visible(seat):
                    found.append(e)
                    if len(found) >= limit:
                        break
            since += len(page)
        return found

    def fork(self) -> Game:
        """An independent copy of the game as it is now, to play on from here (a replay's
        checkpoint): the state copied, the env, config, archive and the records so far shared
        (nothing ever changes them), and the attributes the env names in SHARED_ON_FORK."""
        shared: dict[int, Any] = {id(x): x for x in (self.env, self.config, self._archive)}
        shared.update((id(x), x) for x in (getattr(self, a) for a in self.SHARED_ON_FORK))
        shared.update((id(x), x) for x in self._events)
        shared.update((id(x), x) for x in self._actions)
        return copy.deepcopy(self, shared)

    def events_between(self, start: int, stop: int | None = None) -> list[Event]:
        """Every event (all visibilities) with start <= seq < stop: for the server's own
        bookkeeping (`outbound.Numbering`), never for a recipient."""
        base, count = self._events_base, self._events_base + len(self._events)
        start = max(start, 0)
        stop = count if stop is None else min(stop, count)
        if start >= base:
            return self._events[start - base:stop - base]
        assert self._archive is not None
        older = self._archive.events(start, min(stop, base))
        return older + self._events[:max(stop - base, 0)]

    def first_event_at(self, step: int) -> int:
        """The seq of the first event of action `step` or later (`event_count` if none yet):
        events come in the order of their steps."""
        events, base = self._events, self._events_base
        if base and (not events or step < events[0].step):  # forgotten events may be its
            assert self._archive is not None
            found = self._archive.first_event_at(step)
            return base if found is None else min(found, base)
        return base + bisect_left(events, step, key=_event_step)

    def latest_events_for(self, seat: int | None, count: int) -> list[Event]:
        """The last `count` events `seat` may see, oldest first (read from the end)."""
        found: list[Event] = []
        stop = self.event_count
        while stop > 0 and len(found) < count:
            start = max(stop - EVENT_PAGE, 0, self._events_base if stop > self._events_base
                        else 0)
            for e in reversed(self.events_between(start, stop)):
                if len(found) >= count:
                    break
                if e.visible(seat):
                    found.append(e)
            stop = start
        found.reverse()
        return found

    @property
    def events(self) -> list[Event]:
        return self.events_between(0)

    @property
    def event_count(self) -> int:
        return self._events_base + len(self._events)

    @property
    def actions(self) -> list[ActionRecord]:
        base = self._actions_base
        older = self._archive.actions(0, base) if base and self._archive is not None else []
        return older + [_action_record(a, base + i) for i, a in enumerate(self._actions)]

    def last_action(self) -> ActionRecord | None:
        """The latest action's record (cheaper than `actions[-1]`, which builds every record)."""
        actions = self._actions
        return _action_record(actions[-1], self._actions_base + len(actions) - 1) \
            if actions else None

    def record(self) -> GameRecord:
        return GameRecord(self.env.id, self.env.rules_version, self.config.to_json(), self.seed,
                          self.players, self.actions, self.events, self._result,
                          self._aborted, self.hidden_setup())

    def forget_old(self, archive: Archive, keep: int) -> None:
        """Let go of all but about the latest `keep` events, and of the actions before the
        oldest event kept, once there are twice as many: `archive` (which holds every one of
        them already) hands them back when they are asked for. A live table's memory is then
        bounded by the window, not the game's length (issue 21)."""
        events = self._events
        if len(events) < 2 * keep or keep < 1:
            return
        if self._archive is None:
            self._archive = archive
        drop = len(events) - keep
        # Keep every event of the oldest kept action, and that action on.
        oldest = events[drop].step
        while drop and events[drop - 1].step == oldest:
            drop -= 1
        oldest_action = min(oldest, self.step) - self._actions_base
        del events[:drop]
        self._events_base += drop
        if oldest_action > 0:
            del self._actions[:oldest_action]
            self._actions_base += oldest_action

    # -- invalid moves ---------------------------------------------------------------------------
    def errors_in_a_row(self, seat: int) -> int:
        return self._errors[seat]

    def last_error(self, seat: int) -> str | None:
        """Why the seat's latest move was rejected, until it makes a valid one."""
        return self._last_errors[seat]

    def retries_left(self, seat: int, category: str = OTHER) -> int:
        policy = self.invalid_move_policy(seat, category)
        return max(policy.retries - self._errors[seat], 0)

    def reject(self, seat: int, reason: str, category: str, *, error_class: str | None = None,
               **data: Any) -> str:
        """Judge an invalid move by the env's policy and return `reason` (for `_apply`).

        `category` is the env's own word for the error (kept in the `invalid_move` event);
        `error_class` its MindGames class (default: `category` when it is one, else "other").
        `data` adds env fields (e.g. the round) to the event. While retries remain only the
        seat hears about it and stays pending; then the policy's consequence applies."""
        kind = error_class or (category if category in ERROR_CLASSES else OTHER)
        policy = self.invalid_move_policy(seat, kind)
        self._errors[seat] += 1
        self._last_errors[seat] = reason
        count = self._errors[seat]
        final = count > policy.retries
        fatal = final and policy.fatal
        self._judged = (kind, fatal)
        event = {"seat": seat, **data, "reason": reason, "category": category, "fatal": fatal}
        if not final:
            self.emit("invalid_move", event, (seat,))
            return reason
        if not fatal:
            self.emit("invalid_move", {**event, "then": policy.then}, (seat,))
            self._errors[seat] = 0
            self._last_errors[seat] = None
            if policy.then == DEFAULT:
                action = self.default_action(seat)
                if action is None or self._apply(seat, action) is not None:
                    raise EngineError(f"{self._env_id} has no valid default move for seat {seat}")
            elif policy.then == VOID_BALLOT:
                self._on_void_ballot(seat)
            elif policy.then == SKIP_TURN:
                self._on_skip_turn(seat)
            return reason
        audience = self.notice_audience(seat)
        self.emit("invalid_move", event, audience)
        why = (f"{self.env.seat_name(seat)} made {count} invalid move{'s' if count > 1 else ''} "
               f"in a row")
        if policy.then == FORFEIT:
            self.emit("forfeit", {"seat": seat, "reason": why})
            self._on_forfeit(seat, why)
        elif policy.then == ELIMINATE:
            self.emit("eliminated", {"seat": seat, "reason": why}, audience)
            self._on_eliminate(seat, why)
        return reason

    def notice_audience(self, seat: int) -> Visibility | Sequence[int]:
        """Who hears the notices the base class makes about `seat` (a final invalid move, an
        elimination, a default move made for it): everyone, unless the env's rules make the
        move itself secret (Secret Mafia at night: who acts at night betrays a role)."""
        return "all"

    def _on_forfeit(self, seat: int, why: str) -> None:
        """The seat's side loses (-1 each), every other seat wins (+1); the game ends."""
        side = self.roles[seat].side
        losers = {s for s in range(self.players) if self.roles[s].side == side}
        winners = tuple(s for s in range(self.players) if s not in losers)
        names = list(dict.fromkeys(self.roles[s].side for s in winners))
        verb = "wins" if len(names) == 1 else "win"
        rewards = {s: -1.0 if s in losers else 1.0 for s in range(self.players)}
        self.finish(rewards, winners, f"{why}; {' and '.join(names)} {verb} by forfeit")

    def _on_eliminate(self, seat: int, why: str) -> None:
        """The seat is out and the game goes on (envs with an ELIMINATE policy implement it)."""
        raise NotImplementedError(f"{self._env_id} uses ELIMINATE but does not implement it")

    def _on_void_ballot(self, seat: int) -> None:
        raise NotImplementedError(f"{self._env_id} uses VOID_BALLOT but does not implement it")

    def _on_skip_turn(self, seat: int) -> None:
        raise NotImplementedError(f"{self._env_id} uses SKIP_TURN but does not implement it")

    # -- helpers for subclasses ---------------------------------------------------------------
    def emit(self, type: str, data: Mapping[str, Any], visible_to: Visibility | Sequence[int]
             = "all") -> Event:
        events = self._events
        event = Event(self._events_base + len(events), self.step, type,
                      data,  # emit owns `data`
                      "all" if visible_to == "all" else tuple(sorted(visible_to)), self.clock)
        events.append(event)
        return event

    def finish(self, rewards: Mapping[int, float], winners: Sequence[int], reason: str, *,
               teams: Sequence[Sequence[int]] = (), void: bool = False) -> None:
        """End the game; the hidden setup is revealed to everyone, then `game_over`."""
        self._waiting = frozenset()
        roles = self.roles
        self._result = Result(dict(rewards), tuple(winners), reason,
                              tuple(tuple(t) for t in teams), void,
                              tuple(r.name for r in roles), tuple(r.side for r in roles))
        self.over = True
        setup = self.hidden_setup()
        if setup:
            self.emit("setup_revealed", setup)
        self.emit("game_over", self._result.to_json())

    def _check_seat(self, seat: int) -> None:
        if seat.__class__ is not int or not 0 <= seat < self.players:
            raise UnknownSeatError(f"no seat {seat!r}; seats are 0..{self.players - 1}")


def _action_record(a: _Stored, step: int) -> ActionRecord:
    seat, raw = a[0], a[1]
    if raw.__class__ is not str:
        raw = dict(raw)  # the reader's own copy: the stored one may be shared
    if len(a) % 2 == 0:
        return ActionRecord(seat, step, raw, "ok", None, dict(zip(a[2::2], a[3::2], strict=True)))
    meta = a[2]
    return ActionRecord(seat, step, raw, a[3], a[4],
                        dict(zip(meta[::2], meta[1::2], strict=True)) if meta else {}, a[5], a[6])


def _flat(meta: Mapping[str, Any] | None) -> tuple[Any, ...] | None:
    """An action's meta as (key, value, ...): a small dict costs three times the tuple."""
    return tuple(x for item in meta.items() for x in item) if meta else None


@lru_cache(maxsize=256)
def _own_sides(names: tuple[str, ...]) -> tuple[Role, ...]:
    return tuple(Role(n, n) for n in names)


# ---------------------------------------------------------------------------------------- env
class Env(ABC):
    """Static description of an environment and the factory of its games.

    An env package registers everything it brings here, in one place: the rules (`game_class`),
    text (`render`, `describe_event`), metrics, and where the other layers find its scripted
    bots, prompt builder and TUI widget (module paths the engine never imports)."""

    id: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]  # one line, shown in lobbies and `parlor envs`
    players: ClassVar[tuple[int, ...]]
    rules_version: ClassVar[str]
    Config: ClassVar[type[Config]]
    presets: ClassVar[Mapping[str, Config]]
    game_class: ClassVar[type[Game]]
    default_preset: ClassVar[str] = "paper"
    seat_names: ClassVar[tuple[str, ...]] = ()
    # How results become ratings (server/store/ratings.py): "trueskill" (sides/teams as ranked
    # groups), "trueskill-seats" (every seat ranked on its own), "elo" (two sides, one identity
    # each: SocialGrid's league; its other games by TrueSkill over sides) or "none" (one-seat
    # tasks, scored by accuracy).
    rating: ClassVar[str] = "trueskill"
    hidden_roles: ClassVar[bool] = False  # roles are secret until the game ends
    invalid_moves: ClassVar[InvalidMovePolicy] = InvalidMovePolicy()
    # What a table does when a person's decision is overdue: "default" (the default move is made
    # for them and the game goes on) or "void" (the game ends as void, e.g. MindGames' rule).
    on_timeout: ClassVar[str] = "default"
    # Where the other layers find what this env brings ("module" or "module:Class").
    scripted_bots: ClassVar[str] = ""  # a module under bots/ that registers scripted bots
    prompt_builder: ClassVar[str] = ""  # "bots.prompts.<env>:<Builder>"
    # "tui.widgets.<module>:<Widget>", sent to clients in describe(); a name kept as sent when its
    # widget moved into tui/widgets/<env>/ (tui/widgets/registry.py says where each lives)
    widget: ClassVar[str] = ""
    # Public facts of the board that never change (AmongAgents' rooms, corridors and vents),
    # JSON, sent to clients in describe() so a widget can draw them without the engine.
    board: ClassVar[Mapping[str, Any] | None] = None
    # A plain label for every metric key `game_metrics` emits, at game and seat level (the
    # conformance suite checks it), e.g. {"invalid_caused": "Invalid moves made"}: what people
    # read on result screens and in reports. Sent to clients in describe().
    metric_labels: ClassVar[Mapping[str, str]] = {}
    # The rules for people (markdown), a data file in the env's package; see `help`.
    help_file: ClassVar[str] = "help.md"
    # Event types that only move the game along (SocialGrid's per-step `step`): a transcript for
    # people leaves them out. Sent to clients in describe().
    quiet_events: ClassVar[tuple[str, ...]] = ()
    # Its texts name a puzzle's characters as "Player 3" who are not seats (SocialMaze's Hidden
    # Role Deduction): the conformance suite then takes "Player N" in a transcript line for a
    # character, and only the seats' own names for seats.
    names_characters: ClassVar[bool] = False
    # Where its words and numbers live: the `text` module (render(view), and
    # describe_event(type, data, naming) if its events need more than the generic line) and the
    # `metrics` module (game_metrics(record), aggregate_metrics(per_game)) of its package. The
    # methods below call them, so an env names its modules instead of forwarding to them.
    text: ClassVar[ModuleType | None] = None
    metrics: ClassVar[ModuleType | None] = None

    def new_game(self, config: Config, seed: int, players: int) -> Game:
        """Start a game after checking the player count and the config's type (configs are
        validated when they are made)."""
        if config.__class__ is not self.Config and not isinstance(config, self.Config):
            raise ConfigError(f"{self.id} needs a {self.Config.__name__}, got "
                              f"{type(config).__name__}")
        self.check_players(players, config)
        return self.game_class(self, config, seed, players)

    def assign_roles(self, config: Config, seed: int, players: int) -> tuple[Role, ...]:
        """Each seat's role and side, deterministic from the seed (draw from
        `random.Random(derive_seed(seed, "roles"))`) or fixed by the config. The default: every
        seat plays for itself, named by `seat_name`."""
        return _own_sides(tuple(self.seat_name(s) for s in range(players)))

    def render(self, view: Mapping[str, Any]) -> str:
        """The text an LLM or a transcript pane reads for this view: the env's `text.render`."""
        if self.text is None:
            raise NotImplementedError(f"{self.id}: name a `text` module or override render")
        return self.text.render(view)

    def describe_event(self, event: Event, seat: int | None, name: Namer | None = None) -> str:
        """One line of transcript for `event` as `seat` (None = spectator) reads it; used by the
        TUI's transcript (the server sends it) and by prompts. `name` gives a seat's display
        name (default: `seat_name`); every seat the line mentions is named by it, texts the env
        wrote (reasons) included. Envs override for their events, naming seats by
        `self.naming(name)`; the env's `text.describe_event(type, data, naming)` when it has one."""
        describe = getattr(self.text, "describe_event", None)
        if describe is None:
            return describe_generic(event.type, event.data, self.naming(name))
        return describe(event.type, event.data, self.naming(name))

    def describer(self, name: Namer | None = None) -> Callable[[Event, int | None], str]:
        """`describe_event` with `name` fixed and its namer made once: for writing many lines
        (a server writes every event's line for every recipient), for one game's events."""
        naming_ = self.naming(name)
        if type(self).describe_event is not Env.describe_event:  # an env's own way
            return lambda e, seat: self.describe_event(e, seat, naming_)
        describe = getattr(self.text, "describe_event", None)
        if describe is None:
            describe = describe_generic
        # These lines do not depend on the reader: one per event, whoever asks for it again
        # (the latest few hundred: a describer may serve a whole game).
        lines: dict[int, str] = {}

        def line(e: Event, seat: int | None) -> str:
            text = lines.get(e.seq)
            if text is None:
                if len(lines) >= DESCRIBED_LINES:
                    lines.clear()
                text = lines[e.seq] = describe(e.type, e.data, naming_)
            return text
        return line

    def naming(self, name: Namer | None = None) -> Naming:
        """The namer of transcript lines: `name` when given, else the env's own seat names. It
        also rewrites the env's own names in texts the env wrote (`Naming.text`). A namer this
        made is used as it is (a server describing many events makes one)."""
        if isinstance(name, Naming):
            return name
        return naming(name, self.seat_name, max(self.players))

    @property
    def help(self) -> str:
        """The rules for people, as markdown: the env package's `help_file`, or a short text
        made from the title and description when the package has none. Read once."""
        return _help_text(type(self))

    def game_metrics(self, record: GameRecord) -> dict[str, Any]:
        """The paper's metrics for one game (the env's `metrics.game_metrics`):
        {"game": {name: value}, "seats": {"0": {name: value}, ...}} with JSON values."""
        if self.metrics is None:
            raise NotImplementedError(f"{self.id}: name a `metrics` module or override "
                                      f"game_metrics")
        return self.metrics.game_metrics(record)

    def aggregate_metrics(self, per_game: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        """Metrics across games (per seat index and overall), e.g. for `parlor sim` summaries,
        folded from per-game metrics (what `game_metrics` returns and the store keeps), never
        from records. `per_game` may be a generator: read it once, one game at a time, keeping
        running sums and counts (engine/aggregate.py), so memory does not grow with the number
        of games; a metric the aggregate needs belongs in `game_metrics`' output. The env's
        `metrics.aggregate_metrics`."""
        if self.metrics is None:
            raise NotImplementedError(f"{self.id}: name a `metrics` module or override "
                                      f"aggregate_metrics")
        return self.metrics.aggregate_metrics(per_game)

    def seat_name(self, seat: int) -> str:
        return self.seat_names[seat] if seat < len(self.seat_names) else f"Player {seat}"

    def check_players(self, players: int, config: Config | None = None) -> None:
        """ConfigError naming the rule when `players` cannot play (with `config`: a game of
        that config, whose counts may be fewer, see `player_counts`)."""
        if players not in self.players:
            allowed = ", ".join(map(str, self.players))
            raise ConfigError(f"{self.id} is played by {allowed} players, not {players}")
        if config is not None and players not in (counts := self.player_counts(config)):
            raise ConfigError(f"{self.id} with this config is played by "
                              f"{', '.join(map(str, counts)) or 'no number of'} players, "
                              f"not {players}")

    def config(self, preset: str | None = None, overrides: Mapping[str, Any] | None = None
               ) -> Config:
        """Resolve a preset name plus overrides into a validated config."""
        name = preset or self.default_preset
        if name not in self.presets:
            raise ConfigError(f"unknown preset {name!r} for {self.id}; "
                              f"valid presets: {', '.join(self.presets)}")
        if not overrides:  # the preset itself (frozen and valid): no JSON round trip per table
            return self.presets[name]
        data = self.presets[name].to_json()
        data.update(overrides or {})
        return self.Config.from_json(data)

    def default_players(self) -> int:
        return self.players[0]

    def preset_default_players(self, config: Config) -> int:
        """The player count a table of `config` starts with: the env's default where the
        config allows it, else its first allowed count."""
        counts = self.player_counts(config)
        return self.default_players() if self.default_players() in counts else counts[0]

    def player_counts(self, config: Config) -> tuple[int, ...]:
        """The player counts a game of this config can have (SocialGrid's depend on its
        impostors and map size); every count in `players` by default."""
        return self.players

    def replay(self, record: GameRecord) -> Game:
        """Rebuild a game from its record by replaying every action from the seed."""
        game = self.new_game(self.Config.from_json(record.config), record.seed, record.players)
        for a in record.actions:
            self.replay_action(game, a)
        if record.aborted is not None and not game.over:
            game.abort(record.aborted)
        return game

    @staticmethod
    def replay_action(game: Game, a: ActionRecord) -> list[Event]:
        """Make a recorded action again: a default move, a resignation, or the move itself."""
        if a.outcome == "defaulted":
            return game.act_default(a.seat, a.error or "", meta=a.meta)
        if a.outcome == "resigned":
            return game.resign(a.seat, a.error or "", meta=a.meta)
        return game.act(a.seat, a.raw, meta=a.meta)

    def describe(self) -> dict[str, Any]:
        """JSON description for lobbies: id, title, players, presets with their configs."""
        return {"id": self.id, "title": self.title, "description": self.description,
                "players": list(self.players), "rules_version": self.rules_version,
                "default_preset": self.default_preset,
                "presets": {k: v.to_json() for k, v in self.presets.items()},
                # a preset's own player counts (Find the Spy's passive preset seats one)
                "preset_players": {k: list(self.player_counts(v))
                                   for k, v in self.presets.items()},
                # the count a new table of each preset starts with (the paper's, say)
                "preset_default_players": {k: self.preset_default_players(v)
                                           for k, v in self.presets.items()},
                "seat_names": list(self.seat_names), "rating": self.rating,
                "hidden_roles": self.hidden_roles, "widget": self.widget, "help": self.help,
                "metric_labels": dict(self.metric_labels),
                "quiet_events": list(self.quiet_events),
                **({"board": self.board} if self.board else {})}


@cache
def _help_text(env_class: type[Env]) -> str:
    """`env_class`'s help file from its package (read once), or the fallback."""
    module = sys.modules.get(env_class.__module__)
    package = getattr(module, "__package__", None)
    if package and env_class.help_file:
        try:
            text = resources.files(package).joinpath(env_class.help_file).read_text("utf-8")
        except (OSError, ModuleNotFoundError):
            text = ""
        if text.strip():
            return text
    return generic_help(env_class)


def generic_help(env_class: type[Env]) -> str:
    """A help text for an env without a help file: its title, description and seats."""
    counts = " or ".join(map(str, env_class.players))
    lines = [f"# {env_class.title}", "", env_class.description, "",
             f"Played by {counts} player{'s' if env_class.players != (1,) else ''}."]
    if env_class.seat_names:
        lines.append("Seats: " + ", ".join(env_class.seat_names) + ".")
    lines += ["", "This game has no help page of its own yet: the text shown at each turn says "
              "what you may do and how to answer."]
    return "\n".join(lines) + "\n"


__all__ = [
    "JSON", "Action", "EngineError", "ConfigError", "UnknownEnvError", "NotYourTurnError",
    "UnknownSeatError", "GameOverError", "Event", "Visibility", "Option", "Field", "ActionSpace",
    "NO_ACTION", "Role", "Result", "ActionRecord", "GameRecord", "Config", "Game", "Env",
    "field_names", "derive_seed", "InvalidMovePolicy", "NO_CLOCK",
]
