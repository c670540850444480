"""`parlor sim --workers N`: the games of one run shared out to N processes, one core each.

Worker i plays games k with k % N == i, seeded seed + k as in one process, through the same
table driver and store (`games.Games`), with its own --concurrency; all write to one database
file (WAL; a game is two short transactions, its row when it starts and the rest at its end,
and SQLite's busy timeout makes the other writers wait their turn). Waiting is where workers
lose time: SQLite's busy handler sleeps 1 ms or more however soon the lock is free, so a few
games in flight per worker (--concurrency 4), whose writes share group commits, go faster.
Workers are fresh interpreters (the "spawn" context: forking a process that may run threads or
an event loop is unsafe). Each worker's store is stamped with the
instance `sim{i}-{run}` (`run` is new for every run), by which the parent finds the run's games.

Each worker sends back its `Summary`; the parent merges them in worker order (rows are ranked by
game number, so they come out as one process lists them) and folds the env's aggregate from the
stored per-game metrics, streamed from the database (the aggregate does not depend on the order
of games). So the printed summary is the same for any N. Without --db the file lives in a
temporary directory deleted at the end (SQLite's private temporary database cannot be shared).

Progress: each worker publishes (games done, actions) to shared memory; the parent draws one
line from their sums. Ctrl-c reaches the parent only (workers ignore SIGINT), which tells the
workers to stop: they void their games in flight, as one process does, and the run exits 130. A
worker that fails stops the others the same way; the parent prints its error and exits 1.

Spawned workers import the parent's main module first (as multiprocessing does): a script that
calls `server.cli.main([... "--workers", "2"])` needs the `if __name__ == "__main__":` guard.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import multiprocessing
import os
import signal
import sys
import tempfile
import traceback
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from bots.registry import SCRIPTED
from engine.core import Env
from engine.registry import get
from server.runs.games import Games, Summary, run_instance
from server.runs.pool import Outcome, Worker, kill_all, start, supervise
from server.runs.progress import Progress
from server.store.store import Store
from server.wire import protocol as p

POLL = 0.1  # seconds between a worker's progress updates (and looks for a stop request)




@dataclass(frozen=True)
class _Job:
    """What a worker is told (plain, picklable values)."""

    index: int
    workers: int
    args: argparse.Namespace
    overrides: dict[str, Any]
    db: str
    instance: str
    modules: tuple[str, ...]  # imported first: what the parent registered at run time


def run_workers(args: argparse.Namespace, env: Env, overrides: dict[str, Any],
                parser: argparse.ArgumentParser) -> tuple[Summary, dict[str, Any]] | int:
    """Play the run in `args.workers` processes: the merged summary and the env's aggregate,
    or the exit status of a run that failed (1) or was interrupted (130)."""
    with contextlib.ExitStack() as cleanup:
        if args.db:
            db = os.path.abspath(args.db)
        else:
            db = os.path.join(cleanup.enter_context(
                tempfile.TemporaryDirectory(prefix="parlor-sim-")), "sim.db")
        before = asyncio.run(_prepare(db))
        instances = [run_instance(i) for i in range(args.workers)]
        ctx = multiprocessing.get_context("spawn")
        counts = ctx.RawArray("q", 2 * args.workers)  # per worker: games done, actions
        stop = ctx.RawValue("b", 0)
        progress = None if args.quiet else Progress(
            "parlor sim", args.games, lambda: (sum(counts[0::2]), sum(counts[1::2])), sys.stderr)
        jobs = [_Job(i, args.workers, args, overrides, db, instances[i], env_modules(env))
                for i in range(args.workers)]
        workers = start(ctx, _work, jobs, counts, stop, "parlor-sim")
        cleanup.callback(kill_all, workers)  # whatever happens, no worker outlives the run
        interrupted = supervise(workers, stop, progress)
        failed = next((w for w in workers if w.outcome and w.outcome[0] in ("usage", "error")),
                      None)
        if failed is not None and failed.outcome is not None:
            kind, message = failed.outcome
            if kind == "usage":
                parser.error(message)
            print(f"parlor sim: worker {failed.index} failed:\n{message}".rstrip(),
                  file=sys.stderr)
            return 1
        if interrupted:
            return 130
        return _merge(env, workers), _aggregate(env, db, instances, before, workers)


def _merge(env: Env, workers: list[Worker]) -> Summary:
    """The workers' summaries in worker order (rows are ranked by game number anyway)."""
    summary = Summary(env)
    for w in workers:
        assert w.outcome is not None and w.outcome[0] == "done"
        summary.merge(w.outcome[1])
    return summary


