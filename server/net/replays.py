"""`replay` requests (docs/protocol.md, "Replays"): a stored game, or a live bot-only table's
game behind a delay, rebuilt once per perspective in a worker thread and kept encoded.

A perspective's build holds what every reply of it shares (env, names, jumps, extras...) and
each frame as compressed JSON; a reply is the shared part and the one frame asked for. Builds are
kept in an LRU cache bounded by their bytes; requests for a build under way wait for it rather
than start another. A live table's game is rebuilt from the table's own game (memory, and the
store for what the game let go of) cut at (actions so far - delay): nothing later is read."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import sqlite3
import threading
import zlib
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from typing import Any

import cachetools
import orjson

from server.replays.extras import extras_for
from server.replays.replay import (
    FORMAT,
    VERSION,
    Frame,
    Replay,
    ReplayError,
    ReplayMismatch,
    Rewinder,
)
from server.store.store import Store, action_transcripts
from server.tables.table import Table
from server.wire import protocol as p

CACHE_BYTES = 256 * 1024 * 1024  # encoded frames kept over all builds (docs/replays.md)
MAX_FRAME_BYTES = 768 * 1024  # a frame's JSON, under the TUI's 1 MiB per message (tui/client.py)
COMPRESSION = 1  # zlib's fastest: a long SocialGrid game's frames kept in a fifth of the bytes
REBUILDS = 2  # rebuilds at once (each takes a core; one of a 9,000-action SocialGrid game
# from everywhere holds ~140 MB while it runs: benchmarks/replay_cache.py); others wait
BEFORE_LINES = 200  # a frame carries the lines and events of the frames before it, whole frames
BEFORE_EVENTS = 100  # back to about this many (the transcript without a request per frame)
TICKS = ("step", "timestep")  # clock counters that move every action: not a place to jump to


@dataclasses.dataclass(frozen=True)
class Build:
    """One perspective of one game: the reply's shared fields and each frame encoded and
    compressed; or, for a game that cannot be shown, the error every request for it gets
    (code, message: its rebuild's mismatch, say). The omniscient perspective keeps its frames
    without views and makes each view when asked (`rewinder`): a long SocialGrid game's seven
    views a frame are nearly all of its rebuild time, and few frames are ever looked at."""

    header: Mapping[str, Any]
    frames: tuple[bytes, ...] = ()
    refusal: tuple[str, str] | None = None
    rewinder: Rewinder | None = None
    seen: tuple[tuple[list[str], list[dict[str, Any]]], ...] = ()  # each frame's lines, events
    _turn: threading.Lock = dataclasses.field(default_factory=threading.Lock)

    @functools.cached_property
    def size(self) -> int:
        """About the bytes kept: the compressed frames, the header, and the lines and events
        each frame keeps plain (as their JSON's bytes)."""
        return (sum(map(len, self.frames)) + len(p.encode_bytes(self.header)) + 200
                + sum(len(p.encode_bytes(lines)) + len(p.encode_bytes(events))
                      for lines, events in self.seen))

    def frame(self, at: int) -> dict[str, Any]:
        """Frame `at` (past the end: the last) as the wire carries it; slow if its view is
        made now, so called in a worker thread."""
        frame = orjson.loads(zlib.decompress(self.frames[min(at, len(self.frames) - 1)]))
        frame["before"] = self._before(frame["at"])
        if self.rewinder is not None:
            with self._turn:  # the rewinder's game is one cursor
                frame["view"] = self.rewinder.view(frame["index"])
            frame = orjson.loads(_encoded(frame))
        return frame

    def _before(self, at: int) -> dict[str, Any]:
        """The lines and events of the frames before `at`, whole frames back from it to about
        BEFORE_LINES lines or BEFORE_EVENTS events; `from`: the first frame they hold."""
        start, lines, events = at, 0, 0
        while start > 0 and lines < BEFORE_LINES and events < BEFORE_EVENTS:
            start -= 1
            lines += len(self.seen[start][0])
            events += len(self.seen[start][1])
        return {"from": start, "lines": [x for f in self.seen[start:at] for x in f[0]],
                "events": [e for f in self.seen[start:at] for e in f[1]]}

    async def reply(self, ref: Any, at: int, game_id: int | None, table_id: str | None
                    ) -> dict[str, Any]:
        """The reply for position `at` to a request that named `game_id` or `table_id` (one
        build answers both)."""
        if self.refusal is not None:
            raise p.ProtocolError(*self.refusal, ref)
        frame = (await asyncio.to_thread(self.frame, at) if self.rewinder is not None
                 else self.frame(at))
        return p.message("replay", ref, game_id=game_id, table_id=table_id, **self.header,
                         frame=frame)


def jump_label(clock: Mapping[str, Any]) -> str:
    """A clock as a short place name: its counters then its words ("meeting 1 vote",
    "day 2 night", "round 3"), ticks and words that repeat a counter ("day 1 round 2", not
    "... day") left out."""
    counted = {k: v for k, v in clock.items() if k not in TICKS and isinstance(v, int)}
    words = [str(v) for k, v in clock.items()
             if k not in TICKS and k not in counted and str(v) not in counted]
    return " ".join([f"{k} {v}" for k, v in counted.items()] + words) or "start"


def _jumps(frames: Sequence[Frame]) -> list[dict[str, Any]]:
    """The positions where the clock (ticks aside) changes: frame 0, then each new round,
    phase, meeting or vote as this perspective's frames show it."""
    jumps: list[dict[str, Any]] = []
    last: dict[str, Any] | None = None
    for at, f in enumerate(frames):
        place = {k: v for k, v in f.clock.items() if k not in TICKS}
        if place != last:
            jumps.append({"at": at, "clock": dict(f.clock), "label": jump_label(f.clock)})
            last = place
    return jumps


def _decision(frame: Frame) -> dict[str, Any] | None:
    d = frame.decision
    if d is None:
        return None
    return {"seat": d.seat, "kind": d.kind, "raw": d.raw, "outcome": d.outcome, "error": d.error,
            "raw_output": d.raw_output, "transcript": d.transcript,
            "usage": dict(d.usage) if d.usage is not None else None,
            "latency_ms": d.latency_ms, "think_seconds": d.think_seconds}


def _frames(frames: Sequence[Frame], seat: int | None
            ) -> tuple[tuple[bytes, ...], tuple[tuple[list[str], list[dict[str, Any]]], ...]]:
    """Each frame as the wire carries it (without `before`), and its lines and events. A
    seat's events are numbered as the seat counts them (its seen events before; `step` = the
    position), without their recipients, and its frames carry no action index: the engine's
    numbers count what the seat did not see."""
    out, parts, seen = [], [], 0
    for at, f in enumerate(frames):
        events = list(f.events)
        if seat is not None:
            events = [{"seq": seen + i, "step": at, "clock": e["clock"], "type": e["type"],
                       "data": e["data"]} for i, e in enumerate(events)]
            seen += len(events)
        frame = {"at": at, "index": f.index if seat is None else None, "clock": f.clock,
                 "view": f.view, "lines": f.lines, "events": events, "decision": _decision(f)}
        out.append(zlib.compress(_encoded(frame), COMPRESSION))
        parts.append((list(f.lines), events))
    return tuple(out), tuple(parts)


def _encoded(frame: dict[str, Any]) -> bytes:
    """A frame's JSON; if too large for a client (a bot's long transcript or raw output),
    with those texts replaced by a note saying where they are whole."""
    encoded = p.encode_bytes(frame)
    size = len(encoded)
    if size <= MAX_FRAME_BYTES or frame["decision"] is None:
        return encoded
    note = (f"(left out: this step's frame is {size} bytes, more than a client reads; "
            f"`parlor replay GAME_ID --export FILE` keeps it whole)")
    frame["decision"] = frame["decision"] | {"transcript": note, "raw_output": note}
    return p.encode_bytes(frame)


def build(replay: Replay, seat: int | None, *, live: bool = False) -> Build:
    """Rebuild `replay` from `seat`'s perspective (None: omniscient): slow for a long game,
    so called in a worker thread."""
    d = replay.data
    header = {"env": replay.env.id,
              "title": replay.env.title, "rules_version": d["rules_version"],
              "preset": d.get("preset"), "names": list(replay.names), "kinds": replay.kinds,
              "players": d["players"], "seat": seat, "live": live}
    try:
        frames = replay.seen(seat) if seat is not None else replay.frames(None, views=False)
    except ReplayMismatch as e:
        return Build(header, refusal=(p.REPLAY_MISMATCH, str(e)))
    encoded, seen = _frames(frames, seat)
    return Build(header | {
        "count": len(frames), "jumps": _jumps(frames),
        "extras": extras_for(replay, seat, frames),
        "result": d.get("result"), "aborted": d.get("aborted")}, encoded,
        rewinder=replay.rewinder() if seat is None else None, seen=seen)


def game_row(conn: sqlite3.Connection, game_id: int) -> tuple[bool, int, set[str]] | None:
    """(ended, seats, the seats' identities) of a stored game, None if there is none."""
    row = conn.execute("SELECT ended IS NOT NULL FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        return None
    who = {i for (i,) in conn.execute("SELECT identity FROM seats WHERE game_id = ?",
                                     (game_id,))}
    players = conn.execute("SELECT count(*) FROM seats WHERE game_id = ?",
                           (game_id,)).fetchone()[0]
    return bool(row[0]), players, who


class Replays:
    """The server's replays: who may watch what, and the builds it keeps. `study`: only games
    the asker sat in; `omniscient_delay`: N >= 1 lets anyone watch a bot-only table's game
    omnisciently N actions behind (None: no live replays)."""

    def __init__(self, *, study: bool = False, omniscient_delay: int | None = None,
                 cache_bytes: int = CACHE_BYTES) -> None:
        if omniscient_delay is not None and omniscient_delay < 1:
            raise ValueError("omniscient_delay must be at least 1 action")
        self.study = study
        self.omniscient_delay = omniscient_delay
        self.cache: cachetools.LRUCache[Hashable, Build] = cachetools.LRUCache(
            cache_bytes, getsizeof=lambda b: b.size)
        self._building: dict[Hashable, asyncio.Future[Build]] = {}
        self._rebuilds = asyncio.Semaphore(REBUILDS)

    async def answer(self, store: Store, req: p.Request, identity: str,
                     table: Table | None) -> dict[str, Any]:
        """The `replay` reply to `req` from the player `identity` (`table`: the table its
        `table_id` names)."""
        seat, at = req.get("seat"), req.get("at", 0)
        table_id = table.id if table is not None else None
        if table is not None:
            if table.status != "over" or table.game_id is None:
                live = await self._live(store, table, seat, req.id)
                return await live.reply(req.id, at, table.game_id, table_id)
            game_id = table.game_id  # a finished table's id means its game
        else:
            game_id = req["game_id"]
        found = await store.read_with(lambda c: game_row(c, game_id))
        if found is None:
            raise p.ProtocolError(p.UNKNOWN_GAME, f"no game {game_id} on this server", req.id)
        ended, players, identities = found
        if not ended:
            raise p.ProtocolError(p.FORBIDDEN, f"game {game_id} is still being played: its "
                                               f"replay opens when it ends", req.id)
        if self.study and identity not in identities:
            raise p.ProtocolError(p.FORBIDDEN, "this server runs a study: you may watch "
                                               "only the games you played", req.id)
        _check_seat(seat, players, req.id)

        async def make() -> Build:
            async with self._rebuilds:
                try:
                    replay = await store.read_with(lambda c: Replay.from_db(c, game_id))
                except ReplayError as e:  # an env this Parlor does not have
                    return Build({}, refusal=(p.UNKNOWN_GAME, f"game {game_id}: {e}"))
                return await asyncio.to_thread(build, replay, seat)
        built = await self._shared((game_id, seat), make)
        return await built.reply(req.id, at, game_id, table_id)

    async def _live(self, store: Store, table: Table, seat: int | None, ref: Any) -> Build:
        delay = self.omniscient_delay
        if table.game is None:
            raise p.ProtocolError(p.UNKNOWN_GAME, f"table {table.id} has no game yet", ref)
        if delay is None:
            raise p.ProtocolError(p.FORBIDDEN, "a game still being played: this server shows "
                                               "no live replays (parlor serve "
                                               "--omniscient-delay N)", ref)
        if any(s.kind != "bot" for s in table.seats):
            raise p.ProtocolError(p.FORBIDDEN, "a live replay is only of a table of bots; "
                                               "this one seats a person", ref)
        if seat is not None:
            raise p.ProtocolError(p.FORBIDDEN, "a live table is watched from everywhere, "
                                               "never from a seat (leave seat out)", ref)
        shown = max(table.game.step - delay, 0)
        # One build per table at a time: a request meanwhile gets the build under way (it
        # shows fewer actions, never more).
        key = ("live", table.id, table.game_id)
        under_way = self._building.get(key)
        if under_way is not None:
            return await asyncio.shield(under_way)
        kept = self.cache.get(key + (shown,))
        if kept is not None:
            return kept
        data = await _live_data(store, table, shown)

        async def make() -> Build:
            async with self._rebuilds:
                return await asyncio.to_thread(build, Replay(data), None, live=True)
        built = await self._shared(key, make, cache=False)
        for old in [k for k in self.cache if k[:3] == key]:
            del self.cache[old]  # a live table keeps its latest build only
        self._store(key + (shown,), built)
        return built

    async def _shared(self, key: Hashable, make: Callable[[], Awaitable[Build]], *,
                      cache: bool = True) -> Build:
        """The build under `key`: kept, under way (shared), or made now."""
        kept = self.cache.get(key)
        if kept is not None:
            return kept
        under_way = self._building.get(key)
        if under_way is None:
            under_way = self._building[key] = asyncio.ensure_future(make())
            under_way.add_done_callback(lambda _: self._building.pop(key, None))
        built = await asyncio.shield(under_way)  # a caller gone does not stop the others'
        if cache:
            self._store(key, built)
        return built

    def _store(self, key: Hashable, built: Build) -> None:
        if built.size <= self.cache.maxsize:  # a build larger than the whole cache is not kept
            self.cache[key] = built


def _check_seat(seat: int | None, players: int, ref: Any) -> None:
    if seat is not None and not 0 <= seat < players:
        raise p.ProtocolError(p.BAD_SEAT, f"no seat {seat}; seats are 0..{players - 1}", ref)


async def _live_data(store: Store, table: Table, shown: int) -> dict[str, Any]:
    """A replay of `table`'s game up to action `shown` (the first `shown` actions, the events
    they made and their decisions' stored data), from the game itself (and the store for what
    it let go of): nothing after action `shown` is read."""
    game = table.game
    assert game is not None
    # Action i's events carry step i; the opening events step 0 too, so before any action
    # they are counted by dealing the game again.
    opening = len(table.env.new_game(table.config, table.seed, len(table.seats)).events)
    events = game.events_between(0, game.first_event_at(shown) if shown else opening)
    actions = [a.to_json() for a in game.actions[:shown]]
    stored: dict[int, dict[str, Any]] = {}
    if table.game_id is not None and table.options.durability == "action":
        stored = await store.read_with(lambda c: _decisions(c, table.game_id, shown))
    for i, a in enumerate(actions):
        a.update(stored.get(i, {}))
    return {"format": FORMAT, "version": VERSION, "game_id": table.game_id,
            "env": table.env.id, "rules_version": table.env.rules_version,
            "preset": table.preset, "config": table.config.to_json(), "seed": str(table.seed),
            "players": len(table.seats), "names": table.display_names(),
            "kinds": [s.kind for s in table.seats], "actions": actions,
            "events": [e.to_json() for e in events], "result": None, "aborted": None}


def _decisions(conn: sqlite3.Connection, game_id: int, stop: int) -> dict[int, dict[str, Any]]:
    """The stored decision data of a game's actions before `stop`."""
    def read(sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        cursor = conn.cursor()
        cursor.row_factory = sqlite3.Row
        return cursor.execute(sql, params).fetchall()

    transcripts = dict(action_transcripts(read, game_id))
    return {r["idx"]: {"raw_output": r["raw_output"], "transcript": transcripts.get(r["idx"]),
                       "usage": orjson.loads(r["usage"]) if r["usage"] else None,
                       "latency_ms": r["latency_ms"], "created": r["created"]}
            for r in read("SELECT idx, usage, raw_output, latency_ms, created FROM actions "
                          "WHERE game_id = ? AND idx < ?", (game_id, stop))}
