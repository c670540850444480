"""A table: an env, its seats (people or bots), spectators, and the game that runs on it.

Turn deadlines and disconnect grace are timers on the loop (nothing polls); bots decide in their
own tasks; every action goes through `submit`, which applies it, commits it (with its events) to
the store, and only then tells anyone. With `durability="game"` (`parlor sim`: nobody watches)
the rows wait in memory and the whole game is written in its finishing transaction. Nothing here
knows about websockets: recipients are anything with `async send(message)`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bots.base import Bot, Decision
from engine.core import Config, EngineError, Env, Event, Game
from engine.describe import distinct_names
from engine.records import GameRecord
from server.store import ratings
from server.store.store import GameArchive, Rows, Store, event_rows
from server.tables import outbound
from server.wire.protocol import message

log = logging.getLogger("parlor.server")
SEAT_STATUSES = ("finished", "forfeit", "resigned", "timeout", "disconnected",
                 "provider_error")
OPEN_SEAT = "open seat"  # the display name of a person's seat nobody has taken
BOT_FAILURE_POLICIES = ("void", "default", "wait")
TIMEOUT_POLICIES = ("default", "void")
EVENTS_KEPT = 1000  # a live game's events kept in memory (at most twice as many): the store
# has the rest (issue 21: memory per table bounded by a window, not by the game's length)
YIELD_EVERY = 32  # decisions a bot task makes before it lets the rest of the loop run
DURABILITY = ("action", "game")
# A scripted decision that takes longer holds up every table on the loop for too long: that
# seat decides in a worker thread from then on. Every scripted bot decides well under it at the
# envs' largest configs (benchmarks/table_costs.py); a thread hop would cost more than a
# quick decision.
OFFLOAD_AFTER = 0.02
# Seconds between two broadcasts of a changed spectator count: watchers coming and going by the
# hundred make one table message a second for the players, with the latest count.
SPECTATORS_TOLD_EVERY = 1.0
LIVE = ("waiting", "starting", "playing")  # a table's statuses before its game has ended


class ActionFailed(Exception):
    """Applying an action (or storing it, or what follows it) raised something unexpected; the
    game was ended as void and everyone at the table told. The message has no internals."""


class StaleTurnError(Exception):
    """An `act` answered a turn that is not the seat's outstanding one (any more): checked
    under the table's lock, so two answers to one turn never both apply."""


class Recipient(Protocol):
    async def send(self, msg: Mapping[str, Any]) -> None: ...


@dataclass(eq=False)
class Player:
    """A person known to the server; `conns` are their open connections, `addresses` the IP
    addresses they said hello from in this run of the server."""

    name: str
    token: str
    conns: set[Recipient] = field(default_factory=set)
    addresses: set[str] = field(default_factory=set)

    @property
    def identity(self) -> str:
        return f"human:{self.name}"


@dataclass(eq=False)
class Seat:
    index: int
    name: str
    spec: str  # "human" or a bot spec
    bot: Bot | None = None
    player: Player | None = None
    memory: dict[str, Any] = field(default_factory=dict)
    turn: int | None = None  # the outstanding your_turn number
    turn_issued: float = 0.0  # loop time the turn was issued
    deadline: float | None = None  # loop time the decision is due
    disconnected_since: float | None = None
    return_by: float | None = None  # wall-clock time the disconnect grace ends
    status: str = "finished"
    task: asyncio.Task[None] | None = None
    turn_timer: asyncio.TimerHandle | None = None  # fires at `deadline`
    grace_timer: asyncio.TimerHandle | None = None  # fires when disconnect grace runs out

    def cancel_timers(self) -> None:
        for timer in (self.turn_timer, self.grace_timer):
            if timer is not None:
                timer.cancel()
        self.turn_timer = self.grace_timer = None
    usage: dict[str, float] = field(default_factory=dict)  # summed over this game's decisions
    failed_calls: int = 0  # a bot's failed provider calls in this game

    def add_usage(self, usage: Mapping[str, Any]) -> None:
        self.usage["decisions"] = self.usage.get("decisions", 0) + 1
        for key, value in usage.items():
            if isinstance(value, (int, float)):
                self.usage[key] = self.usage.get(key, 0) + value

    @property
    def kind(self) -> str:
        return "human" if self.spec == "human" else "bot"

    @property
    def identity(self) -> str:
        if self.bot is not None:
            return self.bot.identity
        return self.player.identity if self.player else "human"

    @property
    def plain_display(self) -> str:
        """The seat's display name before telling equal ones apart (`Table.display_names`)."""
        if self.bot is not None:
            return self.bot.identity
        return self.player.name if self.player else OPEN_SEAT

    def to_json(self, display: str | None = None) -> dict[str, Any]:
        return {"seat": self.index, "name": self.name, "kind": self.kind,
                "identity": self.identity if self.kind == "bot" or self.player else None,
                "player": self.player.name if self.player else None,
                "display": display if display is not None else self.plain_display,
                "connected": self.kind == "bot" or bool(self.player and self.player.conns),
                "return_by": self.return_by}


