"""`parlor serve` under load (issue 8): N concurrent tables on 127.0.0.1, each with protocol
clients seated as people who answer the instant `your_turn` arrives, against server-side bots
(bot-heavy) or each other (all-human), optionally watched by spectators.

Per row (fresh server processes and database each): latency from sending `act` to the next
event or your_turn (p50/p95/p99/max), client moves/s, stored actions/s, server CPU% and RSS
(from /proc, summed over the server processes), server CPU ms per client move and per stored
action, the load generator's own CPU%, and events lost, duplicated or leaked per client (each
client's event seqs against the events the database says it may see). With `--servers N`
(issue 8: more than one core) N server processes share the row's database, each its own
--instance and port, and table slots go to them round-robin. Every
client reads every message as the TUI does (`decode_server_message`, then `Session.apply`), so
the latency is what a person waits for. `--py-spy PREFIX` samples the servers over the measured
window (py-spy's raw stacks, one file per row and server). What each column means:
benchmarks/README.md.

    python benchmarks/server_load.py [--tables 10 50] [--mixes bot-heavy all-human]
                                     [--spectators 0] [--seconds 10] [--warmup 2]
                                     [--blotto-bot random] [--servers 1] [--server-cpu N]
                                     [--profile PREFIX] [--py-spy PREFIX]
                                     [--event-loop auto|uvloop|asyncio]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.sampling import random_action  # noqa: E402
from engine.spaces import ActionSpace  # noqa: E402
from server.wire.protocol import decode_server_message  # noqa: E402
from tui.session import Session  # noqa: E402

HOST = "127.0.0.1"  # loopback only
ENVS = ("colonel-blotto", "three-player-ipd")
SEATS: dict[str, dict[str, list[str]]] = {
    "bot-heavy": {"colonel-blotto": ["human", "random"],
                  "three-player-ipd": ["human", "scripted:tit-for-tat", "random"]},
    "all-human": {"colonel-blotto": ["human", "human"],
                  "three-player-ipd": ["human", "human", "human"]},
}
TARGET_P99_MS, TARGET_RSS_MB = 100.0, 300.0  # at 200 tables
REQUEST_TIMEOUT = 30.0  # seconds any request may wait for its reply
DRAIN = 30.0  # seconds games under way may take to end after the measured window
CLK_TCK = os.sysconf("SC_CLK_TCK")
SERVER_OPTIONS: list[str] = []  # more `parlor serve` options for every row (--event-loop)


# ------------------------------------------------------------------------------ the server
class ServerProcess:
    """`python -m server.cli serve` on a loopback port (default: a free one); the database file
    is the row's own, shared by the row's servers when there are several (each an instance)."""

    def __init__(self, db: Path, log: Path, cpu: int | None = None,
                 profile: Path | None = None, instance: str | None = None,
                 port: int | None = None) -> None:
        self.db = db
        self.port = port or free_port()
        self._log = log.open("w")
        profiler = ["-m", "cProfile", "-o", str(profile)] if profile else []
        named = ["--instance", instance] if instance else []
        self.proc = subprocess.Popen(
            [sys.executable, *profiler, "-m", "server.cli", "serve", "--host", HOST, "--port",
             str(self.port), "--db", str(db), "--turn-timeout", "120",
             "--disconnect-grace", "10", *named,
             # One load generator on one address plays every table: no public-server limits.
             "--connections-per-address", "100000", "--max-tables", "100000",
             "--tables-per-player", "100000", "--tables-per-address", "100000",
             "--names-per-address-per-hour", "100000", "--messages-per-second", "100000",
             "--allow-bots", "*", "--allow-client-seeds",  # seeded: the same games each run
             *SERVER_OPTIONS],
            cwd=ROOT, stdout=self._log, stderr=subprocess.STDOUT,
            preexec_fn=None if cpu is None else lambda: os.sched_setaffinity(0, {cpu}))

    @property
    def url(self) -> str:
        return f"ws://{HOST}:{self.port}"

    async def wait_ready(self, limit: float = 30.0) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            with contextlib.suppress(OSError):
                _, writer = await asyncio.open_connection(HOST, self.port)
                writer.close()
                return
            await asyncio.sleep(0.1)
        raise RuntimeError(f"the server did not listen on {self.url} within {limit} s")

    def cpu_seconds(self) -> float:
        """utime + stime of the server process so far (/proc/<pid>/stat fields 14 and 15)."""
        stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def memory_kb(self) -> dict[str, int]:
        """VmRSS (now) and VmHWM (peak) from /proc/<pid>/status."""
        out = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
        return out

    def stop(self, limit: float = 30.0) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(limit)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def free_ports(count: int) -> int:
    """A port P such that P .. P+count-1 are all free now (as `parlor serve --workers` uses)."""
    while (first := free_port()) + count > 65536 or not all(
            port_free(port) for port in range(first + 1, first + count)):
        pass
    return first


def port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind((HOST, port))
        except OSError:
            return False
    return True


async def start_servers(count: int, db: Path, tmp: Path, cpu: int | None,
                        profile: str | None) -> list[ServerProcess]:
    """`count` servers on one database, instances w1..wN on consecutive ports. The first starts
    alone: it creates the database, and two processes must not migrate a new file at once."""
    first = free_ports(count)
    servers: list[ServerProcess] = []
    try:
        for i in range(count):
            name = f"{db.stem}-w{i + 1}" if count > 1 else db.stem
            servers.append(ServerProcess(db, tmp / f"{name}.log", cpu,
                                         Path(f"{profile}-{name}.prof") if profile else None,
                                         f"w{i + 1}" if count > 1 else None, first + i))
            if i == 0:
                await servers[0].wait_ready()
        await asyncio.gather(*(s.wait_ready() for s in servers))
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers


# ------------------------------------------------------------------------------ the clients
@dataclass
class Stats:
    """What every client records, shared; only acts sent inside [start, end] are measured."""

    start: float = float("inf")
    end: float = float("inf")
    latencies: list[float] = field(default_factory=list)  # seconds, act -> next message
    moves: int = 0  # acts sent inside the window
    errors: dict[str, int] = field(default_factory=dict)  # error replies by code

    def measured(self, t: float) -> bool:
        return self.start <= t <= self.end


class LoadClient:
    """One websocket speaking protocol v1. A person: answers every your_turn at once with a
    random legal action. Keeps the event seqs it received per table."""

    def __init__(self, ws: ClientConnection, stats: Stats, seed: int, name: str = "") -> None:
        self.ws = ws
        self.stats = stats
        self.session = Session(name, "")  # the TUI's model, fed every message as the TUI does
        self.rng = random.Random(seed)
        self.seqs: dict[str, list[int]] = {}
        self.over: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._sent: dict[str, float] = {}  # table -> when the outstanding act was sent
        self._acts: dict[int, str] = {}  # act id -> table (an error reply names only the id)
        self._ids = 0
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str, name: str, stats: Stats, seed: int) -> LoadClient:
        client = cls(await connect(url, max_size=None, open_timeout=REQUEST_TIMEOUT), stats,
                     seed, name)
        await client.request("hello", name=name)
        return client

    async def send(self, type: str, **body: Any) -> int:
        self._ids += 1
        await self.ws.send(json.dumps({"v": 1, "type": type, "id": self._ids, **body}))
        return self._ids

    async def request(self, type: str, **body: Any) -> dict[str, Any]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[self._ids + 1] = future  # send() takes that id before it suspends
        await self.send(type, **body)
        reply = await asyncio.wait_for(future, REQUEST_TIMEOUT)
        if reply["type"] == "error":
            raise RuntimeError(f"{type} refused: {reply['code']}: {reply['message']}")
        return reply

    def expect(self, table_id: str) -> asyncio.Future[dict[str, Any]]:
        """A future for this table's game_over; events are recorded from now on."""
        self.seqs[table_id] = []
        self.session.watching = table_id  # a spectator's session follows it (a seat's: `table`)
        future = self.over[table_id] = asyncio.get_running_loop().create_future()
        return future

    async def _read(self) -> None:
        """Until the connection closes; a client-side bug is counted (and shows up as games
        that never end), never silent."""
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                try:
                    msg = decode_server_message(raw)  # the generator's main cost, as the TUI's
                    self.session.apply(msg)
                    await self._on_message(msg)
                except ConnectionClosed:
                    raise
                except Exception as exc:  # noqa: BLE001 - counted in the row's errors
                    key = f"client {type(exc).__name__}"
                    self.stats.errors[key] = self.stats.errors.get(key, 0) + 1

    async def _on_message(self, msg: dict[str, Any]) -> None:
        kind, table, ref = msg["type"], msg.get("table_id"), msg.get("ref")
        if kind == "error":
            self.stats.errors[msg["code"]] = self.stats.errors.get(msg["code"], 0) + 1
            table = self._acts.pop(ref, None)
        if kind in ("event", "your_turn", "error") and table in self._sent:
            sent = self._sent.pop(table)  # the first message after an act answers it
            if self.stats.measured(sent):
                self.stats.latencies.append(time.time() - sent)
        if ref in self._replies:
            self._replies.pop(ref).set_result(msg)
        if kind == "event" and table in self.seqs:
            self.seqs[table] += [e["seq"] for e in msg["events"]]
        elif kind == "your_turn":
            await self._act(msg)
        elif kind == "game_over" and table in self.over and not self.over[table].done():
            self._acts = {r: t for r, t in self._acts.items() if t != table}
            self.over[table].set_result(msg)

    async def _act(self, msg: dict[str, Any]) -> None:
        action = random_action(ActionSpace.from_json(msg["legal"]), self.rng)
        sent = time.time()
        self._sent[msg["table_id"]] = sent
        if self.stats.measured(sent):
            self.stats.moves += 1
        ref = await self.send("act", table_id=msg["table_id"], turn=msg["turn"], action=action)
        self._acts[ref] = msg["table_id"]

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 5)
        self._reader.cancel()


