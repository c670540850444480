"""A campaign's games shared out to N processes (`--workers N`), one core each: worker i plays
the pending games k with k % N == i through the same table driver and store as one process
(`games.Matches`), all writing to one database file under the campaign's tag, so the
parent finds them there as it finds a one-process run's. The parent voids what a killed run left
running before the workers start (a worker never does: it would void the others' games). Without
--db the file lives in a temporary folder for the run. The process pool is `server/runs/pool.py`.
Each worker publishes its LLM meter (spend, errors) in shared memory: the progress line sums
them, and a worker starts no game once the sum reaches the budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bots.llm.meter import Meter
from server.net.app import Server
from server.net.serve import tune_gc
from server.runs.campaign.manifest import Manifest, Planned
from server.runs.campaign.options import RunOptions, RunOutcome, spend_line
from server.runs.games import Matches
from server.runs.pool import Outcome, kill_all, start, supervise
from server.runs.progress import Progress
from server.store.store import Store
from server.tables.policy import BotPolicy

POLL = 0.1  # seconds between a worker's count updates (and looks for a stop request)
METER = len(Meter().snapshot())  # shared floats per worker


@dataclass(frozen=True)
class Share:
    """What a worker is told (plain, picklable values)."""

    index: int
    workers: int
    db: str
    tag: str
    campaign: str
    matches: tuple[Planned, ...]  # its share of the campaign's games
    on_bot_failure: str
    concurrency: int
    rated: bool
    budget: float | None
    limits: Mapping[str, tuple[int, int]]


def play_in_workers(db: str, manifest: Manifest, pending: Sequence[Planned],
                    workers: int, options: RunOptions, outcome: RunOutcome) -> str | None:
    """Play `pending` in `workers` processes, folding their games and meters into `outcome`;
    None when every game was played (or the budget stopped them), else why not (a worker
    failed, or the run was interrupted: "interrupted")."""
    ctx = multiprocessing.get_context("spawn")
    counts = ctx.RawArray("q", 2 * workers)  # per worker: games done, actions
    meters = ctx.RawArray("d", METER * workers)  # per worker: its meter's snapshot
    stop = ctx.RawValue("b", 0)
    shares = [Share(i, workers, db, manifest.tag, manifest.id, tuple(pending[i::workers]),
                    options.on_bot_failure, options.concurrency, manifest.rated, options.budget,
                    dict(options.limits)) for i in range(workers)]

    def meter() -> Meter:
        total = Meter()
        for i in range(workers):
            total.add(list(meters[METER * i:METER * (i + 1)]))
        return total

    progress = None if options.quiet else Progress(
        options.label, len(pending), lambda: (sum(counts[0::2]), sum(counts[1::2])),
        sys.stderr, extra=lambda: spend_line(meter(), options.budget))
    pool = start(ctx, _play_share, shares, (counts, meters), stop, options.label.replace(" ", "-"))
    try:
        interrupted = supervise(pool, stop, progress)
        outcome.played = sum(counts[0::2])
        outcome.meter.add(meter().snapshot())
        outcome.budget_reached = any(w.outcome and w.outcome[1] for w in pool)
        if interrupted:
            return "interrupted"
        failed = next((w for w in pool if w.outcome and w.outcome[0] != "done"), None)
        if failed is not None and failed.outcome is not None:
            return f"worker {failed.index} failed:\n{failed.outcome[1]}".rstrip()
        return None
    finally:
        kill_all(pool)


async def headless_server(db: str, tag: str, rated: bool,
                          limits: Mapping[str, tuple[int, int]]) -> Server:
    """A server without a socket on `db`, for a campaign's games under its tag, as a process
    that plays a share of them opens it (a `--workers` process, a Ray task): the user's own
    seat specs, the endpoint limits, the collector tuned as `parlor serve`'s. It voids nothing:
    the run's driver did."""
    server = Server(db, durability="game", instance=tag, bot_policy=BotPolicy.command_line(),
                    rated=rated)
    server.store = await Store.open(db, tag)
    tune_gc()
    server.llm_clients.endpoint_limits = dict(limits)
    return server


# -- in the worker -----------------------------------------------------------------------------
def _play_share(share: Share, shared: Any, stop: Any, results: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (inherited already; see pool.start)
    outcome: Outcome
    try:
        stopped, budget_stopped = asyncio.run(_play(share, *shared, stop))
        outcome = ("stopped", None) if stopped else ("done", budget_stopped)
    except BaseException:  # noqa: BLE001 - the parent reports it
        outcome = ("error", traceback.format_exc())
    results.send(outcome)
    results.close()


async def _play(share: Share, counts: Any, meters: Any, stop: Any) -> tuple[bool, bool]:
    """Play this worker's games; (stopped before the end: its games in flight are voided, as
    one process voids them; the budget stopped it)."""
    server = await headless_server(share.db, share.tag, share.rated, share.limits)
    meter = server.llm_clients.meter
    mine = slice(METER * share.index, METER * (share.index + 1))

    def budget_reached() -> bool:
        if share.budget is None:
            return False
        meters[mine] = meter.snapshot()
        return sum(meters[METER * i] for i in range(share.workers)) >= share.budget

    games = Matches(server, share.matches, share.on_bot_failure, campaign=share.campaign,
                    budget_reached=budget_reached)
    playing = asyncio.create_task(games.play(share.concurrency))
    parent, stopped = os.getppid(), False
    try:
        while not playing.done():
            counts[2 * share.index], counts[2 * share.index + 1] = games.counts()
            meters[mine] = meter.snapshot()
            if stop.value or os.getppid() != parent:  # asked to stop, or the parent is gone
                stopped = True
                await games.stop()  # voids the games in flight; `playing` then returns
                break
            await asyncio.wait({playing}, timeout=POLL)
        if stopped:  # the tables in flight are closing: let them end as void
            with contextlib.suppress(Exception):
                await playing
        else:
            playing.result()  # a failure in the games is this worker's failure
    finally:
        await server.stop()  # voids a game still playing
    counts[2 * share.index], counts[2 * share.index + 1] = games.counts()
    meters[mine] = meter.snapshot()
    return stopped, games.budget_stopped