@dataclass
class TableOptions:
    turn_timeout: float = 300.0
    disconnect_grace: float = 60.0
    bot_timeout: float = 900.0
    on_bot_failure: str = "void"
    on_timeout: str | None = None  # "default" or "void"; None: the env's own rule
    bot_retries: int = 3  # "wait" policy: further attempts after a failed decision
    bot_retry_delay: float = 10.0  # "wait" policy: seconds between attempts
    durability: str = "action"  # "action": each move committed before it is shown; "game":
    # the game written at its end (only where nothing is shown: `parlor sim`)
    offload_after: float = OFFLOAD_AFTER  # a scripted decision slower than this (seconds)
    # moves the seat's later decisions to a worker thread
    unrated_same_address: bool = False  # a game between people who said hello from one
    # address is not rated (two names of one person farming ratings)
    rated: bool = True  # False: games leave the stored ratings alone (`parlor league mgref`
    # rates its candidate against frozen references itself)
    spectators_told_every: float = SPECTATORS_TOLD_EVERY  # seconds between count broadcasts

    def __post_init__(self) -> None:
        if self.durability not in DURABILITY:
            raise ValueError(f"unknown durability {self.durability!r}; valid: "
                             f"{', '.join(DURABILITY)}")


class Table:
    def __init__(self, table_id: str, env: Env, preset: str | None, config: Config, seed: int,
                 seats: list[Seat], store: Store, options: TableOptions) -> None:
        self.id = table_id
        self.env = env
        self.preset = preset
        self.config = config
        # What every summary shows of it (a config never changes; shared by the summaries,
        # which are only ever encoded: made once, not at every join and broadcast)
        self._public_config = config.public_json()
        self.seed = seed
        self.seats = seats
        self.store = store
        self.options = options
        self.spectators: set[Recipient] = set()
        self.barred: set[Player] = set()  # people the host removed: no seat here again
        self.game: Game | None = None
        self.numbering: outbound.Numbering | None = None  # the game's events per recipient
        # Sends made in `with holding():` go out together (the server's Outbox): only around
        # code that never waits, since every other table's sends wait for it.
        self.holding: Callable[[], contextlib.AbstractContextManager[None]] = \
            contextlib.nullcontext
        # (game, display names, describer): event lines, made again when a name changes
        self.describer: tuple[Any, list[str], Callable[[Event, int | None], str]] | None = None
        # Per recipient seat: the last view's public and private parts, the view, its text.
        self.rendered: dict[int | None, tuple[Any, Any, dict[str, Any], str]] = {}
        self.game_id: int | None = None
        self.status = "waiting"
        self.done = asyncio.Event()
        self.game_over_message: dict[str, Any] | None = None
        self._lock = asyncio.Lock()
        # Turns issued per seat: numbered per seat, so that a seat's turn numbers say nothing
        # of other seats' decisions (a retried invalid answer, say).
        self._turns: Counter[int] = Counter()
        self._tasks: set[asyncio.Task[None]] = set()  # timer-started work, kept referenced
        self._scripted: asyncio.Task[None] | None = None  # decides for bots that never await
        self._offloaded: set[int] = set()  # seats whose scripted bot decides in a thread
        self._opening: asyncio.Future[None] | None = None  # storing the game's start
        self._unwritten: Rows | None = Rows() if options.durability == "game" else None
        self._archive: GameArchive | None = None  # the game's stored log, once it has a row
        self.campaign: tuple[str, str] | None = None  # (campaign id, game key), if one's
        # The spectator count the table last told, when, and the broadcast due to tell it anew
        self._spectators_told = 0
        self._spectators_told_at = -math.inf
        self._spectators_due: asyncio.TimerHandle | None = None

    # -- lobby -------------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "env": self.env.id, "title": self.env.title, "preset": self.preset,
                "config": self._public_config, "status": self.status,
                "seats": [s.to_json(d) for s, d in zip(self.seats, self.display_names(),
                                                        strict=True)],
                "spectators": len(self.spectators), "game_id": self.game_id}

    def display_names(self) -> list[str]:
        """The one name every screen shows for each seat: the person's name, the bot's identity
        ("open seat" while a person's seat is free); names two seats share get " #<seat>"."""
        return distinct_names([s.plain_display for s in self.seats])

    def namer(self, names: list[str] | None = None) -> Callable[[int], str]:
        """Seat index -> display name, for the event texts the env writes."""
        names = names or self.display_names()
        seat_name = self.env.seat_name
        return lambda seat: names[seat] if 0 <= seat < len(names) else seat_name(seat)

    def seat_of(self, player: Player) -> Seat | None:
        return next((s for s in self.seats if s.player is player), None)

    def open_seats(self) -> list[Seat]:
        return [s for s in self.seats if s.kind == "human" and s.player is None]

    def recipients(self) -> list[tuple[Recipient, int | None]]:
        out: list[tuple[Recipient, int | None]] = []
        for s in self.seats:
            if s.player is not None:
                out += [(c, s.index) for c in s.player.conns]
        return out + [(c, None) for c in self.spectators]

    async def broadcast_table(self) -> None:
        recipients = self.recipients()
        summary = self.summary() if recipients else None  # built once, shared by every message
        if summary is not None:
            self._spectators_told = summary["spectators"]
        for conn, seat in recipients:
            await _safe_send(conn, message("table", table=summary, your_seat=seat))

    # -- spectators --------------------------------------------------------------------------
    def add_spectator(self, conn: Recipient) -> None:
        if conn not in self.spectators:
            self.spectators.add(conn)
            self._spectators_changed()

    def remove_spectator(self, conn: Recipient) -> None:
        if conn in self.spectators:
            self.spectators.discard(conn)
            self._spectators_changed()

    def _spectators_changed(self) -> None:
        """Tell the table (players and spectators) its new spectator count: at once if the
        last count went out `spectators_told_every` ago, else once that much time has passed,
        with the count as it is then (nothing if it is back to the one told). Only while the
        game is live; the timer goes with the table (`_finish`, `close`)."""
        if self._spectators_due is not None or self.status not in LIVE:
            return
        loop = asyncio.get_running_loop()
        when = max(loop.time(), self._spectators_told_at + self.options.spectators_told_every)
        self._spectators_due = loop.call_at(when, self._tell_spectators)

    def _tell_spectators(self) -> None:
        self._spectators_due = None
        if self.status in LIVE and len(self.spectators) != self._spectators_told:
            self._spectators_told_at = asyncio.get_running_loop().time()
            self._spawn(self.broadcast_table())

    def _stop_telling_spectators(self) -> None:
        if self._spectators_due is not None:
            self._spectators_due.cancel()
            self._spectators_due = None

    # -- running -----------------------------------------------------------------------------
    async def maybe_start(self) -> None:
        if self.status == "waiting" and not self.open_seats():
            await self.start()

    async def start(self) -> None:
        self.game = self.env.new_game(self.config, self.seed, len(self.seats))
        self.numbering = outbound.Numbering(self.game)
        self.rendered = {}
        self.status = "starting"  # not "waiting" (no second start), not yet "playing"
        # Shielded: a shutdown that cancels this start still gets a game row it can close.
        self._opening = asyncio.ensure_future(self._open())
        await asyncio.shield(self._opening)
        self.status = "playing"
        # The host's log: who sits where, never a role, a seed or a setting of the game.
        log.info("table %s: game %s started: %s, seats %s", self.id, self.game_id, self.env.id,
                 ", ".join(self.display_names()))
        with self.holding():
            await self.broadcast_table()
            await self._broadcast(self.game.events, self._turns_due())
            await self._dispatch()

    async def _open(self) -> None:
        """The game's row, its seats and its first events, in the store."""
        assert self.game is not None
        self.game_id = await self.store.create_game(
            table_id=self.id, env=self.env.id, rules_version=self.env.rules_version,
            preset=self.preset, config=self.config.to_json(), seed=self.seed,
            seats=[{"identity": s.identity, "kind": s.kind,
                    "name": s.player.name if s.player else s.identity,
                    "settings": s.bot.settings() if s.bot else {}} for s in self.seats],
            campaign=self.campaign)
        await self._store(Rows(events=event_rows(self.game_id, self.game.events)))
        if self._unwritten is None:
            self._archive = self.store.archive(self.game_id)

    async def submit(self, seat: Seat, action: str | Mapping[str, Any], *, turn: int | None = None,
                     decision: Decision | None = None) -> None:
        """Apply one action; commit it and its events; then broadcast and ask for what's next.

        Raises the engine's errors (not your turn, game over) and TypeError (not an action)
        without changing anything. Anything else that raises on the way (a rules bug, a store
        that refuses the action) leaves the game in an unknown state: it ends as void, stored
        and announced (`_crashed`), and ActionFailed is raised. A person's action carries the
        `turn` it answers: unless that is still the seat's outstanding turn, StaleTurnError."""
        async with self._lock:
            game = self.game
            assert game is not None
            if turn is not None and turn != seat.turn and not game.over:
                raise StaleTurnError(f"turn {turn} is stale; " + (
                    f"the current turn is {seat.turn}" if seat.turn is not None
                    else "your decision is not awaited now"))
            meta: dict[str, Any] = {}
            if decision is not None:
                meta["latency_ms"] = round(decision.latency_ms, 3)
            elif seat.turn is not None:
                meta["latency_ms"] = round((asyncio.get_running_loop().time() - seat.turn_issued)
                                           * 1000, 3)
            if not isinstance(action, (str, Mapping)):
                raise TypeError("an action is text or a mapping of a structured action")
            step, seen = game.step, game.event_count
            try:
                events = game.act(seat.index, action, meta=meta)
                if decision is not None:
                    seat.add_usage(decision.usage())
                await self._commit(seat, events, turn, decision)
            except Exception as exc:
                if isinstance(exc, EngineError) and (game.step, game.event_count) == (step, seen):
                    raise  # refused before anything changed: not your turn, game over
                await self._crashed(seat, exc)
                raise ActionFailed(f"the server failed on this move ({type(exc).__name__}); "
                                   f"the game has ended as void") from None

    async def submit_default(self, seat: Seat, reason: str) -> bool:
        """Make the env's default move for a seat that stalled (timeout, failed bot); False
        when the env has none (the caller voids the game instead)."""
        async with self._lock:
            game = self.game
            assert game is not None
            if game.over or seat.index not in game.pending():
                return True
            if game.default_action(seat.index) is None:
                return False
            try:
                events = game.act_default(seat.index, reason)
                await self._commit(seat, events, seat.turn, None)
            except Exception as exc:  # noqa: BLE001 - as in `submit`: the game ends as void
                await self._crashed(seat, exc)
            return True

    async def _crashed(self, seat: Seat, exc: Exception) -> None:
        """`seat`'s move raised something unexpected while it was applied, stored or followed
        up (under the lock): the game may be half-changed, so it can neither go on nor wait.
        It ends as void (status over in the lobby and the store, the record stored, game_over
        to everyone at the table). The reason names the error's type only: no internals."""
        log.error("table %s: seat %s's move failed; voiding the game", self.id, seat.index,
                  exc_info=exc)
        game = self.game
        assert game is not None
        try:
            if not game.over:
                await self._void(f"internal error: the server failed on {seat.name}'s move "
                                 f"({type(exc).__name__})")
            elif self.status != "over":  # the move ended the game; what followed failed
                await self._finish()
        except Exception:  # noqa: BLE001 - nothing more to do here than say so
            log.exception("table %s: closing the failed game failed", self.id)
            self.status = "over"
            self.done.set()

    async def _commit(self, seat: Seat, events: list[Event], turn: int | None,
                      decision: Decision | None) -> None:
        """Store the action just made and its events, then tell everyone and go on."""
        game = self.game
        assert game is not None and self.game_id is not None
        record = game.last_action()
        assert record is not None  # the game just recorded it
        await self._store(self.store.action_rows(
            self.game_id, game.step - 1, record, events, turn=turn,
            # A scripted bot's usage is its latency, already in the action's own column.
            usage=decision.usage() if decision and not seat.bot.never_awaits else None,
            raw_output=decision.raw_output if decision else None,
            transcript=decision.transcript if decision else None))
        self._end_turn(seat)
        if record.fatal:
            seat.status = "forfeit"
        if self._archive is not None:  # the store has every event: the game keeps a window
            game.forget_old(self._archive, EVENTS_KEPT)
        if game.over:
            await self._broadcast(events, self._turns_due())
            await self._finish()
        else:
            with self.holding():  # nothing in here waits: each recipient gets one write
                await self._broadcast(events, self._turns_due())
                await self._dispatch()

    async def abort(self, reason: str, seat: Seat | None = None, status: str | None = None
                    ) -> None:
        """End the game as void: the server's failures (provider errors, a crashed bot task,
        shutdown). A person who gives up forfeits instead (`forfeit`)."""
        async with self._lock:
            if self.game is None or self.game.over:
                return
            if seat is not None and status is not None:
                seat.status = status
            await self._void(reason)

    async def _void(self, reason: str) -> None:
        assert self.game is not None
        events = self.game.abort(reason)
        try:
            if self.game_id is not None:
                await self._store(Rows(events=event_rows(self.game_id, events)))
            await self._broadcast(events)
        except Exception:  # noqa: BLE001 - a game voided for a failure must still be closed
            log.exception("table %s: storing or showing the void game's last events failed",
                          self.id)
        await self._finish()

    async def forfeit(self, seat: Seat, status: str, reason: str,
                      still: Callable[[], bool] | None = None) -> None:
        """A person gives up: left the game (`resigned`), did not come back within the grace
        (`disconnected`), or ran out of time under a `void` timeout policy (`timeout`). The
        game ends at once as a forfeit by that seat (`Game.resign`: its side loses, and the game
        is rated), or as void when no person has moved yet (bots move at once, and a person must
        not lose for leaving before their first decision). `reason` completes a sentence about
        the seat ("left the game"); `still()`, checked under the table's lock, says whether the
        cause still holds (a turn answered, a person back in the meantime)."""
        if self._opening is not None and not self._opening.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(self._opening)
        async with self._lock:
            game = self.game
            if game is None or game.over or (still is not None and not still()):
                return
            seat.status = status
            if self.game_id is None or not self._a_person_moved(game):
                await self._void(f"{seat.name} {reason} before any person moved")
                return
            events = game.resign(seat.index, reason)
            await self._commit(seat, events, None, None)

    def _a_person_moved(self, game: Game) -> bool:
        people = {seat.index for seat in self.seats if seat.bot is None}
        return any(action.seat in people for action in game.actions)

    async def _store(self, rows: Rows) -> None:
        """Commit rows before anyone is told about them, or keep them for the game's end."""
        if self._unwritten is not None:
            self._unwritten.extend(rows)
        else:
            await self.store.write_rows(rows)

    async def _dispatch(self) -> None:
        """Ask every pending seat for its decision: turns for people, tasks for bots."""
        game = self.game
        assert game is not None
        loop = asyncio.get_running_loop()
        scripted_due = False
        for index in sorted(game.pending()):
            seat = self.seats[index]
            if seat.bot is not None:
                if seat.bot.never_awaits:
                    scripted_due = True
                elif seat.task is None or seat.task.done():
                    seat.task = loop.create_task(self._drive_bots(
                        lambda seat=seat: [seat] if seat.index in game.pending() else [],
                        f"seat {index}"), name=f"bot-{self.id}-{index}")
            elif seat.turn is None:
                self._turns[index] += 1
                seat.turn = self._turns[index]
                seat.turn_issued = loop.time()
                tick = game.pace(index)
                seat.deadline = loop.time() + (self.options.turn_timeout if tick is None
                                               else tick)
                seat.turn_timer = loop.call_at(seat.deadline, self._deadline_passed, seat,
                                               seat.turn, tick is not None)
                await self.send_turn(seat)
        if scripted_due and (self._scripted is None or self._scripted.done()):
            self._scripted = loop.create_task(self._drive_bots(self._scripted_due, "bots"),
                                              name=f"bots-{self.id}")

    def _scripted_due(self) -> list[Seat]:
        """The bot seats awaited now whose bots never await: one task decides for all of them,
        one after another (a task per decision cost more than the decision)."""
        assert self.game is not None
        return [seat for i in sorted(self.game.pending())
                if (seat := self.seats[i]).bot is not None and seat.bot.never_awaits]

    async def send_turn(self, seat: Seat) -> None:
        if seat.player is None or seat.turn is None:
            return
        wall_deadline = time.time() + max(0.0, (seat.deadline or 0) -
                                          asyncio.get_running_loop().time())
        msg = outbound.turn_message(self, seat.index, seat.turn, wall_deadline)
        for conn in list(seat.player.conns):
            await _safe_send(conn, msg)

    async def _drive_bots(self, due: Callable[[], list[Seat]], what: str) -> None:
        """Decide for the bot seats `due()` names for as long as the game awaits any of them.
        The env may ask the same seats again straight away (the next round, a retry after an
        invalid move); `_dispatch` then sees this task still running and leaves those decisions
        to this loop. Yields to the loop every few decisions, so that a game of bots that never
        await does not hold up every other table."""
        game = self.game
        assert game is not None
        decided = 0
        try:
            while not game.over and (seats := due()):
                for seat in seats:
                    if game.over or seat.index not in game.pending():
                        continue
                    if not await self._bot_turn(seat):
                        return
                    decided += 1
                    if decided % YIELD_EVERY == 0:
                        await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a bug here must void the game, not stall it
            log.exception("table %s: driving %s crashed", self.id, what)
            try:
                await self.abort(f"internal error driving {what}: {exc}"[:500])
            except Exception:  # noqa: BLE001 - logged; the task must end quietly
                log.exception("table %s: voiding the game after the crash failed", self.id)

    async def _decide_scripted(self, seat: Seat, view: dict[str, Any], legal: dict[str, Any]
                               ) -> Decision:
        """A decision of a bot that never awaits: on the loop while the seat's decisions are
        quick; once one took longer than `offload_after`, in a worker thread from then on, so
        that a slow bot cannot freeze the other tables (the thread still shares the GIL, but
        the loop gets it back every few ms)."""
        assert seat.bot is not None
        decide = seat.bot.decide(view, legal, seat.memory)
        if seat.index in self._offloaded:
            return await asyncio.to_thread(_finish_coroutine, decide)
        started = time.perf_counter()
        decision = await decide
        if time.perf_counter() - started > self.options.offload_after:
            self._offloaded.add(seat.index)
        return decision

    async def _bot_turn(self, seat: Seat) -> bool:
        """One decision of a bot seat; False when the game was voided instead."""
        game = self.game
        assert game is not None and seat.bot is not None
        view, legal = game.view(seat.index), game.legal(seat.index).to_json()
        policy = self.options.on_bot_failure
        attempts = 1 + (self.options.bot_retries if policy == "wait" else 0)
        for attempt in range(attempts):
            try:
                if seat.bot.never_awaits:
                    decision = await self._decide_scripted(seat, view, legal)
                else:
                    async with asyncio.timeout(self.options.bot_timeout):
                        decision = await seat.bot.decide(view, legal, seat.memory)
                break
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - any bot failure is a provider failure
                reason = f"{seat.identity} failed: {type(exc).__name__}: {exc}"[:500]
                assert self.game_id is not None
                seat.failed_calls += 1
                await self.store.record_bot_failure(self.game_id, seat.index, game.step, reason,
                                                    policy, getattr(exc, "transcript", None))
                if attempt + 1 < attempts:
                    await asyncio.sleep(self.options.bot_retry_delay)
                    continue
                if policy == "default" and await self.submit_default(
                        seat, f"provider_error: {reason}"):
                    return True
                await self.abort(reason, seat, "provider_error")
                return False
        if game.over or seat.index not in game.pending():
            return True
        try:
            await self.submit(seat, decision.action, decision=decision)
        except Exception as exc:  # noqa: BLE001 - the table must survive any bot mishap
            await self.abort(f"{seat.identity} action failed: {exc}"[:500], seat,
                             "provider_error")
            return False
        return True

    # -- timers: a table never waits forever on a person ---------------------------------------
    def _end_turn(self, seat: Seat) -> None:
        seat.turn = None
        if seat.turn_timer is not None:
            seat.turn_timer.cancel()
            seat.turn_timer = None

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _deadline_passed(self, seat: Seat, turn: int, paced: bool = False) -> None:
        if seat.turn == turn and self.game is not None and not self.game.over:
            # A paced decision (a real-time step) is not a timeout: the default move is made
            # and the game goes on, whatever the table's timeout policy.
            self._spawn(self.submit_default(seat, "tick") if paced
                        else self._timed_out(seat, turn))

    def _grace_passed(self, seat: Seat) -> None:
        if seat.disconnected_since is not None and self.game is not None and not self.game.over:
            self._spawn(self.forfeit(seat, "disconnected", "disconnected and did not come back",
                                     lambda: seat.disconnected_since is not None))

    def disconnected(self, seat: Seat) -> None:
        """The seat's person has no open connection: after `disconnect_grace` the seat forfeits
        (an outstanding turn keeps its own deadline meanwhile). `return_by` tells the table
        when (wall clock); the caller broadcasts the table."""
        if self.status not in ("starting", "playing") or seat.disconnected_since is not None:
            return
        loop = asyncio.get_running_loop()
        grace = self.options.disconnect_grace
        seat.disconnected_since = loop.time()
        seat.return_by = time.time() + grace
        seat.grace_timer = loop.call_at(seat.disconnected_since + grace, self._grace_passed, seat)

    def reconnected(self, seat: Seat) -> bool:
        """The seat's person is back: the grace ends. True if they were away (the caller then
        broadcasts the table)."""
        away = seat.disconnected_since is not None
        seat.disconnected_since = seat.return_by = None
        if seat.grace_timer is not None:
            seat.grace_timer.cancel()
            seat.grace_timer = None
        return away

    async def _timed_out(self, seat: Seat, turn: int) -> None:
        """A person's decision is overdue: by the table's policy (the env's rule unless the host
        chose) the default move is made and the game goes on, or (`void`, or an env without a
        default move) the seat forfeits — the game is void only if no person has moved yet."""
        policy = self.options.on_timeout or self.env.on_timeout
        if policy == "default" and await self.submit_default(seat, "timeout"):
            return
        await self.forfeit(seat, "timeout", "ran out of time", lambda: seat.turn == turn)

    async def _finish(self) -> None:
        game = self.game
        assert game is not None and game.result is not None and self.game_id is not None
        self.status = "over"
        self._stop_telling_spectators()
        for seat in self.seats:
            seat.turn = None
            seat.disconnected_since = seat.return_by = None  # no grace after the end
            seat.cancel_timers()
        record = game.record()
        metrics = self.env.game_metrics(record)
        for seat in self.seats:  # what each bot seat cost, beside the paper's metrics
            if seat.usage:
                metrics["seats"][str(seat.index)]["usage"] = dict(seat.usage)
        count_defaulted_moves(record, metrics)
        identities = [s.identity for s in self.seats]
        result = game.result
        scheme = self.env.rating
        plan = ratings.plan(scheme, result, identities)

        def rate(current: Mapping[str, ratings.Rating]) -> dict[str, ratings.Change]:
            # Runs inside the store's transaction: the prior is never stale.
            return ratings.rate(scheme, result, identities, current)

        unrated, kept = self._unrated(plan)
        if unrated is not None and plan.unrated is None and not result.void:  # the host's rule
            metrics["unrated"] = unrated
        statuses = {s.index: s.status for s in self.seats}
        applied = await self.store.finish_game(self.game_id, record=record, statuses=statuses,
                                               metrics=metrics, identities=identities,
                                               rate=None if unrated else rate,
                                               scheme=plan.league or "trueskill",
                                               unrated=kept, unwritten=self._unwritten)
        self._unwritten = None
        changes = ratings.per_seat(applied, identities)
        # After the end the result is public; the seed and the hidden setup stay out of the log.
        log.info("table %s: game %s %s: %s", self.id, self.game_id,
                 "void" if result.void else "finished", result.reason)
        self.game_over_message = outbound.game_over_message(self, metrics, statuses, changes,
                                                            unrated, None if unrated else plan)
        with self.holding():
            for conn, _ in self.recipients():
                await _safe_send(conn, self.game_over_message)
            await self.broadcast_table()
        await self._debrief()
        for task in [s.task for s in self.seats] + [self._scripted]:
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        for seat in self.seats:
            close = getattr(seat.bot, "aclose", None)
            if close is not None:
                try:
                    await close()
                except Exception:  # noqa: BLE001 - closing is best effort
                    pass
        self.done.set()

    async def _debrief(self) -> None:
        """Once everyone has the result: bots that hold an interview (an LLM seat with
        interview=on) answer its questions on their seat's last view, stored with the game. A
        failed call loses those answers, never the game."""
        game = self.game
        assert game is not None and self.game_id is not None
        for seat in self.seats:
            debrief = getattr(seat.bot, "debrief", None)
            if debrief is None:
                continue
            try:
                async with asyncio.timeout(self.options.bot_timeout):
                    decision = await debrief(game.view(seat.index), seat.memory)
            except Exception as e:  # noqa: BLE001 - the provider failed after the game
                log.warning("table %s: seat %s gave no debrief: %s", self.id, seat.index, e)
                continue
            if decision is not None:
                await self.store.record_debrief(self.game_id, seat.index, decision.transcript,
                                                decision.usage())

    def _turns_due(self) -> frozenset[int]:
        """The people's seats `_dispatch` is about to send a new turn (with their view)."""
        game = self.game
        assert game is not None
        if game.over:
            return frozenset()
        return frozenset(i for i in game.pending() if (seat := self.seats[i]).bot is None
                         and seat.turn is None and seat.player is not None)

    async def _broadcast(self, events: list[Event], turns: frozenset[int] = frozenset()
                         ) -> None:
        """`turns`: seats sent their turn straight after, which carries their view and text:
        their event messages leave those out."""
        if not events:
            return
        # One message per seat (spectators share one); None: the seat may see none of these
        # events, so it is sent nothing, not even that something happened.
        message_for = outbound.events_messages(self, events, turns)
        for conn, seat in self.recipients():
            msg = message_for(seat)
            if msg is not None:
                await _safe_send(conn, msg)

    def _unrated(self, plan: ratings.Plan) -> tuple[str | None, str | None]:
        """Why this game is not rated, in words ("not rated: …"), as its players are told and
        as the store keeps it for the leaderboard, which anyone may read (so without whose
        address was shared); (None, None) if it is rated."""
        game = self.game
        assert game is not None and game.result is not None
        if game.result.void:
            why = game.result.reason
            said = f"{ratings.VOID} ({why})" if why else ratings.VOID
        elif not self.options.rated:
            said = "not rated: this table's games leave the ratings alone (a league rates them)"
        elif plan.unrated is not None:
            said = f"not rated: {plan.unrated}"
        elif (shared := self._shared_address()) is not None:
            return shared, ratings.SAME_ADDRESS
        else:
            return None, None
        return said, said

    def _shared_address(self) -> str | None:
        """Why this game goes unrated, if the host asked (`unrated_same_address`) and two of
        its people said hello from one address: None otherwise."""
        if not self.options.unrated_same_address:
            return None
        people = [s.player for s in self.seats if s.player is not None]
        for i, a in enumerate(people):
            for b in people[i + 1:]:
                if a is not b and a.addresses & b.addresses:
                    return (f"not rated: {a.name} and {b.name} connected from the same "
                            f"address")
        return None

    async def close(self, reason: str = "server shut down") -> None:
        """Server shutdown, or the host closing the table: void a game under way (one still
        starting too) and stop timers."""
        if self._opening is not None and not self._opening.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._opening), 5.0)
        if self.game_id is not None and self.game is not None and not self.game.over:
            await self.abort(reason)
        self._stop_telling_spectators()
        for task in list(self._tasks):
            task.cancel()


def _finish_coroutine(coroutine: Any) -> Any:
    """Run a coroutine that never awaits (a scripted bot's decision) to its end, in this
    thread, without a loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("a bot that never awaits awaited")


async def _safe_send(conn: Recipient, msg: Mapping[str, Any]) -> None:
    """A recipient that has gone away must never break the table."""
    try:
        await conn.send(msg)
    except Exception:  # noqa: BLE001
        pass


def count_defaulted_moves(record: GameRecord, metrics: dict[str, Any]) -> None:
    """Add to each seat's metrics the moves the table made for it while it stalled
    (`defaulted_moves`, absent when none): reports may leave such games out."""
    for a in record.actions:
        if a.outcome == "defaulted":
            seat_metrics = metrics["seats"][str(a.seat)]
            seat_metrics["defaulted_moves"] = seat_metrics.get("defaulted_moves", 0) + 1
