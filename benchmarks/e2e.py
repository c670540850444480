"""End to end: what a `parlor sim` user waits for, from a bot's move to disk (issue 8).

Rows, all from the same run (what each one means: benchmarks/README.md):
- `parlor sim` actions/s for Colonel Blotto and three-player IPD, database on disk and in memory,
  through `server.cli.main` in a fresh subprocess; actions counted from the database afterwards;
- the same games on the bare engine (no table, no store): stored actions replayed, and the same
  bots deciding in a plain loop, so the ratio to the engine can be printed;
- the store alone: `Store.record_action` calls/s;
- the 2,500-tick, 7-seat proving-ground game through `parlor sim` on disk;
- storage per action and per game, and the second copy of each record (`games.record`);
- peak RSS of `parlor sim` for two game counts, and the growth per game.

    python benchmarks/e2e.py [--games 200] [--repeats 3] [--memory-games 200 2000 10000]
                             [--store-calls 2000] [--skip-long] [--profile] [--workers 1]
                             [--concurrency 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import json
import os
import pstats
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import tests.envs  # noqa: E402,F401 - registers proving-ground
from bots.registry import make_bot  # noqa: E402
from engine.core import ActionRecord, Event, Game  # noqa: E402
from engine.registry import get  # noqa: E402
from server.store.store import Store  # noqa: E402

TARGET_RATE = 20_000  # actions/s with the database on disk (Blotto and IPD)
TARGET_RATIO = 5.0  # sim within this factor of the bare engine (engine + bots)
TARGET_LONG = 1.0  # seconds for the 2,500-tick, 7-seat proving game, stored


@dataclass(frozen=True)
class Workload:
    label: str
    env: str
    specs: tuple[str, ...]


BLOTTO = Workload("blotto", "colonel-blotto", ("random", "random"))
BLOTTO_ADAPTIVE = Workload("blotto-ad", "colonel-blotto", ("random", "scripted:adaptive"))
IPD = Workload("ipd", "three-player-ipd", ("scripted:tit-for-tat", "scripted:grim", "random"))
PROVING = Workload("proving", "proving-ground", ("random",) * 7)

# Runs `parlor sim` in a fresh interpreter: the seconds main() took, and its memory from
# /proc/self/status (ru_maxrss would count the parent's pages from before exec).
SIM_RUNNER = r"""
import contextlib, io, json, sys, time
def memory():
    lines = open("/proc/self/status").read().splitlines()
    return {k: int(v.split()[0]) for k, _, v in (l.partition(":") for l in lines)
            if k in ("VmRSS", "VmHWM")}
if sys.argv[3]:  # one core for the interpreter and every thread it starts
    import os
    os.sched_setaffinity(0, {int(sys.argv[3])})
sys.path.insert(0, sys.argv[1])
import tests.envs
from server.cli import main
argv = json.loads(sys.argv[2])
before = memory()
out = io.StringIO()
start = time.perf_counter()
with contextlib.redirect_stdout(out):
    code = main(argv)
seconds = time.perf_counter() - start
after = memory()
print(json.dumps({"code": code, "seconds": seconds, "rss_start_kb": before["VmRSS"],
                  "rss_end_kb": after["VmRSS"], "rss_peak_kb": after["VmHWM"],
                  "tail": out.getvalue()[-300:]}))
