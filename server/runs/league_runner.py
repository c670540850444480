"""What every bot league shares: its scheduled games played through the same table driver and
store as `parlor sim` (server.net.app.Server, Table, durability "game"; SQLite's scratch database
without --db), and found again in the store, so that a stopped league resumes.

A league stores its games under its tag (the store's `instance`). A scheduled game is found by
its env, seed and, seat by seat, the identities of its bots; a run with the same --db plays only
the games that have no finished game there yet. Games a killed run left "running" are voided
first (the server's own recovery, for this tag only); void games are played again. One league
per database at a time: two runs of one league on one file would void each other's games.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from bots.base import BotError
from bots.registry import BotSpecError, make_bot
from engine.core import Config, Env, Result
from server.net.app import Server
from server.reports.league import StoredGame
from server.runs.games import SCRATCH_DB, Matches
from server.runs.league_workers import play_in_workers
from server.runs.progress import Progress
from server.store.store import Store
from server.tables.policy import BotPolicy
from server.tables.seating import split_spec
from server.wire import protocol as p

GameKey = tuple[str, int, tuple[str, ...]]  # (env id, seed, identity at each seat)
P = TypeVar("P")
R = TypeVar("R")


class LeagueReport(Protocol):
    @property
    def counted(self) -> int: ...  # games counted (not void), stored ones included

    def render(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


class LeagueError(Exception):
    """Bad input, said in one line; the command exits with `status` (2 unless said)."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Match:
    """One scheduled game: a table of bots, one spec per seat (or ROLE=SPEC), and its seed."""

    env_id: str
    preset: str | None
    specs: tuple[str, ...]
    seed: int
    overrides: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


def run_command(command: str, args: argparse.Namespace, plan: Callable[[argparse.Namespace], P],
                run: Callable[[argparse.Namespace, P, float], Awaitable[LeagueReport]]) -> int:
    """A league command from checked arguments to its printed report: the exit status, 0, or 2
    on bad input (one line on stderr, as the other commands)."""
    started = time.monotonic()
    try:
        checked = plan(args)
        report = asyncio.run(run(args, checked, started))
    except LeagueError as e:
        print(f"{command}: error: {e}", file=sys.stderr)
        return e.status
    print(report.render())
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_json(), indent=2) + "\n")
    if args.db:
        print(f"Stored in {args.db}.")
    if not report.counted:
        print(f"{command}: no game was counted: every game ended void (see --on-bot-failure)",
              file=sys.stderr)
        return 1
    return 0


def league_tag(env: Env, config: Config, league: str | None = None) -> str:
    """The instance name league games are stored under: one per env, rules, config (and
    `league`, when an env has more than one), so leagues on other presets (or rules) never
    pass for this one's games."""
    parts: list[Any] = [env.id, env.rules_version, config.to_json()]
    text = json.dumps(parts if league is None else [*parts, league], sort_keys=True)
    return "league-" + hashlib.sha256(text.encode()).hexdigest()[:10]


def check_run_options(args: argparse.Namespace) -> None:
    """What every league command checks first: --concurrency, --workers and the --json file's
    folder."""
    if args.concurrency < 1:
        raise LeagueError(f"--concurrency must be at least 1, got {args.concurrency}")
    if getattr(args, "workers", 1) < 1:
        raise LeagueError(f"--workers must be at least 1, got {args.workers}")
    check_json_path(args.json)


def check_models(models: Sequence[str]) -> None:
    """Each model a bot spec (a league seats no people, and seats sides itself), none twice."""
    for spec in models:
        if spec == "human":
            raise LeagueError("the league seats bots only; play people with `parlor`")
        if split_spec(spec)[0] is not None:
            raise LeagueError(f"a model is a bot spec (e.g. random), not ROLE=SPEC: {spec!r}")
    twice = sorted({spec for spec in models if list(models).count(spec) > 1})
    if twice:
        raise LeagueError(f"--models names {', '.join(twice)} more than once")


def check_json_path(path: str | None) -> None:
    if path and not Path(path).expanduser().absolute().parent.is_dir():
        raise LeagueError(f"--json {path}: its folder does not exist")


