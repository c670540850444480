"""A campaign's games over a Ray cluster (`--backend ray`, docs/scaling.md).

The driver (this process) owns the SQLite store. It sends the pending games out in batches to
Ray tasks; a task plays its batch on a headless server of its own (its own event loop and LLM
clients, the node's API keys) into a scratch database file, and sends the file back whole. The
driver merges each returned file into its store in one transaction (server/store/merge.py,
deduplicated by game key), so a game is stored once and only when its batch has finished.

A worker killed mid-batch (its node lost, the process killed) loses that batch only: Ray runs
the task again (`MAX_RETRIES`), with the same games and table numbers, and nothing of the lost
attempt ever reached the store. Ctrl-c cancels the tasks under way; the batches merged so far
stay, and a rerun plays the rest. The budget is checked per finished batch: the driver sends no
new batch once the spend of the finished ones reaches it, and a task starts no new game once
the spend known when it was sent plus its own reaches it (the batches in flight may spend
beyond it by up to a batch each).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import math
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bots.llm.spec import is_llm_spec
from engine.registry import get
from server.net.app import Server
from server.runs.campaign.manifest import Manifest, Planned
from server.runs.campaign.options import (
    RunError,
    RunOptions,
    RunOutcome,
    reached,
    spend_line,
    unreachable_error,
)
from server.runs.campaign.workers import headless_server
from server.runs.games import Matches
from server.runs.progress import Progress, drawn
from server.runs.sim_workers import env_modules
from server.store.merge import copy_games, deserialized, rebuild_ratings
from server.wire import protocol as p

# A batch is a few seconds of a worker's time: long enough that what each costs (a scratch
# database, its transfer, the driver's merge) stays small beside its games, short enough that a
# lost batch costs little and the last batches spread over every core. Its size follows the
# games per second the finished batches played; before any has finished, a batch is
# `concurrency` games (LLM games take seconds each, scripted ones milliseconds).
BATCH_SECONDS = 5.0
MAX_BATCH = 2000  # games: bounds a batch's database in memory (a few MB of scripted games)
TASKS_PER_CPU = 2  # batches sent per core of the cluster: one playing, one waiting its turn
MAX_RETRIES = 3  # times Ray plays a batch again after its worker died


@dataclass(frozen=True)
class Job:
    """What a task is told (plain, picklable values): the campaign and one batch of it."""

    tag: str
    campaign: str
    rated: bool
    on_bot_failure: str
    concurrency: int
    limits: Mapping[str, tuple[int, int]]
    budget: float | None
    modules: tuple[str, ...]  # to import first: envs and bots registered outside engine/, bots/
    matches: tuple[Planned, ...]
    first_table: int  # the batch's tables are numbered from first_table + 1 (driver-reserved)
    spent: float  # the run's spend when the batch was sent


@dataclass(frozen=True)
class Played:
    """What a task sends back."""

    image: bytes  # its database file (`sqlite3.Connection.serialize`)
    meter: list[float]  # its LLM calls' `Meter.snapshot()`
    games: int  # ended (void ones included)
    actions: int
    seconds: float  # playing them
    budget_stopped: bool


# -- on a worker -------------------------------------------------------------------------------
def play_batch(job: Job) -> Played:
    """A Ray task: play the batch into a fresh scratch database and return it."""
    for module in job.modules:
        importlib.import_module(module)
    with tempfile.TemporaryDirectory(prefix="parlor-ray-") as folder:
        db = os.path.join(folder, "batch.db")
        played = asyncio.run(_play(job, db))
        with contextlib.closing(sqlite3.connect(db)) as conn:
            return Played(conn.serialize(), *played)


async def _play(job: Job, db: str) -> tuple[list[float], int, int, float, bool]:
    server = await headless_server(db, job.tag, job.rated, job.limits)
    meter = server.llm_clients.meter
    try:
        assert server.store is not None
        await server.store.write(partial(_number_tables_from, job.tag, job.first_table))
        games = Matches(server, job.matches, job.on_bot_failure, campaign=job.campaign,
                        budget_reached=lambda: reached(job.spent + meter.cost, job.budget))
        started = time.perf_counter()
        await games.play(job.concurrency)
        seconds = time.perf_counter() - started
    finally:
        await server.stop()
    return meter.snapshot(), games.done, games.actions, seconds, games.budget_stopped


def check_here(specs: tuple[str, ...]) -> dict[str, str]:
    """A Ray task: the LLM seats whose key or endpoint fails from the node it runs on."""
    from bots.llm.check import unreachable

    return asyncio.run(unreachable(specs))


def _number_tables_from(tag: str, last: int, c: sqlite3.Connection) -> None:
    c.execute("INSERT INTO table_numbers (instance, last) VALUES (?, ?)", (tag, last))


# -- on the driver -----------------------------------------------------------------------------
async def play_on_ray(server: Server, manifest: Manifest, pending: Sequence[Planned],
                      specs: set[str], options: RunOptions, outcome: RunOutcome) -> None:
    """Play `pending` on the cluster at `options.address` (or a Ray started here for the run),
    merging each finished batch into the server's store; fold the games and their meters into
    `outcome`. The LLM seats among `specs` are checked first on a node of the cluster (the
    keys are there, not necessarily here)."""
    try:
        import ray
    except ImportError:
        raise RunError("--backend ray needs Ray: pip install 'parlor[ray]'") from None
    started = _connect(ray, options.address)
    try:
        llm = tuple(sorted(s for s in specs if is_llm_spec(s)))
        if llm:
            check = ray.remote(num_cpus=1)(check_here).remote(llm)
            failed = await asyncio.wrap_future(check.future())
            if failed:
                raise unreachable_error(failed)
        await _Driver(ray, server, manifest, pending, options, outcome).run()
    finally:
        if started:
            ray.shutdown()


def _connect(ray: Any, address: str | None) -> bool:
    """Join the cluster (or the Ray this process already runs); True if this run started one."""
    if ray.is_initialized():
        return False
    quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
    try:
        if address:
            ray.init(address=address, **quiet)
            return False
        ray.init(num_cpus=os.cpu_count(), include_dashboard=False, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise RunError(f"cannot join the Ray cluster{' at ' + address if address else ''}: "
                       f"{e}") from None
    return True


@dataclass
class _Driver:
    ray: Any
    server: Server
    manifest: Manifest
    pending: Sequence[Planned]
    options: RunOptions
    outcome: RunOutcome
    done: int = 0  # games of merged batches
    actions: int = 0
    rate: tuple[int, float] = (0, 0.0)  # games and seconds of the finished batches, per task
    envs: set[str] = field(default_factory=set)  # of the games merged

    async def run(self) -> None:
        options, meter = self.options, self.outcome.meter
        task = self.ray.remote(num_cpus=1, max_retries=MAX_RETRIES)(play_batch)
        envs = {match.env_id for _, _, match in self.pending}
        modules = tuple(sorted({m for env in envs for m in env_modules(get(env))}))
        progress = None if options.quiet else Progress(
            options.label, len(self.pending), lambda: (self.done, self.actions), sys.stderr,
            extra=lambda: spend_line(meter, options.budget))
        sent = 0
        flying: dict[asyncio.Future[Any], Any] = {}  # the result's future -> its task's ref
        try:
            async with drawn(progress):
                while True:
                    slots = self._slots()  # nodes may join or leave
                    while len(flying) < slots and sent < len(self.pending):
                        if reached(meter.cost, options.budget):
                            self.outcome.budget_reached = True
                            break
                        batch = tuple(self.pending[sent:sent + self._size(slots - len(flying),
                                                                          len(self.pending) - sent)])
                        sent += len(batch)
                        ref = task.remote(await self._job(batch, modules, meter.cost))
                        flying[asyncio.wrap_future(ref.future())] = ref
                    if not flying:
                        break
                    finished, _ = await asyncio.wait(flying, return_when=asyncio.FIRST_COMPLETED)
                    for future in finished:
                        del flying[future]
                        await self._merge(self._result(future))
        finally:
            for ref in flying.values():  # ctrl-c, a failure: nothing more comes in
                self.ray.cancel(ref, force=True)
            for future in flying:
                future.cancel()
            self.outcome.played = self.done
            if self.manifest.rated and self.envs:
                # Merged games carry no ratings: rated once now, as `parlor ratings rebuild`.
                assert self.server.store is not None
                envs = sorted(self.envs)
                await self.server.store.write(lambda c: rebuild_ratings(c, envs))

    def _slots(self) -> int:
        return TASKS_PER_CPU * max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def _size(self, free: int, left: int) -> int:
        """The next batch's size: BATCH_SECONDS of a task's games at the rate seen so far, and
        no more than an even share of what is left among the free slots."""
        games, seconds = self.rate
        size = (games / seconds * BATCH_SECONDS) if games and seconds > 0 else 0
        size = min(MAX_BATCH, max(self.options.concurrency, round(size)))
        return max(1, min(size, math.ceil(left / max(1, free))))

    async def _job(self, batch: tuple[Planned, ...], modules: tuple[str, ...],
                   spent: float) -> Job:
        """The batch's task, its table numbers reserved in the store first (so the merged
        games keep distinct table ids, and a replayed batch the same ones)."""
        assert self.server.store is not None
        tag, n = self.manifest.tag, len(batch)
        last = await self.server.store.write(lambda c: c.execute(
            "INSERT INTO table_numbers (instance, last) VALUES (?, ?) ON CONFLICT (instance) "
            "DO UPDATE SET last = last + excluded.last RETURNING last", (tag, n)).fetchone()[0])
        o = self.options
        return Job(tag, self.manifest.id, self.manifest.rated, o.on_bot_failure, o.concurrency,
                   dict(o.limits), o.budget, modules, batch, last - n, spent)

    def _result(self, future: asyncio.Future[Any]) -> Played:
        exceptions = self.ray.exceptions
        try:
            return future.result()
        except exceptions.RayTaskError as e:  # the batch's code raised
            if isinstance(e.cause, p.ProtocolError):  # a game's table refused its config
                raise e.cause from None
            raise RunError(f"a batch failed on the cluster:\n{e}", 1) from None
        except exceptions.WorkerCrashedError:
            raise RunError(f"a batch's worker died {MAX_RETRIES + 1} times (Ray replays a "
                           f"batch whose worker dies); nothing of that batch was stored", 1
                           ) from None
        except exceptions.RayError as e:  # a node lost, out of memory, ...
            raise RunError(f"the cluster failed a batch: {e}", 1) from None

    async def _merge(self, played: Played) -> None:
        assert self.server.store is not None
        source = deserialized(played.image)
        try:
            counts = await self.server.store.write(partial(copy_games, source))
        finally:
            source.close()
        self.envs |= counts.envs
        self.done += played.games
        self.actions += played.actions
        self.outcome.meter.add(played.meter)
        self.outcome.budget_reached |= played.budget_stopped
        games, seconds = self.rate
        self.rate = (games + played.games, seconds + played.seconds)
