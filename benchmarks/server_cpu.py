"""What a move costs the server's Python, without sockets (issue 21): the real `Server` and its
store on a temp file, fed requests as a websocket would feed them (`Server._on_message` with the
request's text), its replies kept by fake connections instead of written to sockets. People at
N tables (Blotto and IPD alternating, as in server_load.py) answer every `your_turn` at once
with a random legal action. The clients' own work (reading each reply, choosing, writing the
request) is timed apart and subtracted, so the figure is server CPU (process time) per client
move, best of `--rounds` rounds after one warm-up round, and the share of it the garbage
collector took (with the collector tuned as `parlor serve` tunes it; `--default-gc`: CPython's
defaults). Not what a user waits for (no kernel,
no websocket framing: server_load.py measures those); less noisy on a shared machine, so two
versions of the server can be compared back to back:

    PYTHONPATH=. python benchmarks/server_cpu.py [--tables 50] [--moves 3000] [--rounds 3]
                                                 [--mix all-human|bot-heavy] [--default-gc]
                                                 [--event-loop auto|uvloop|asyncio]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.sampling import random_action  # noqa: E402
from engine.spaces import ActionSpace  # noqa: E402
from server.net.app import Connection, Server  # noqa: E402
from server.net.limits import UNLIMITED  # noqa: E402
from server.net.serve import loop_factory, tune_gc  # noqa: E402
from server.store.store import Store  # noqa: E402
from server.wire.protocol import decode_server_message  # noqa: E402

SEATS = {"all-human": {"colonel-blotto": ["human", "human"],
                       "three-player-ipd": ["human", "human", "human"]},
         "bot-heavy": {"colonel-blotto": ["human", "random"],
                       "three-player-ipd": ["human", "scripted:tit-for-tat", "random"]}}


class Tally:
    client_cpu = 0.0  # seconds of process time spent as the clients
    moves = 0


class Kept(Connection):
    """A connection whose messages are kept in a queue instead of written to a socket."""

    def __init__(self) -> None:
        try:
            super().__init__(None, address="127.0.0.1")  # type: ignore[arg-type]
        except TypeError:  # a server from before issue 10 (to compare with)
            super().__init__(None)  # type: ignore[arg-type]
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()

    def push(self, data: bytes) -> None:
        self.queue.put_nowait(data)


class Client:
    def __init__(self, server: Server, seed: int, tally: Tally) -> None:
        self.server, self.conn, self.rng, self.tally = server, Kept(), random.Random(seed), tally
        self.ids = 0

    async def send(self, type: str, **body: Any) -> None:
        t = time.process_time()
        self.ids += 1
        raw = json.dumps({"v": 1, "type": type, "id": self.ids, **body})
        self.tally.client_cpu += time.process_time() - t
        await self.server._on_message(self.conn, raw)  # what the connection's reader does

    async def next(self) -> dict[str, Any]:
        data = await self.conn.queue.get()
        t = time.process_time()
        msg = decode_server_message(data)
        self.tally.client_cpu += time.process_time() - t
        return msg

    async def reply(self, kind: str) -> dict[str, Any]:
        """The reply to the latest request (broadcasts before it are skipped)."""
        while True:
            msg = await self.next()
            if msg.get("ref") == self.ids:
                if msg["type"] != kind:
                    raise RuntimeError(f"expected {kind}, got {msg}")
                return msg

    async def play(self, table: str) -> None:
        while True:
            msg = await self.next()
            if msg.get("table_id") != table:
                continue
            if msg["type"] == "game_over":
                return
            if msg["type"] == "your_turn":
                t = time.process_time()
                action = random_action(ActionSpace.from_json(msg["legal"]), self.rng)
                self.tally.client_cpu += time.process_time() - t
                self.tally.moves += 1
                await self.send("act", table_id=table, turn=msg["turn"], action=action)


async def play_slot(people: list[Client], env: str, seats: list[str], slot: int, stop: int,
                    tally: Tally) -> None:
    game = 0
    while tally.moves < stop:
        game += 1
        await people[0].send("create_table", env=env, seats=seats, seed=slot * 10_000 + game)
        table = (await people[0].reply("table"))["table"]["id"]
        for k, person in enumerate(people):
            await person.send("join", table_id=table, seat=k)
        await asyncio.gather(*(person.play(table) for person in people))


class GcClock:
    """CPU time the garbage collector takes (its callbacks), and its longest collection."""

    def __init__(self) -> None:
        self.seconds = self.longest = self._start = 0.0
        gc.callbacks.append(self._tick)

    def _tick(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.process_time()
        else:
            took = time.process_time() - self._start
            self.seconds += took
            self.longest = max(self.longest, took)


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="parlor-cpu-") as tmp:
        db = str(Path(tmp) / "cpu.db")
        # One address plays every table: no public-server limits.
        server = Server(db, turn_timeout=120, disconnect_grace=10, limits=UNLIMITED,
                        client_seeds=True)  # seeded: the same games each run
        server.store = await Store.open(db)
        tally = Tally()
        slots = []
        for t in range(args.tables):
            env = ("colonel-blotto", "three-player-ipd")[t % 2]
            seats = SEATS[args.mix][env]
            people = [Client(server, t * 100 + k, tally) for k in range(seats.count("human"))]
            for k, person in enumerate(people):
                await person.send("hello", name=f"p{t}x{k}")
                await person.reply("welcome")
            slots.append((people, env, seats))
        if not args.default_gc:
            tune_gc()
        collecting = GcClock()
        best = float("inf")
        for r in range(args.rounds + 1):
            tally.moves, tally.client_cpu, collecting.seconds = 0, 0.0, 0.0
            start = time.process_time()
            await asyncio.gather(*(play_slot(people, env, seats, i, args.moves, tally)
                                   for i, (people, env, seats) in enumerate(slots)))
            per_move = (time.process_time() - start - tally.client_cpu) / tally.moves * 1e6
            if r:
                best = min(best, per_move)
            gc_share = collecting.seconds / (time.process_time() - start) * 100
            print(f"round {r}{' (warm-up)' if not r else ''}: {tally.moves} moves, server "
                  f"{per_move:.0f} µs/move (clients {tally.client_cpu / tally.moves * 1e6:.0f}); "
                  f"garbage collector {gc_share:.1f}% of the CPU, longest "
                  f"{collecting.longest * 1000:.1f} ms", flush=True)
        print(f"{args.mix}, {args.tables} tables, {type(asyncio.get_running_loop()).__module__}"
              f" loop: best {best:.0f} µs of server CPU per move")
        await server.store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=3000, help="client moves per round "
                        "(games under way finish, so a round makes a few more)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mix", default="all-human", choices=list(SEATS))
    parser.add_argument("--default-gc", action="store_true",
                        help="CPython's collector settings, not those of parlor serve")
    parser.add_argument("--event-loop", default="auto", choices=("auto", "uvloop", "asyncio"),
                        help="as `parlor serve --event-loop` (auto: uvloop where installed)")
    args = parser.parse_args()
    with asyncio.Runner(loop_factory=loop_factory(args.event_loop)) as runner:
        runner.run(run(args))


if __name__ == "__main__":
    main()