def config_overrides(pairs: Sequence[str]) -> dict[str, Any]:
    """--config KEY=VALUE pairs, values read as JSON when they are (as `parlor sim`)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise LeagueError(f"--config takes KEY=VALUE, got {pair!r}")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


async def identities(specs: Sequence[tuple[str, str]], policy: BotPolicy
                     ) -> dict[tuple[str, str], str]:
    """{(env id, spec): identity} (what its seats are stored as), building each bot once as a
    table would: an unknown spec or a missing key is bad input, found before any game."""
    out = {}
    for env_id, spec in dict.fromkeys(specs):
        try:
            bot = make_bot(spec, env_id, 0, keys=policy.keys_for(spec))
        except (BotSpecError, BotError, ValueError) as e:
            raise LeagueError(str(e)) from None
        out[env_id, spec] = bot.identity
        close = getattr(bot, "aclose", None)
        if close is not None:
            await close()
    return out


async def play_league(args: argparse.Namespace, tag: str, matches: Sequence[Match],
                      key: Callable[[Match], GameKey], policy: BotPolicy, *, rated: bool = True,
                      read: Callable[[Store, Mapping[Match, StoredGame]], Awaitable[Any]]
                      | None = None) -> tuple[dict[Match, StoredGame], int]:
    """Play the scheduled games not yet stored under `tag` in `args.db` (with
    `args.concurrency`, `args.on_bot_failure`, a progress line unless `args.quiet`); returns
    the stored games by match and how many were played now. `rated=False`: the games leave
    the database's ratings alone (a league that rates them itself). `read(store, found)` is
    awaited once every game is stored, before the store closes (without --db the games live
    only as long as it is open): a report reads there what it needs beyond the metrics."""
    async def collect(store: Store, ids: Mapping[Match, int]) -> dict[Match, StoredGame]:
        found = await load_games(store, ids)
        if read is not None:
            await read(store, found)
        return found

    return await play_scheduled(args, tag, matches, key, policy, rated=rated, collect=collect)


async def play_scheduled(args: argparse.Namespace, tag: str, matches: Sequence[Match],
                         key: Callable[[Match], GameKey], policy: BotPolicy, *, rated: bool,
                         collect: Callable[[Store, Mapping[Match, int]], Awaitable[R]]
                         ) -> tuple[R, int]:
    """`play_league` for a league that reads its stored games itself: `collect(store, ids)`
    gets each scheduled game's stored id (finished games only) before the store closes, and
    what it returns is returned (a grid of 90,000 games streams their metrics from there)."""
    workers = getattr(args, "workers", 1)
    with contextlib.ExitStack() as cleanup:
        db = args.db or (SCRATCH_DB if workers == 1 else os.path.join(  # a file to share
            cleanup.enter_context(tempfile.TemporaryDirectory(prefix="parlor-league-")),
            "league.db"))
        return await _play(args, db, tag, matches, key, policy, rated, collect, workers)


async def _play(args: argparse.Namespace, db: str, tag: str, matches: Sequence[Match],
                key: Callable[[Match], GameKey], policy: BotPolicy, rated: bool,
                collect: Callable[[Store, Mapping[Match, int]], Awaitable[R]],
                workers: int) -> tuple[R, int]:
    server = Server(db, durability="game", instance=tag, bot_policy=policy, rated=rated)
    try:
        server.store = await Store.open(db, tag)
    except (OSError, sqlite3.Error, RuntimeError) as e:  # a folder, a newer schema, ...
        raise LeagueError(f"cannot open the database {db}: {e}") from None
    progress: Progress | None = None
    drawing: asyncio.Task[None] | None = None
    try:
        await server.recover()  # void the games a killed run of this league left running
        found = _scheduled(await stored_ids(server.store, tag), matches, key)
        pending = [m for m in matches if m not in found]
        await _check_endpoints({split_spec(s)[1] for m in pending for s in m.specs})
        if found and not args.quiet:
            print(f"parlor league: {len(found)} of {len(matches)} games already stored; "
                  f"playing {len(pending)}", file=sys.stderr, flush=True)
        del found
        if workers > 1 and len(pending) > 1:
            why = await asyncio.to_thread(
                play_in_workers, db, tag, pending, min(workers, len(pending)),
                args.on_bot_failure, args.concurrency, rated, args.quiet)
            if why == "interrupted":
                raise KeyboardInterrupt
            if why is not None:
                raise LeagueError(why, 1)
        else:
            games = Matches(server, pending, args.on_bot_failure)
            if not args.quiet:
                progress = Progress("parlor league", len(pending), games.counts, sys.stderr)
                drawing = asyncio.create_task(progress.run())
            await games.play(args.concurrency)
        collected = await collect(server.store, _scheduled(await stored_ids(server.store, tag),
                                                           matches, key))
    except p.ProtocolError as e:
        raise LeagueError(e.message) from None
    finally:
        if drawing is not None:
            drawing.cancel()
        await server.stop()  # voids a game still playing after an error or ctrl-c
        if progress is not None:
            progress.finish()
    return collected, len(pending)


async def _check_endpoints(specs: set[str]) -> None:
    """Every LLM seat's key and endpoint answer (as `parlor bots check` checks them), before
    the first game; else LeagueError (status 1) naming each that failed."""
    from bots.llm.check import unreachable

    failed = await unreachable(specs)
    if failed:
        raise LeagueError("; ".join(f"{spec} cannot play: {why}" for spec, why in failed.items())
                          + "; no game was played (`parlor bots check SPEC` says more)", 1)


def _scheduled(stored: Mapping[GameKey, int], matches: Sequence[Match],
               key: Callable[[Match], GameKey]) -> dict[Match, int]:
    return {m: stored[k] for m in matches if (k := key(m)) in stored}


async def stored_ids(store: Store, tag: str) -> dict[GameKey, int]:
    """The finished games under the tag by (env, seed, seat identities): their ids, the
    latest one should there be two. Read row by row: a league may hold 90,000 games."""
    def read(conn: sqlite3.Connection) -> dict[GameKey, int]:
        where = "instance = ? AND status = 'finished'"
        seats: dict[int, list[str]] = defaultdict(list)
        names: dict[str, str] = {}  # one string per identity (a league has a few)
        for game_id, identity in conn.execute(
                f"SELECT game_id, identity FROM seats WHERE game_id IN (SELECT id FROM games "
                f"WHERE {where}) ORDER BY game_id, seat", (tag,)):
            seats[game_id].append(names.setdefault(identity, identity))
        return {(env, int(seed), tuple(seats.pop(game_id))): game_id
                for game_id, env, seed in conn.execute(
                    f"SELECT id, env, seed FROM games WHERE {where} ORDER BY id", (tag,))}

    return await store.read_with(read)


async def load_games(store: Store, ids: Mapping[Match, int]) -> dict[Match, StoredGame]:
    """Each match's stored game: its result and metrics."""
    records = await store.read_with(lambda conn: list(_records(conn, ids.values(), "result")))
    return {m: StoredGame(i, Result.from_json(json.loads(result)), metrics)
            for m, (i, result, metrics) in zip(ids, records, strict=True)}


def stored_metrics(conn: sqlite3.Connection, ids: Iterable[int]) -> Iterator[dict[str, Any]]:
    """The metrics of the games, in the order of `ids`, read a batch at a time (for
    `Store.read_with`): a league of any size reads them in flat memory."""
    for _, metrics in _records(conn, ids, None):
        yield metrics


_BATCH = 500  # games read per query (SQLite allows 32,766 parameters)


def _records(conn: sqlite3.Connection, ids: Iterable[int], columns: str | None
             ) -> Iterator[tuple[Any, ...]]:
    """(id, *columns, metrics as a dict) per game, in the order of `ids`."""
    wanted = f"id, {columns}, metrics" if columns else "id, metrics"
    batch: list[int] = []

    def read() -> Iterator[tuple[Any, ...]]:
        rows = {r[0]: tuple(r) for r in conn.execute(
            f"SELECT {wanted} FROM games WHERE id IN ({','.join('?' * len(batch))})", batch)}
        for i in batch:
            *row, metrics = rows[i]
            yield (*row, json.loads(metrics or "{}"))

    for game_id in ids:
        batch.append(game_id)
        if len(batch) == _BATCH:
            yield from read()
            batch = []
    if batch:
        yield from read()