# ------------------------------------------------------------------------------ the tables
@dataclass
class Played:
    """One game as the load generator saw it: who watched from which seat (None: spectator)."""

    table_id: str
    game_id: int | None
    watchers: list[tuple[LoadClient, int | None]]


async def play_table(slot: int, env_id: str, seats: list[str], humans: list[LoadClient],
                     spectators: list[LoadClient], stop_at: float, game_limit: float,
                     played: list[Played]) -> None:
    """Create a table, have the spectators watch and the people join, wait for game_over at
    every client; again, until `stop_at` (time.time())."""
    game = 0
    while time.time() < stop_at:
        game += 1
        reply = await humans[0].request("create_table", env=env_id, seats=seats,
                                        seed=slot * 10_000 + game)
        table_id = reply["table"]["id"]
        watchers = [(c, None) for c in spectators] + [(c, k) for k, c in enumerate(humans)]
        overs = [c.expect(table_id) for c, _ in watchers]
        for c in spectators:
            await c.request("spectate", table_id=table_id)
        for k, c in enumerate(humans):
            await c.request("join", table_id=table_id, seat=k)
        done, _ = await asyncio.wait(overs, timeout=game_limit)
        if len(done) < len(overs):
            played.append(Played(table_id, None, watchers))
            return  # the game did not end in time: this table stops here
        played.append(Played(table_id, overs[0].result()["game_id"], watchers))