"""


# ------------------------------------------------------------------------------ parlor sim
@dataclass(frozen=True)
class Spread:
    """How the sim rows play: `--workers` processes, `--concurrency` games in flight each."""

    workers: int = 1
    concurrency: int = 1

    def argv(self) -> list[str]:
        return ((["--workers", str(self.workers)] if self.workers > 1 else [])
                + (["--concurrency", str(self.concurrency)] if self.concurrency > 1 else []))


def sim_argv(work: Workload, games: int, db: Path | None, spread: Spread = Spread()
             ) -> list[str]:
    argv = ["sim", work.env, "--games", str(games), "--seed", "0", "--quiet", *spread.argv()]
    for spec in work.specs:
        argv += ["--seat", spec]
    return argv + (["--db", str(db)] if db else [])


def run_sim(work: Workload, games: int, db: Path | None, cpu: int | None = None,
            spread: Spread = Spread()) -> dict[str, Any]:
    """`parlor sim` in a subprocess (pinned to core `cpu` if given, its workers with it);
    returns the runner's JSON (seconds, RSS)."""
    argv = sim_argv(work, games, db, spread)
    out = subprocess.run([sys.executable, "-c", SIM_RUNNER, str(ROOT), json.dumps(argv),
                          "" if cpu is None else str(cpu)],
                         capture_output=True, text=True, cwd=ROOT, timeout=900)
    if out.returncode != 0:
        raise RuntimeError(f"parlor sim failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def db_counts(db: Path) -> tuple[int, int]:
    """(games, actions) stored in a database file."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        actions = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
    return games, actions


# ------------------------------------------------------------------------------ bare engine
def play_with_bots(work: Workload, games: int) -> tuple[int, float]:
    """The same games as `parlor sim` (same seeds, same bots) in a plain loop: view, legal,
    decide, act. No table, no tasks, no store. Returns (decisions, seconds)."""
    env = get(work.env)
    config = env.config()
    players = len(work.specs)

    async def play() -> int:
        decisions = 0
        for seed in range(games):
            game = env.new_game(config, seed, players)
            bots = [make_bot(spec, env.id, seed * 1000 + i) for i, spec in enumerate(work.specs)]
            memories: list[dict[str, Any]] = [{} for _ in work.specs]
            while not game.over:
                for seat in sorted(game.pending()):
                    if game.over or seat not in game.pending():
                        continue
                    view, legal = game.view(seat), game.legal(seat).to_json()
                    decision = await bots[seat].decide(view, legal, memories[seat])
                    game.act(seat, decision.action)
                    decisions += 1
        return decisions

    start = time.perf_counter()
    decisions = asyncio.run(play())
    return decisions, time.perf_counter() - start


def stored_games(db: Path) -> list[tuple[str, dict[str, Any], int, int, list[tuple[Any, ...]]]]:
    """(env, config, seed, players, [(seat, raw, outcome, error)]) of every stored game."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        games = conn.execute("SELECT g.id, g.env, g.config, g.seed, (SELECT count(*) FROM seats "
                             "s WHERE s.game_id = g.id) FROM games g ORDER BY g.id").fetchall()
        out = []
        for game_id, env_id, config, seed, players in games:
            rows = conn.execute("SELECT seat, raw, structured, outcome, error FROM actions "
                                "WHERE game_id = ? ORDER BY idx", (game_id,)).fetchall()
            actions = [(seat, json.loads(raw) if structured else raw, outcome, error)
                       for seat, raw, structured, outcome, error in rows]
            out.append((env_id, json.loads(config), seed, players, actions))
    return out


def replay(games: list[tuple[str, dict[str, Any], int, int, list[tuple[Any, ...]]]],
           keep: bool = False) -> tuple[int, float, list[tuple[ActionRecord, list[Event]]]]:
    """The stored actions replayed on the engine (new_game, act): (decisions, seconds, and with
    `keep` every action record with the events it produced)."""
    pairs: list[tuple[ActionRecord, list[Event]]] = []
    decisions = 0
    start = time.perf_counter()
    for env_id, config, seed, players, actions in games:
        env = get(env_id)
        game: Game = env.new_game(env.Config.from_json(config), seed, players)
        for seat, raw, outcome, error in actions:
            if outcome == "defaulted":
                events = game.act_default(seat, error or "")
            else:
                events = game.act(seat, raw)
            decisions += 1
            if keep:
                record = game.last_action()
                assert record is not None
                pairs.append((record, events))
    return decisions, time.perf_counter() - start, pairs


# ------------------------------------------------------------------------------ store alone
def store_calls(pairs: list[tuple[ActionRecord, list[Event]]], calls: int, db: str,
                together: int = 1) -> tuple[int, float]:
    """`Store.record_action` on its own: the stored Blotto actions and their events written
    again, one game row per 1,000 calls, by `together` writers at once (as many tables moving
    in the same turn of the loop: they share group commits). Returns (calls, seconds)."""
    async def writer(store: Store, game_id: int, first: int, count: int) -> None:
        for n in range(first, first + count):
            record, events = pairs[n % len(pairs)]
            events = [Event(n * 10 + i, e.step, e.type, e.data, e.visible_to, e.clock)
                      for i, e in enumerate(events)]  # unique seqs within the game row
            await store.record_action(game_id, n, record, events, turn=None,
                                      usage={"latency_ms": 0.0})

    async def run() -> tuple[int, float]:
        store = await Store.open(db)
        spent = 0.0
        try:
            per_game = 1000
            for first in range(0, calls, per_game):
                game_id = await store.create_game(
                    table_id="bench", env="colonel-blotto", rules_version="1", preset=None,
                    config={}, seed=first, seats=[{"identity": "random", "name": "random",
                                                   "kind": "bot"}])
                count = min(per_game, calls - first)
                share = -(-count // together)
                start = time.perf_counter()
                await asyncio.gather(*(writer(store, game_id, first + k, min(share, count - k))
                                       for k in range(0, count, share)))
                spent += time.perf_counter() - start
        finally:
            await store.close()
        return calls, spent

    return asyncio.run(run())


# ------------------------------------------------------------------------------ storage
def storage(db: Path) -> dict[str, float]:
    """Sizes from sqlite's dbstat (pages per table, its indexes counted with it)."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        games, actions = db_counts(db)
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        total = conn.execute("PRAGMA page_count").fetchone()[0] * page
        owner = dict(conn.execute("SELECT name, tbl_name FROM sqlite_master"))
        per_table: dict[str, int] = {}
        try:
            for name, size in conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
                table = owner.get(name, name)
                per_table[table] = per_table.get(table, 0) + size
        except sqlite3.OperationalError:  # no dbstat in this sqlite build: the file size only
            conn.execute("VACUUM")
            total = conn.execute("PRAGMA page_count").fetchone()[0] * page
        llm = conn.execute("SELECT coalesce(sum(length(raw_output)) + sum(length(transcript)), "
                           "0) FROM actions").fetchone()[0]
        llm += conn.execute("SELECT coalesce(sum(length(text)), 0) FROM texts").fetchone()[0]
        columns = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
        record = 0  # the second copy of each record: gone since issue 8
        if "record" in columns:
            record = conn.execute("SELECT coalesce(sum(length(record)), 0) FROM games"
                                  ).fetchone()[0]
    return {"games": games, "actions": actions, "bytes": total, "llm": llm or 0,
            "record": record, "actions_t": per_table.get("actions", 0),
            "events_t": per_table.get("events", 0), "games_t": per_table.get("games", 0)}


# ------------------------------------------------------------------------------ report
def verdict(ok: bool) -> str:
    return "meets target" if ok else "BELOW TARGET"


def timed_sims(work: Workload, games: int, on_disk: bool, tmp: Path, repeats: int,
               spread: Spread = Spread()) -> tuple[list[float], float]:
    """Seconds of `repeats` runs of `parlor sim` free to use every core, and of one run pinned
    to one core. On disk, each run writes a fresh file (tmp/<label>-<k>.db)."""
    def db(k: str) -> Path | None:
        return tmp / f"{work.label}-{k}.db" if on_disk else None

    free = [run_sim(work, games, db(str(k)), spread=spread)["seconds"]
            for k in range(repeats)]
    pinned = run_sim(work, games, db("1core"), cpu=min(os.sched_getaffinity(0)),
                     spread=spread)
    return free, pinned["seconds"]


def throughput_rows(works: list[Workload], games: int, repeats: int, tmp: Path,
                    spread: Spread = Spread()) -> list[tuple[Workload, Path]]:
    """Sim on disk and in memory beside the bare engine, per workload; prints one line each and
    returns the first on-disk database of each workload."""
    print(f"\n`parlor sim`, {games} games per row, best and median of {repeats} runs, and one "
          f"run pinned to one core; target >= {TARGET_RATE:,} actions/s on disk (best), within "
          f"{TARGET_RATIO:g}x of engine+bots")
    if spread.argv():
        print(f"`parlor sim {' '.join(spread.argv())}`" + (
            " (the pinned run: every worker on that one core; 'memory': no --db, so the "
            "workers share a temporary file on disk)" if spread.workers > 1 else ""))
    head = (f"{'workload':9} {'store':6} {'games':>6} {'actions':>8} {'best s':>7} "
            f"{'actions/s':>10} {'(median)':>9} {'(1 core)':>9} {'engine+bots/s':>14} "
            f"{'replay/s':>10} {'ratio':>6}  verdict")
    print(head)
    print("-" * len(head))
    dbs = []
    for work in works:
        runs = {store: timed_sims(work, games, store == "disk", tmp, repeats, spread)
                for store in ("disk", "memory")}
        db = tmp / f"{work.label}-0.db"
        dbs.append((work, db))
        _, actions = db_counts(db)  # the in-memory runs play the same seeded games
        bot_n, bot_s = play_with_bots(work, games)
        rep_n, rep_s, _ = replay(stored_games(db))
        same = "" if bot_n == actions else f"; the engine loop made {bot_n} decisions"
        for store, (free, pinned) in runs.items():
            best, median = actions / min(free), actions / statistics.median(free)
            ratio = bot_n / bot_s / best
            check = verdict(best >= TARGET_RATE and ratio <= TARGET_RATIO) \
                if store == "disk" else "-"
            print(f"{work.label:9} {store:6} {games:>6} {actions:>8} {min(free):>7.2f} "
                  f"{best:>10,.0f} {median:>9,.0f} {actions / pinned:>9,.0f} "
                  f"{bot_n / bot_s:>14,.0f} {rep_n / rep_s:>10,.0f} {ratio:>5.0f}x  {check}{same}")
    return dbs


def long_game_row(tmp: Path, repeats: int) -> Path:
    free, pinned = timed_sims(PROVING, 1, True, tmp, repeats)
    db = tmp / f"{PROVING.label}-0.db"
    _, actions = db_counts(db)
    _, bot_s = play_with_bots(PROVING, 1)
    print(f"\nproving-ground paper (2,500 ticks x 7 seats, random bots), one game via `parlor sim`"
          f" on disk, best and median of {repeats} runs and one on one core; target < "
          f"{TARGET_LONG:g} s")
    print(f"{'actions':>8} {'best s':>7} {'(median)':>9} {'(1 core)':>9} {'actions/s':>10} "
          f"{'engine+bots s':>14}  verdict")
    print(f"{actions:>8} {min(free):>7.2f} {statistics.median(free):>9.2f} {pinned:>9.2f} "
          f"{actions / min(free):>10,.0f} {bot_s:>14.3f}  {verdict(min(free) < TARGET_LONG)}")
    return db


@contextlib.contextmanager
def one_core() -> Iterator[None]:
    """Pin this thread (and the threads it starts) to one core."""
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cores)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, cores)


def store_row(db: Path, calls: int, tmp: Path) -> None:
    _, _, pairs = replay(stored_games(db), keep=True)
    print(f"\nStore.record_action alone ({calls:,} calls: one stored Blotto action and its "
          f"events each), free to use every core and pinned to one")
    print(f"{'store':6} {'writers':>7} {'calls/s':>9} {'ms/call':>8} {'(1 core) calls/s':>17}")
    for store, path in (("disk", tmp / "store.db"), ("memory", None)):
        for together in (1, 100):
            name = f"{path}-{together}" if path else ":memory:"
            n, seconds = store_calls(pairs, calls, name, together)
            with one_core():
                _, pinned = store_calls(pairs, calls, name + "-1core" if path else name,
                                        together)
            print(f"{store:6} {together:>7} {n / seconds:>9,.0f} {seconds / n * 1000:>8.3f} "
                  f"{n / pinned:>17,.0f}")


def storage_rows(dbs: list[tuple[Workload, Path]]) -> None:
    print("\nStorage (on-disk databases above; dbstat pages, indexes counted with their table; "
          "LLM text = raw_output + transcript, excluded)")
    head = (f"{'workload':9} {'games':>6} {'actions':>8} {'file KB':>8} {'B/action':>9} "
            f"{'B/game':>8} {'actions B/a':>11} {'events B/a':>10} {'games B/g':>9} "
            f"{'record B/g':>10} {'record %':>8}")
    print(head)
    print("-" * len(head))
    for work, db in dbs:
        s = storage(db)
        g, a = s["games"] or 1, s["actions"] or 1
        net = s["bytes"] - s["llm"]
        print(f"{work.label:9} {int(s['games']):>6} {int(s['actions']):>8} "
              f"{s['bytes'] / 1024:>8,.0f} {net / a:>9,.0f} {net / g:>8,.0f} "
              f"{s['actions_t'] / a:>11,.0f} {s['events_t'] / a:>10,.0f} "
              f"{s['games_t'] / g:>9,.0f} {s['record'] / g:>10,.0f} "
              f"{100 * s['record'] / s['bytes']:>7.0f}%")


def memory_rows(counts: list[int], tmp: Path) -> None:
    print(f"\n`parlor sim` memory (Blotto, {BLOTTO.specs[0]} vs {BLOTTO.specs[1]}; a fresh "
          f"process each; VmRSS/VmHWM; figures, not limits)")
    head = (f"{'store':6} {'games':>6} {'seconds':>8} {'RSS start MB':>12} {'RSS end MB':>10} "
            f"{'peak MB':>8} {'peak growth KB/game':>19}")
    print(head)
    print("-" * len(head))
    for store in ("disk", "memory"):
        first: tuple[int, int] | None = None
        for games in counts:
            db = tmp / f"memory-{games}.db" if store == "disk" else None
            run = run_sim(BLOTTO, games, db)
            first = first or (games, run["rss_peak_kb"])
            growth = "" if games == first[0] else \
                f"{(run['rss_peak_kb'] - first[1]) / (games - first[0]):>19.1f}"
            print(f"{store:6} {games:>6} {run['seconds']:>8.2f} "
                  f"{run['rss_start_kb'] / 1024:>12.1f} {run['rss_end_kb'] / 1024:>10.1f} "
                  f"{run['rss_peak_kb'] / 1024:>8.1f} {growth}")


def profile_sim(work: Workload, games: int, tmp: Path, top: int = 30) -> None:
    """cProfile of `parlor sim` in this process (SQLite runs on the loop's thread, so its time
    is counted; only the WAL checkpointer's thread is not)."""
    from server.cli import main

    db = tmp / "profile.db"
    profiler = cProfile.Profile()
    with contextlib.redirect_stdout(io.StringIO()):
        profiler.enable()
        main(sim_argv(work, games, db))
        profiler.disable()
    print(f"\n--- cProfile, `parlor sim` {work.label} on disk, {games} games ---")
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per sim row")
    parser.add_argument("--repeats", type=int, default=3, help="timed sim runs per row")
    parser.add_argument("--memory-games", type=int, nargs="+", default=[200, 2000, 10000],
                        help="game counts for the RSS rows")
    parser.add_argument("--store-calls", type=int, default=2000)
    parser.add_argument("--skip-long", action="store_true", help="skip the proving-ground game")
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of the sim path (Blotto on disk)")
    parser.add_argument("--workers", type=int, default=1,
                        help="`parlor sim --workers N` for the actions/s rows (default 1)")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="`parlor sim --concurrency N` for the actions/s rows (default 1)")
    args = parser.parse_args()
    print(f"Parlor end to end (issue 8), {time.strftime('%Y-%m-%d')}, python "
          f"{sys.version.split()[0]}, sqlite {sqlite3.sqlite_version}")
    with tempfile.TemporaryDirectory(prefix="parlor-e2e-") as name:
        tmp = Path(name)
        dbs = throughput_rows([BLOTTO, BLOTTO_ADAPTIVE, IPD], args.games, args.repeats, tmp,
                              Spread(args.workers, args.concurrency))
        if not args.skip_long:
            dbs.append((PROVING, long_game_row(tmp, args.repeats)))
        store_row(dbs[0][1], args.store_calls, tmp)
        storage_rows(dbs)
        memory_rows(sorted(args.memory_games), tmp)
        if args.profile:
            profile_sim(BLOTTO, min(args.games, 200), tmp)


if __name__ == "__main__":
    main()
