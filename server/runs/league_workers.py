"""A league's games shared out to N processes (`--workers N`), one core each: worker i plays the
pending games k with k % N == i through the same table driver and store as one process
(`games.Matches`), all writing to one database file under the league's tag, so the
parent finds them there as it finds a one-process run's. The parent voids what a killed run left
running before the workers start (a worker never does: it would void the others' games). Without
--db the file lives in a temporary folder for the run. The process pool is `server/runs/pool.py`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.net.app import Server
from server.runs.games import Matches
from server.runs.pool import Outcome, kill_all, start, supervise
from server.runs.progress import Progress
from server.store.store import Store
from server.tables.policy import BotPolicy

POLL = 0.1  # seconds between a worker's count updates (and looks for a stop request)


@dataclass(frozen=True)
class Share:
    """What a worker is told (plain, picklable values)."""

    index: int
    db: str
    tag: str
    matches: tuple[Any, ...]  # its share of the league's Match-es
    on_bot_failure: str
    concurrency: int
    rated: bool


def play_in_workers(db: str, tag: str, pending: Sequence[Any], workers: int,
                    on_bot_failure: str, concurrency: int, rated: bool, quiet: bool
                    ) -> str | None:
    """Play `pending` in `workers` processes; None when every game was played, else why not
    (a worker failed, or the run was interrupted: "interrupted")."""
    ctx = multiprocessing.get_context("spawn")
    counts = ctx.RawArray("q", 2 * workers)  # per worker: games done, actions
    stop = ctx.RawValue("b", 0)
    shares = [Share(i, db, tag, tuple(pending[i::workers]), on_bot_failure, concurrency, rated)
              for i in range(workers)]
    progress = None if quiet else Progress(
        "parlor league", len(pending), lambda: (sum(counts[0::2]), sum(counts[1::2])),
        sys.stderr)
    pool = start(ctx, _play_share, shares, counts, stop, "parlor-league")
    try:
        if supervise(pool, stop, progress):
            return "interrupted"
        failed = next((w for w in pool if w.outcome and w.outcome[0] != "done"), None)
        if failed is not None and failed.outcome is not None:
            return f"worker {failed.index} failed:\n{failed.outcome[1]}".rstrip()
        return None
    finally:
        kill_all(pool)


# -- in the worker -----------------------------------------------------------------------------
def _play_share(share: Share, counts: Any, stop: Any, results: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (inherited already; see pool.start)
    outcome: Outcome
    try:
        stopped = asyncio.run(_play(share, counts, stop))
        outcome = ("stopped", None) if stopped else ("done", None)
    except BaseException:  # noqa: BLE001 - the parent reports it
        outcome = ("error", traceback.format_exc())
    results.send(outcome)
    results.close()


async def _play(share: Share, counts: Any, stop: Any) -> bool:
    """Play this worker's games; True when it was stopped before the end (its games in
    flight are voided, as one process voids them)."""
    server = Server(share.db, durability="game", instance=share.tag,
                    bot_policy=BotPolicy.command_line(), rated=share.rated)
    server.store = await Store.open(share.db, share.tag)
    games = Matches(server, share.matches, share.on_bot_failure)
    playing = asyncio.create_task(games.play(share.concurrency))
    parent, stopped = os.getppid(), False
    try:
        while not playing.done():
            counts[2 * share.index], counts[2 * share.index + 1] = games.counts()
            if stop.value or os.getppid() != parent:  # asked to stop, or the parent is gone
                stopped = True
                playing.cancel()
                break
            await asyncio.wait({playing}, timeout=POLL)
        if not stopped:
            playing.result()  # a failure in the games is this worker's failure
    finally:
        await server.stop()  # voids a game still playing
    counts[2 * share.index], counts[2 * share.index + 1] = games.counts()
    return stopped