def _aggregate(env: Env, db: str, instances: list[str], after: int,
               workers: list[Worker]) -> dict[str, Any]:
    """The env's aggregate over the run's stored per-game metrics (void games included, as
    one process feeds them), one game at a time."""
    read = [0]

    def counted(per_game: Iterator[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
        for metrics in per_game:
            read[0] += 1
            yield metrics

    async def fold() -> dict[str, Any]:
        store = await Store.open(db)
        try:
            return env.aggregate_metrics(counted(store.run_metrics(instances, after)))
        finally:
            await store.close()

    aggregate = asyncio.run(fold())
    played = sum(w.outcome[1].games for w in workers if w.outcome)
    if read[0] != played:
        raise RuntimeError(f"{played} games played but {read[0]} found in {db}")
    return aggregate


async def _prepare(db: str) -> int:
    """Create or migrate the database once, before N workers would race to; returns the
    highest game id so far (the run's games come after it)."""
    store = await Store.open(db)
    try:
        return store.last_game_id()
    finally:
        await store.close()


def env_modules(env: Env) -> tuple[str, ...]:
    """Modules a fresh interpreter must import to know this env and its scripted bots when
    they were registered outside engine/ and bots/ (the test envs, say)."""
    found = {type(env).__module__}
    found |= {factory.__module__ for factory, _ in SCRIPTED.get(env.id, {}).values()}
    return tuple(sorted(found - {"__main__", "__mp_main__"}))


# -- in the worker -----------------------------------------------------------------------------
def _work(job: _Job, counts: Any, stop: Any, results: Connection) -> None:
    """A worker process: play its share of the games and send back its outcome."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (inherited already; see pool.start)
    outcome: Outcome
    try:
        for module in job.modules:
            importlib.import_module(module)
        summary = Summary(get(job.args.env))
        stopped = asyncio.run(_play(job, summary, counts, stop))
        outcome = ("stopped", None) if stopped else ("done", summary)
    except p.ProtocolError as e:
        outcome = ("usage", e.message)
    except BaseException:  # noqa: BLE001 - the parent reports it
        outcome = ("error", traceback.format_exc())
    results.send(outcome)
    results.close()


async def _play(job: _Job, summary: Summary, counts: Any, stop: Any) -> bool:
    """Play this worker's games; True when it was stopped before the end."""
    games = await Games.open(job.args, job.overrides, summary, db=job.db,
                             instance=job.instance,
                             numbers=range(job.index, job.args.games, job.workers))
    publishing = asyncio.create_task(_publish(games, job.index, counts, stop))
    try:
        await games.play(job.args.concurrency)
    finally:
        if not games.stopping:  # else let it finish voiding: never cut a table's abort short
            publishing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await publishing
        await games.close()
    counts[2 * job.index], counts[2 * job.index + 1] = games.counts()
    return games.stopping


async def _publish(games: Games, index: int, counts: Any, stop: Any) -> None:
    """Publish this worker's counts every POLL s; stop the games (voiding those in flight)
    when the parent asks, or when it is gone (a worker never plays on for nobody)."""
    parent = os.getppid()
    while not stop.value and os.getppid() == parent:
        counts[2 * index], counts[2 * index + 1] = games.counts()
        await asyncio.sleep(POLL)
    await games.stop()