async def open_clients(urls: list[str], tables: int, humans: list[int], spectators: int,
                       stats: Stats) -> list[tuple[list[LoadClient], list[LoadClient]]]:
    """(people, spectators) per table, all connected to the table's server and greeted.
    Slots go to the servers round-robin by runs of len(ENVS) (slots alternate envs, so plain
    round-robin over two servers would give one all the Blotto tables, the other all IPD)."""
    async def table_clients(t: int) -> tuple[list[LoadClient], list[LoadClient]]:
        url = urls[(t // len(ENVS)) % len(urls)]
        people = [await LoadClient.open(url, f"p{t}-{k}", stats, t * 100 + k)
                  for k in range(humans[t])]
        watchers = [await LoadClient.open(url, f"s{t}-{k}", stats, 0) for k in range(spectators)]
        return people, watchers

    return list(await asyncio.gather(*(table_clients(t) for t in range(tables))))


# ------------------------------------------------------------------------------ checks
def check_events(db: Path, played: list[Played]) -> dict[str, int]:
    """Every finished game, every client: the seqs it got against the events of that game the
    database says its seat (or a spectator) may see. lost = visible but never received,
    dup = received more than once, leaked = received but not visible to it."""
    out = {"games": 0, "clients": 0, "lost": 0, "dup": 0, "leaked": 0, "unfinished": 0}
    with contextlib.closing(sqlite3.connect(db)) as conn:
        for game in played:
            if game.game_id is None:
                out["unfinished"] += 1
                continue
            out["games"] += 1
            rows = conn.execute("SELECT seq, visible_to FROM events WHERE game_id = ?",
                                (game.game_id,)).fetchall()
            events = [(seq, json.loads(vis)) for seq, vis in rows]
            for client, seat in game.watchers:
                got = client.seqs.get(game.table_id, [])
                visible = {seq for seq, vis in events
                           if vis == "all" or (seat is not None and seat in vis)}
                out["clients"] += 1
                out["lost"] += len(visible - set(got))
                out["dup"] += len(got) - len(set(got))
                out["leaked"] += len(set(got) - visible)
    return out


def stored_rate(db: Path, start: float, end: float) -> float:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        n = conn.execute("SELECT count(*) FROM actions WHERE created BETWEEN ? AND ?",
                         (start, end)).fetchone()[0]
    return n / (end - start)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ------------------------------------------------------------------------------ one row
@dataclass
class Row:
    tables: int
    mix: str
    spectators: int
    servers: int = 1
    clients: int = 0
    figures: dict[str, Any] = field(default_factory=dict)


async def run_row(row: Row, seconds: float, warmup: float, tmp: Path,
                  server_cpu: int | None = None, profile: str | None = None,
                  py_spy: str | None = None) -> None:
    db = tmp / f"load-{row.tables}-{row.mix}-{row.spectators}-{row.servers}srv.db"
    stats = Stats()
    clients: list[tuple[list[LoadClient], list[LoadClient]]] = []
    servers = await start_servers(row.servers, db, tmp, server_cpu, profile)
    try:
        envs = [ENVS[t % len(ENVS)] for t in range(row.tables)]
        seats = [SEATS[row.mix][env] for env in envs]
        humans = [s.count("human") for s in seats]
        clients = await open_clients([s.url for s in servers], row.tables, humans,
                                     row.spectators, stats)
        row.clients = sum(len(p) + len(w) for p, w in clients)
        played: list[Played] = []
        t0 = time.time()
        stats.start, stats.end = t0 + warmup, t0 + warmup + seconds
        tasks = [asyncio.create_task(play_table(t, envs[t], seats[t], *clients[t], stats.end,
                                                seconds + warmup + DRAIN, played))
                 for t in range(row.tables)]
        await asyncio.sleep(max(0.0, stats.start - time.time()))
        cpu0, me0 = sum(s.cpu_seconds() for s in servers), own_cpu()
        samplers = [sample(s, f"{py_spy}-{row.tables}-{row.mix}-{row.spectators}-w{k + 1}.txt",
                           stats.end - time.time()) for k, s in enumerate(servers)] \
            if py_spy else []
        await asyncio.sleep(max(0.0, stats.end - time.time()))
        cpu1, me1 = sum(s.cpu_seconds() for s in servers), own_cpu()
        for sampler in samplers:
            await asyncio.to_thread(sampler.wait)
        memory = [s.memory_kb() for s in servers]
        _, pending = await asyncio.wait(tasks, timeout=DRAIN + REQUEST_TIMEOUT)
        for task in pending:
            task.cancel()
        failures = [t.exception() for t in tasks if t.done() and not t.cancelled()
                    and t.exception() is not None]
    finally:
        for people, watchers in clients:
            for c in people + watchers:
                await c.close()
        for server in servers:
            server.stop()
    stored = stored_rate(db, stats.start, stats.end)
    row.figures = {
        "moves/s": stats.moves / seconds, "stored/s": stored,
        "ms/move": 1000 * (cpu1 - cpu0) / max(1, stats.moves),
        "ms/stored": 1000 * (cpu1 - cpu0) / max(1.0, stored * seconds),
        "samples": len(stats.latencies),
        **{k: percentile(stats.latencies, q) * 1000 for k, q in
           (("p50", 0.50), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))},
        "cpu%": 100 * (cpu1 - cpu0) / seconds,  # summed over the servers, like RSS and peak
        "rss": sum(m.get("VmRSS", 0) for m in memory) / 1024,
        "hwm": sum(m.get("VmHWM", 0) for m in memory) / 1024, "gen%": 100 * (me1 - me0) / seconds,
        "errors": dict(stats.errors), "failures": len(failures) + len(pending),
        **check_events(db, played)}


def sample(server: ServerProcess, out: str, seconds: float) -> subprocess.Popen[bytes]:
    """py-spy sampling `server` for `seconds` into `out` (raw: one line per distinct stack, its
    frames joined by ';', then its sample count), idle threads left out."""
    return subprocess.Popen(
        ["py-spy", "record", "--pid", str(server.proc.pid), "--duration",
         str(max(1, round(seconds))), "--rate", "250", "--format", "raw", "--output", out],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# ------------------------------------------------------------------------------ report
HEADER = (f"{'tables':>6} {'mix':9} {'spect':>5} {'srv':>3} {'clients':>7} {'games':>5} "
          f"{'moves/s':>8} "
          f"{'stored/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7} "
          f"{'srv CPU':>7} {'ms/move':>7} {'ms/act':>6} {'RSS MB':>6} {'peak':>5} {'gen CPU':>7} {'lost':>4} {'dup':>4} "
          f"{'leak':>4}  verdict")


def print_row(row: Row) -> None:
    f = row.figures
    ok = f["p99"] < TARGET_P99_MS and f["hwm"] < TARGET_RSS_MB and \
        f["lost"] + f["dup"] + f["leaked"] == 0
    notes = []
    if f["unfinished"] or f["failures"]:
        notes.append(f"{f['unfinished']} games unfinished, {f['failures']} tables failed")
    if f["errors"]:
        notes.append(f"errors {f['errors']}")
    print(f"{row.tables:>6} {row.mix:9} {row.spectators:>5} {row.servers:>3} {row.clients:>7} "
          f"{f['games']:>5} "
          f"{f['moves/s']:>8,.0f} {f['stored/s']:>8,.0f} {f['p50']:>7.1f} {f['p95']:>7.1f} "
          f"{f['p99']:>7.1f} {f['max']:>7.1f} {f['cpu%']:>6.0f}% {f['ms/move']:>7.3f} "
          f"{f['ms/stored']:>6.3f} {f['rss']:>6.0f} "
          f"{f['hwm']:>5.0f} {f['gen%']:>6.0f}% {f['lost']:>4} {f['dup']:>4} {f['leaked']:>4}  "
          f"{'meets target' if ok else 'BELOW TARGET'}" + (f"; {'; '.join(notes)}" if notes
                                                           else ""), flush=True)


async def run_all(args: argparse.Namespace) -> None:
    print(f"parlor serve under load (issue 8), {time.strftime('%Y-%m-%d')}, {os.cpu_count()} "
          f"cores; {args.seconds:g} s measured after {args.warmup:g} s warm-up per row; tables "
          f"alternate {' / '.join(ENVS)}; target at 200 tables: p99 < {TARGET_P99_MS:g} ms, "
          f"RSS < {TARGET_RSS_MB:g} MB, 0 lost/dup/leaked")
    if max(args.servers) > 1:
        pinned = f", all pinned to core {args.server_cpu}" if args.server_cpu is not None else ""
        print("  srv = server processes sharing the row's database (tables round-robin"
              f"{pinned}); srv CPU, RSS and peak are summed over them (CPU up to 100% per "
              "process)")
    for mix in args.mixes:
        print(f"  {mix}: " + "; ".join(f"{env} {SEATS[mix][env]}" for env in ENVS))
    print(HEADER)
    print("-" * len(HEADER))
    with tempfile.TemporaryDirectory(prefix="parlor-load-") as name:
        for mix in args.mixes:
            for tables in args.tables:
                for servers in args.servers:
                    await run_one(Row(tables, mix, args.spectators, servers), args, Path(name))


async def run_one(row: Row, args: argparse.Namespace, tmp: Path) -> None:
    limit = args.seconds + args.warmup + DRAIN + 2 * REQUEST_TIMEOUT + 60
    await asyncio.wait_for(run_row(row, args.seconds, args.warmup, tmp, args.server_cpu,
                                   args.profile, args.py_spy), limit)
    print_row(row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50],
                        help="concurrent tables, one row each (e.g. 10 50 100 200)")
    parser.add_argument("--mixes", nargs="+", default=list(SEATS), choices=list(SEATS))
    parser.add_argument("--spectators", type=int, default=0, help="spectators per table")
    parser.add_argument("--blotto-bot", default="random",
                        help="the bot facing a person at bot-heavy Blotto tables (e.g. "
                             "scripted:adaptive, which thinks ~2 ms per move on the server)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per row")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds first")
    parser.add_argument("--servers", type=int, nargs="+", default=[1], metavar="N",
                        help="server processes per row sharing its database, tables placed "
                             "round-robin; several values: one row each (e.g. 1 2)")
    parser.add_argument("--server-cpu", type=int, default=None, metavar="N",
                        help="pin the server processes (all of them) to core N and this load "
                             "generator to the other cores")
    parser.add_argument("--profile", metavar="PREFIX", default=None,
                        help="run the servers under cProfile, writing PREFIX-<row>[-wK].prof "
                             "per row and server (pstats format)")
    parser.add_argument("--py-spy", metavar="PREFIX", default=None,
                        help="sample the servers with py-spy (installed separately) over the "
                             "measured window, writing PREFIX-<row>-wK.txt (raw stacks)")
    parser.add_argument("--event-loop", default="auto", choices=("auto", "uvloop", "asyncio"),
                        help="the servers' event loop (`parlor serve --event-loop`; auto: "
                             "uvloop where installed)")
    args = parser.parse_args()
    SERVER_OPTIONS[:] = ["--event-loop", args.event_loop]
    if min(args.servers) < 1:
        parser.error("--servers must be at least 1")
    if args.server_cpu is not None:
        os.sched_setaffinity(0, (os.sched_getaffinity(0) - {args.server_cpu}) or
                             {args.server_cpu})
    SEATS["bot-heavy"]["colonel-blotto"] = ["human", args.blotto_bot]
    asyncio.run(run_all(args))


if __name__ == "__main__":
    main()
