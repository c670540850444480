"""What every bot league shares: its scheduled games are a campaign (server/runs/campaign/),
played by the campaign runner through the same table driver and store as `parlor sim`
(server.net.app.Server, Table, durability "game"; SQLite's scratch database without --db), and
read back from the store, so that a stopped league resumes: a run with the same --db plays only
the games that have no finished game there yet (found by their keys). `--plan FILE` writes the
league's manifest instead, for `parlor campaign run` (on Ray, say), whose last step is the
league's report.
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
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from bots.base import BotError
from bots.registry import BotSpecError, make_bot
from engine.core import Config, Env, Result
from server.reports.league import StoredGame
from server.runs.campaign.manifest import Manifest, ManifestError, Match
from server.runs.campaign.options import RunOptions
from server.runs.campaign.runner import RunError, open_server, play, stored_games
from server.runs.games import SCRATCH_DB
from server.store.store import Store
from server.tables.policy import BotPolicy
from server.tables.seating import split_spec

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
    except PlanWritten as e:
        print(e)
        return 0
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
    if getattr(args, "budget", None) is not None and not args.budget > 0:
        raise LeagueError(f"--budget must be more than 0 USD, got {args.budget}")
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
                      policy: BotPolicy, *, rated: bool = True,
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

    return await play_scheduled(args, tag, matches, policy, rated=rated, collect=collect)


class PlanWritten(Exception):
    """The league's manifest was written (`--plan`): nothing is played or reported."""


async def play_scheduled(args: argparse.Namespace, tag: str, matches: Sequence[Match],
                         policy: BotPolicy, *, rated: bool,
                         collect: Callable[[Store, Mapping[Match, int]], Awaitable[R]]
                         ) -> tuple[R, int]:
    """`play_league` for a league that reads its stored games itself: `collect(store, ids)`
    gets each scheduled game's stored id (finished games only), in the schedule's order,
    before the store closes, and what it returns is returned (a grid of 90,000 games streams
    their metrics from there)."""
    try:
        manifest = Manifest(tag, rated, tuple(matches), _title(args),
                            _replayable(getattr(args, "argv", None)))
    except ManifestError as e:
        raise LeagueError(str(e)) from None
    if getattr(args, "plan", None):
        try:
            manifest.write(args.plan)
        except ManifestError as e:
            raise LeagueError(str(e)) from None
        raise PlanWritten(f"{len(matches)} games planned in {args.plan} (campaign {manifest.id}); "
                      f"play them with `parlor campaign run {args.plan} --db FILE`")
    options = run_options(args)
    workers = options.workers
    with contextlib.ExitStack() as cleanup:
        db = args.db or (SCRATCH_DB if workers == 1 and options.backend == "local" else
                         os.path.join(cleanup.enter_context(  # a file to share
                             tempfile.TemporaryDirectory(prefix="parlor-league-")), "league.db"))
        try:
            server = await open_server(db, manifest, policy)
        except RunError as e:
            raise LeagueError(str(e), e.status) from None
        try:
            outcome = await play(server, db, manifest, options)
            if outcome.meter.calls and not args.quiet:
                print(f"{options.label}: {outcome.render(options.budget)}", file=sys.stderr)
            assert server.store is not None
            stored = await stored_games(server.store, manifest)
            collected = await collect(server.store, {m: stored[n] for n, m in enumerate(matches)
                                                     if n in stored})
        except RunError as e:
            raise LeagueError(str(e), e.status) from None
        finally:
            await server.stop()  # voids a game still playing after an error or ctrl-c
        return collected, outcome.played


def run_options(args: argparse.Namespace) -> RunOptions:
    """A league's command line as the runner's options."""
    return RunOptions(concurrency=args.concurrency, workers=getattr(args, "workers", 1),
                      on_bot_failure=args.on_bot_failure, budget=getattr(args, "budget", None),
                      limits=dict(getattr(args, "limit", None) or {}), quiet=args.quiet,
                      backend=getattr(args, "backend", "local"),
                      address=getattr(args, "address", None),
                      label=f"parlor {' '.join(getattr(args, 'argv', ['campaign'])[:2])}")


def _title(args: argparse.Namespace) -> str:
    argv = getattr(args, "argv", None) or []
    return f"parlor {' '.join(argv[:2])}" if argv else ""


def _replayable(argv: Sequence[str] | None) -> tuple[str, ...] | None:
    """The league's command line without the options a campaign run gives itself: what
    `parlor campaign run` calls for the report once every game is stored."""
    if not argv:
        return None
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in ("--plan", "--db", "--backend", "--address", "--budget", "--limit",
                    "--workers", "--concurrency"):
            skip = "=" not in arg
            continue
        out.append(arg)
    return tuple(out)


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

