"""`parlor serve --workers N`: a small supervisor for N server processes on one database.

Each worker is `python -m server.cli serve` with the same options, its own port (PORT + i) and
instance name (w1..wN, or NAME-1..NAME-N with --instance NAME), so together they use N cores
(docs/architecture.md, "More than one core"). The supervisor forwards the workers' output, each
line prefixed with its instance; prints one line with every URL once all listen; passes SIGINT
and SIGTERM on to the workers and waits for them. If a worker dies unexpectedly it stops the
others and exits non-zero, naming it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import Awaitable
from dataclasses import dataclass, field

STOP_GRACE = 30.0  # seconds workers may take to stop (they void their games) before a kill
LISTENING = re.compile(r"^Parlor server listening on (wss?://\S+)")  # from server/net/serve.py
LINE_LIMIT = 1 << 20  # longest output line read from a worker


def instance_names(instance: str | None, workers: int) -> list[str]:
    return [f"{instance}-{i}" if instance else f"w{i}" for i in range(1, workers + 1)]


def worker_argv(args: argparse.Namespace, instance: str, port: int) -> list[str]:
    """One worker's command: the same `serve` options, its own port and instance."""
    argv = [sys.executable, "-m", "server.cli", "serve", "--host", args.host, "--port",
            str(port), "--db", args.db, "--instance", instance,
            "--turn-timeout", repr(args.turn_timeout),
            "--disconnect-grace", repr(args.disconnect_grace)]
    if args.on_timeout:
        argv += ["--on-timeout", args.on_timeout]
    if getattr(args, "event_loop", "auto") != "auto":
        argv += ["--event-loop", args.event_loop]
    for option in ("allow_bots", "bots_config", "max_llm_seats", "max_llm_seats_per_hour",
                   "max_tables", "tables_per_player", "tables_per_address",
                   "names_per_address_per_hour", "forget_unused_names", "waiting_expiry",
                   "connections_per_address", "messages_per_second", "spectators_per_table",
                   "certfile", "keyfile", "study", "omniscient_delay"):
        if getattr(args, option, None) is not None:  # the host's bot policy, for every worker
            argv += [f"--{option.replace('_', '-')}", str(getattr(args, option))]
    for flag in ("invite_only", "unrated_same_address", "allow_client_seeds"):
        if getattr(args, flag, False):
            argv.append(f"--{flag.replace('_', '-')}")
    return argv


@dataclass
class Worker:
    instance: str
    port: int
    proc: asyncio.subprocess.Process
    url: asyncio.Future[str]  # from its "listening on" line
    output: asyncio.Task[None] = field(init=False)

    @classmethod
    async def start(cls, args: argparse.Namespace, instance: str, port: int) -> Worker:
        proc = await asyncio.create_subprocess_exec(
            *worker_argv(args, instance, port), stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, limit=LINE_LIMIT,
            env=os.environ | {"PYTHONUNBUFFERED": "1"})  # lines as they are written
        worker = cls(instance, port, proc, asyncio.get_running_loop().create_future())
        worker.output = asyncio.create_task(worker._forward())
        return worker

    def __str__(self) -> str:
        return f"worker {self.instance} (port {self.port}, pid {self.proc.pid})"

    async def _forward(self) -> None:
        """Copy the worker's output to ours until it closes; note its URL on the way."""
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            text = line.decode(errors="replace").rstrip("\n")
            if not self.url.done() and (found := LISTENING.search(text)):
                self.url.set_result(found.group(1))
            print(f"[{self.instance}] {text}", flush=True)

    def send_signal(self, sig: int) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)


async def _watch(workers: list[Worker], stop: asyncio.Future[int],
                 until: Awaitable[object] | None = None) -> Worker | None:
    """Wait until `until` is done (None: forever) or a stop signal came; returns a worker that
    exited first instead, if one did."""
    exits = {asyncio.ensure_future(w.proc.wait()): w for w in workers}
    waiting: set[asyncio.Future[object]] = {*exits, stop}
    if until is not None:
        waiting.add(asyncio.ensure_future(until))
    done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    for waiter in exits:
        waiter.cancel()
    return next((exits[w] for w in done if w in exits), None)


async def _start_all(args: argparse.Namespace, workers: list[Worker],
                     stop: asyncio.Future[int]) -> Worker | None:
    """Start the workers (into `workers`) and wait until all listen; a worker that died first
    is returned. The first starts alone: opening a new database migrates its schema, and two
    processes must not do that at once."""
    names = instance_names(args.instance, args.workers)
    workers.append(await Worker.start(args, names[0], args.port))
    dead = await _watch(workers, stop, workers[0].url)
    if dead or stop.done():
        return dead
    for i, name in enumerate(names[1:], 1):
        workers.append(await Worker.start(args, name, args.port + i))
    return await _watch(workers, stop, asyncio.gather(*(w.url for w in workers)))


async def _stop_all(workers: list[Worker], sig: int) -> None:
    """Signal every worker still running, wait for them (killing any that outstay
    STOP_GRACE), and for the last of their output."""
    for worker in workers:
        worker.send_signal(sig)
    try:
        await asyncio.wait_for(asyncio.gather(*(w.proc.wait() for w in workers)), STOP_GRACE)
    except TimeoutError:
        for worker in workers:
            if worker.proc.returncode is None:
                print(f"parlor serve: {worker} did not stop within {STOP_GRACE:g} s; killed",
                      flush=True)
                worker.send_signal(signal.SIGKILL)
        await asyncio.gather(*(w.proc.wait() for w in workers))
    await asyncio.gather(*(w.output for w in workers))


async def _supervise(args: argparse.Namespace) -> int:
    loop = asyncio.get_running_loop()
    stop: asyncio.Future[int] = loop.create_future()  # its result: the signal to pass on
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda s=sig: stop.done() or stop.set_result(s))
    workers: list[Worker] = []
    try:
        dead = await _start_all(args, workers, stop)
        if dead is None and not stop.done():
            urls = " ".join(w.url.result() for w in workers)
            print(f"Parlor: {len(workers)} servers listening on {urls} (instances "
                  f"{' '.join(w.instance for w in workers)}, database {args.db}); Ctrl-C stops "
                  "them all.", flush=True)
            dead = await _watch(workers, stop)
        if dead is not None:
            print(f"parlor serve: {dead} {_ended(dead.proc.returncode)} unexpectedly; stopping "
                  "the others", flush=True)
    finally:  # also when cancelled: no worker outlives the supervisor
        if not stop.done():
            stop.set_result(signal.SIGTERM)
        await _stop_all(workers, stop.result())
    failed = [w for w in workers if w.proc.returncode != 0 and w is not dead]
    for worker in failed:
        print(f"parlor serve: {worker} {_ended(worker.proc.returncode)}", flush=True)
    if dead is not None or failed:
        return 1
    print("Parlor servers stopped.", flush=True)
    return 0


def _ended(returncode: int | None) -> str:
    if returncode is not None and returncode < 0:
        return f"was killed by {signal.Signals(-returncode).name}"
    return f"exited with status {returncode}"


def run_workers(args: argparse.Namespace) -> int:
    return asyncio.run(_supervise(args))
