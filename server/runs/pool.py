"""A pool of worker processes for a headless run (`parlor sim --workers`, a league's
`--workers`): started fresh ("spawn": forking a process that may run threads or an event loop is
unsafe), each with a pipe for its outcome and a slot of shared counts for the progress line; the
parent waits for them all, drawing the line. Ctrl-c reaches the parent only (workers inherit
SIGINT ignored), which sets `stop`: the workers void their games in flight and end; one still
running STOP_GRACE s later is killed, as is every worker when one fails."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from server.runs.progress import Progress

STOP_GRACE = 10.0  # seconds stopping workers get to void their games before they are killed
Outcome = tuple[str, Any]  # ("done", value) | ("stopped" | "usage" | "error", message)


@dataclass
class Worker:
    index: int
    proc: BaseProcess
    results: Connection
    outcome: Outcome | None = None

    def poll(self) -> bool:
        """Take the worker's outcome if it has sent it (or died without); True once it has."""
        if self.outcome is None:
            if self.results.poll():
                try:
                    self.outcome = self.results.recv()
                except EOFError:
                    self.proc.join()
                    self.outcome = ("error", f"exited with status {self.proc.exitcode} "
                                             "without a result")
            elif not self.proc.is_alive():
                self.outcome = ("error", f"exited with status {self.proc.exitcode}")
        return self.outcome is not None

    def kill(self) -> None:
        self.proc.terminate()
        self.proc.join()
        if self.outcome is None:
            self.outcome = ("stopped", f"killed after {STOP_GRACE:g} s")


def start(ctx: Any, target: Callable[..., None], jobs: Sequence[Any], counts: Any, stop: Any,
          name: str) -> list[Worker]:
    """One process per job running `target(job, counts, stop, sender)`; each job has an
    `index`. The worker sends its Outcome on `sender` before it ends."""
    # Workers inherit SIGINT ignored (a new interpreter keeps an ignored SIGINT ignored), so a
    # ctrl-c at the terminal, which reaches the whole process group, is the parent's alone.
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    workers = []
    try:
        for job in jobs:
            results, sender = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=target, args=(job, counts, stop, sender),
                               name=f"{name}-{job.index}", daemon=True)
            proc.start()
            sender.close()  # the worker's end: EOF here if it dies without a word
            workers.append(Worker(job.index, proc, results))
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
    return workers


def _wait(workers: list[Worker], stop: Any, progress: Progress | None) -> None:
    """Until every worker has an outcome, drawing the progress line. Once a worker fails or
    `stop` is set (ctrl-c), the others are stopped; any still running STOP_GRACE s later are
    killed."""
    deadline: float | None = None
    next_draw = time.monotonic() + progress.every if progress else float("inf")
    while pending := [w for w in workers if not w.poll()]:
        now = time.monotonic()
        failed = any(w.outcome and w.outcome[0] != "done" for w in workers)
        if deadline is None and (failed or stop.value):
            stop.value = 1
            deadline = now + STOP_GRACE
        if deadline is not None and now >= deadline:
            for w in pending:
                w.kill()
            continue
        if progress is not None and now >= next_draw:
            progress.draw()
            next_draw = now + progress.every
        wake = min(next_draw, deadline if deadline is not None else float("inf"))
        wait([w.results for w in pending] + [w.proc.sentinel for w in pending],
             timeout=None if wake == float("inf") else max(0.0, wake - now))


def kill_all(workers: list[Worker]) -> None:
    for w in workers:
        w.proc.join(timeout=1.0 if w.outcome else 0)  # one that answered is on its way out
        if w.proc.is_alive():
            w.kill()
        w.results.close()


def supervise(workers: list[Worker], stop: Any, progress: Progress | None) -> bool:
    """Wait for every worker, drawing the progress line; True after a ctrl-c."""
    try:
        _wait(workers, stop, progress)
        return False
    except KeyboardInterrupt:
        stop.value = 1
        _wait(workers, stop, progress)
        return True
    finally:
        if progress is not None:
            progress.finish()  # after ctrl-c or a failure too: how far it got


