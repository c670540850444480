"""`parlor serve --workers N`: a supervisor of N real server processes sharing one database, each
its own port and instance; signals pass through it, and one worker dying stops them all."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from server.cli import _parser, main
from server.net.workers import worker_argv
from tests.server.conftest import Client
from tests.server.net.test_play import play_until_over, rows

READY = re.compile(r"^Parlor: \d+ servers listening on (.*) \(instances", re.MULTILINE)


def free_ports(count: int) -> int:
    """A port P such that P .. P+count-1 are all free now."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            first = s.getsockname()[1]
        if first + count > 65536:
            continue
        try:
            for port in range(first, first + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue


class Supervisor:
    """`python -m server.cli serve --workers N` with its output in a file (read, never a pipe
    that could fill up)."""

    def __init__(self, tmp: Path, db: Path, workers: int = 2) -> None:
        self.out = tmp / "supervisor.out"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "serve", "--workers", str(workers), "--port",
             str(free_ports(workers)), "--db", str(db), "--turn-timeout", "30",
             "--allow-client-seeds"],
            stdout=self.out.open("w"), stderr=subprocess.STDOUT)

    def output(self) -> str:
        return self.out.read_text()

    def wait_ready(self, limit: float = 15.0) -> list[str]:
        """The URLs of the supervisor's "listening" line, once all workers listen."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if found := READY.search(self.output()):
                return found.group(1).split()
            assert self.proc.poll() is None, f"exited {self.proc.returncode}:\n{self.output()}"
            time.sleep(0.05)
        raise AssertionError(f"workers did not listen within {limit} s:\n{self.output()}")

    def workers(self) -> dict[str, int]:
        """instance -> pid of the supervisor's children (from /proc)."""
        found = {}
        for entry in Path("/proc").iterdir():
            try:
                stat = (entry / "stat").read_text()
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except (OSError, ValueError):
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid and b"--instance" in argv:
                found[argv[argv.index(b"--instance") + 1].decode()] = int(entry.name)
        return found

    def stop(self) -> None:
        """Whatever happened: nothing left running (workers first, while they are ours)."""
        for pid in self.workers().values():
            os.kill(pid, signal.SIGKILL)
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def play_blotto(url: str, name: str, seed: int) -> tuple[str, dict]:
    client = await Client.connect(url, name)
    reply = await client.request("create_table", env="colonel-blotto", preset="small",
                                 seats=["human", "random"], seed=seed, join_seat=0)
    over = await play_until_over(client)
    await client.close()
    return reply["table"]["id"], over


async def test_two_workers_share_one_database_and_stop_cleanly_on_sigterm(tmp_path):
    db = tmp_path / "x.db"
    sup = Supervisor(tmp_path, db)
    try:
        urls = sup.wait_ready()
        assert len(urls) == 2 and len(set(urls)) == 2
        workers = sup.workers()
        assert set(workers) == {"w1", "w2"}
        games = await asyncio.gather(*(play_blotto(url, f"p{i}", i)
                                       for i, url in enumerate(urls)))
        assert [table_id.split(".")[0] for table_id, _ in games] == ["w1", "w2"]
        stored = rows(db, "SELECT instance, status FROM games ORDER BY instance")
        assert stored == [{"instance": "w1", "status": "finished"},
                          {"instance": "w2", "status": "finished"}]
        (bot,) = rows(db, "SELECT games FROM ratings WHERE identity = 'random'")
        assert bot["games"] == 2  # one shared rating, updated by both processes

        sup.proc.send_signal(signal.SIGTERM)
        assert sup.proc.wait(5) == 0, sup.output()  # 0 only when every worker returned 0
        assert not any(alive(pid) for pid in workers.values())
        out = sup.output()
        assert "[w1] Parlor server stopped." in out and "[w2] Parlor server stopped." in out
        assert [r["status"] for r in rows(db, "SELECT status FROM games")] == ["finished"] * 2
    finally:
        sup.stop()


async def test_a_worker_that_dies_stops_the_others(tmp_path):
    sup = Supervisor(tmp_path, tmp_path / "x.db")
    try:
        sup.wait_ready()
        workers = sup.workers()
        os.kill(workers["w2"], signal.SIGKILL)
        assert sup.proc.wait(5) != 0
        assert not alive(workers["w1"])
        assert re.search(r"worker w2 \(port \d+, pid \d+\) was killed by SIGKILL", sup.output())
    finally:
        sup.stop()


@pytest.mark.parametrize("argv, message", [
    (["--instance", "no spaces"], "--instance must be 1-32 letters"),
    (["--instance", "x" * 33], "--instance must be 1-32 letters"),
    (["--instance", "x" * 32, "--workers", "2"], "too long for 2 workers"),
    (["--workers", "2", "--port", "0"], "--port 0 cannot be used with --workers"),
    (["--workers", "0"], "--workers must be at least 1"),
])
def test_bad_instance_or_port_with_workers_exits_2(argv, message, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["serve", *argv])
    assert exit.value.code == 2
    assert message in capsys.readouterr().err


def test_each_worker_runs_on_the_event_loop_the_host_chose():
    def argv(*options: str) -> list[str]:
        args = _parser().parse_args(["serve", "--db", "x.db", "--workers", "2", *options])
        return worker_argv(args, "w1", 8765)

    assert "--event-loop" not in argv()  # auto: each worker takes uvloop where installed
    chosen = argv("--event-loop", "asyncio")
    assert chosen[chosen.index("--event-loop") + 1] == "asyncio"


def test_each_worker_keeps_the_hosts_omniscient_delay():
    args = _parser().parse_args(["serve", "--db", "x.db", "--workers", "2",
                                 "--omniscient-delay", "5"])
    argv = worker_argv(args, "w1", 8765)
    assert argv[argv.index("--omniscient-delay") + 1] == "5"
    args = _parser().parse_args(["serve", "--db", "x.db", "--workers", "2"])
    assert "--omniscient-delay" not in worker_argv(args, "w1", 8765)
