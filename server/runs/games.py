"""Bot-only games through the same table driver and store as live play, and their summary per
seat spec: what `parlor sim` (server/runs/sim.py), its workers (server/runs/sim_workers.py) and
the leagues (server/runs/league_runner.py) play with.

Memory stays constant however many games are played: each game is folded into the summary when
it ends and its table is dropped; the env's aggregate is folded at the end from the run's stored
per-game metrics, read one game at a time."""

from __future__ import annotations

import argparse
import asyncio
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from engine.aggregate import Sum, Totals
from engine.core import Env
from engine.outcome import outcome_counts
from engine.registry import get
from server.net.app import Server
from server.net.serve import tune_gc
from server.runs.campaign.manifest import Match
from server.store.store import Store
from server.tables.policy import BotPolicy
from server.tables.table import Table
from server.wire.protocol import plain_label

T = TypeVar("T")
# Without --db: SQLite's private temporary database. Unlike ":memory:" it spills to a temporary
# file beyond its page cache, so 10,000 games do not hold 10,000 games of rows in memory.
SCRATCH_DB = ""
VOID_REASONS = 5  # distinct reasons for void games a summary keeps (each with its count)


class _Ranked(Generic[T]):
    """Rows by key (a bot spec or identity), listed in the order of their first seat by game
    number and seat index, whatever order the games ended in."""

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._rows: dict[str, T] = {}
        self._first: dict[str, tuple[int, int]] = {}

    def row(self, key: str, rank: tuple[int, int]) -> T:
        if key not in self._rows:
            self._rows[key], self._first[key] = self._factory(), rank
        elif rank < self._first[key]:
            self._first[key] = rank
        return self._rows[key]

    def items(self) -> list[tuple[str, T]]:
        return sorted(self._rows.items(), key=lambda item: self._first[item[0]])

    def merge(self, other: _Ranked[T], add: Callable[[T, T], None]) -> None:
        """Fold in `other`'s rows (`add(mine, theirs)`); each key keeps its earliest rank."""
        for key, row in other._rows.items():
            add(self.row(key, other._first[key]), row)


class Summary:
    """What `parlor sim` prints, folded as each game ends: per bot spec the seats' metrics over
    counted (not void) games, per bot identity its usage, and provider errors of void games.
    Nothing is kept per game; the env's own aggregate is folded beside it (see `_run`)."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self.games = 0
        self.void = 0
        self.rows: _Ranked[Totals] = _Ranked(Totals)
        self.usage: _Ranked[Totals] = _Ranked(Totals)
        self.provider_errors: _Ranked[Sum] = _Ranked(Sum)
        self.void_reasons: dict[str, int] = {}  # the first VOID_REASONS distinct ones

    # A summary crosses processes (`--workers`) without its env, which may not pickle: the
    # env's id goes instead.
    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__ | {"env": self.env.id}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, env=get(state["env"]))

    def merge(self, other: Summary) -> None:
        """Fold in the summary of other games of the same run (another worker's)."""
        self.games += other.games
        self.void += other.void
        self.rows.merge(other.rows, Totals.merge)
        self.usage.merge(other.usage, Totals.merge)
        self.provider_errors.merge(other.provider_errors, Sum.merge)
        for reason, n in other.void_reasons.items():
            self._void_reason(reason, n)

    def _void_reason(self, reason: str, n: int = 1) -> None:
        if reason in self.void_reasons or len(self.void_reasons) < VOID_REASONS:
            self.void_reasons[reason] = self.void_reasons.get(reason, 0) + n

    def failures(self) -> str:
        """Why games ended void, most frequent first: "REASON (N games); ..."."""
        ranked = sorted(self.void_reasons.items(), key=lambda item: -item[1])
        return "; ".join(f"{reason} ({n} game{'s' * (n != 1)})" for reason, n in ranked)

    def add(self, k: int, table: Table, failed_calls: Mapping[int, int]) -> None:
        """Game number `k`, just ended; `failed_calls`: failed provider calls per seat.
        Role specs put bots on different seats from game to game: each seat has its spec."""
        msg = table.game_over_message
        assert msg is not None
        self.games += 1
        void = msg["result"]["void"]
        self.void += bool(void)
        if void:
            self._void_reason(str(msg["result"].get("reason") or "no reason given"))
        for seat in table.seats:
            rank, key = (k, seat.index), str(seat.index)
            if seat.usage:
                self.usage.row(seat.identity, rank).add(seat.usage)
            if failed_calls.get(seat.index):
                self.usage.row(seat.identity, rank).add({"failed_calls": failed_calls[seat.index]})
            if void:
                self.provider_errors.row(seat.spec, rank).add(
                    int(msg["statuses"].get(key) == "provider_error"))
            else:
                # W/D/L by the one rule for every env (engine/outcome.py): a win is a seat among
                # the winners, a loss a negative reward, anything else (a middle place) a draw.
                self.rows.row(seat.spec, rank).add(
                    {**msg["metrics"]["seats"][key], **outcome_counts(msg["result"], seat.index)})

    def render(self, aggregate: Mapping[str, Any]) -> str:
        errors = {spec: n.total for spec, n in self.provider_errors.items()}
        lines = [f"{self.env.title}: {self.games} games ({self.void} void, not counted below"
                 + (f"; provider errors: {errors}" if any(errors.values()) else "") + ")"]
        if self.void_reasons:
            lines.append(f"void: {self.failures()}")
        width = max([32, *(len(key) for key, _ in [*self.rows.items(), *self.usage.items()])])
        lines.append(f"{'bot':{width}} {'seats':>5} {'W':>4} {'D':>4} {'L':>4} "
                     f"{'mean reward':>11} {'invalid':>7} {'forfeits':>8}")
        for spec, r in self.rows.items():
            lines.append(f"{spec:{width}} {r.added:>5} {int(r.total('win')):>4} "
                         f"{int(r.total('draw')):>4} {int(r.total('loss')):>4} "
                         f"{r.total('reward') / (r.added or 1):>11.3f} "
                         f"{int(r.total('invalid_caused')):>7} {int(r.total('self_forfeit')):>8}")
        usage = self.usage.items()
        if usage:
            lines.append(f"{'usage':{width}} {'decisions':>9} {'prompt tok':>10} "
                         f"{'compl tok':>9} {'cost $':>8} {'ms/dec':>7} {'retries':>7} "
                         f"{'failed calls':>12}")
        for identity, u in usage:
            lines.append(f"{identity:{width}} {int(u.total('decisions')):>9} "
                         f"{int(u.total('prompt_tokens')):>10} "
                         f"{int(u.total('completion_tokens')):>9} {u.total('cost'):>8.4f} "
                         f"{u.total('latency_ms') / (u.total('decisions') or 1):>7.1f} "
                         f"{int(u.total('retries')):>7} {int(u.total('failed_calls')):>12}")
        lines += metrics_table(self.env, aggregate)
        return "\n".join(lines)


def metrics_table(env: Env, aggregate: Mapping[str, Any]) -> list[str]:
    """The env's aggregate as people read it on a result screen: each figure by its label
    (`metric_labels`, else its key in words), labels "Section: figure" grouped under their
    section; then each breakdown (by role, query kind, difficulty...) as a table, a column per
    group. Void games are left out by the env."""
    labels = env.metric_labels
    lines = ["", f"{env.title} metrics (the env's own aggregate):"]
    sections: dict[str, list[tuple[str, Any]]] = {}
    for key, value in aggregate.get("overall", {}).items():
        if not isinstance(value, Mapping):
            section, _, figure = plain_label(key, labels).rpartition(": ")
            sections.setdefault(section, []).append((figure, value))
    rows = [(figure[:1].upper() + figure[1:], value) for figure, value in sections.pop("", [])]
    for section, figures in sections.items():
        rows.append((f"{section}:", ""))
        rows += [(f"  {figure}", value) for figure, value in figures]
    width = max((len(label) for label, _ in rows), default=0)
    lines += [f"  {label:{width}}  {_fmt(value)}".rstrip() for label, value in rows]
    for block, groups in aggregate.items():
        if block in ("overall", "seats") or not isinstance(groups, Mapping):
            continue
        groups = {str(g): v for g, v in groups.items() if isinstance(v, Mapping)}
        keys = list(dict.fromkeys(k for v in groups.values() for k, x in v.items()
                                  if not isinstance(x, Mapping)))
        if not groups or not keys:
            continue
        names = {k: plain_label(k, labels) for k in keys}
        width = max(len(n) for n in names.values())
        columns = {g: max(len(g), *(len(_fmt(v.get(k))) for k in keys))
                   for g, v in groups.items()}
        lines += ["", f"By {plain_label(block).lower()}:",
                  f"  {'':{width}}" + "".join(f"  {g:>{w}}" for g, w in columns.items())]
        for k in keys:
            lines.append(f"  {names[k]:{width}}" + "".join(
                f"  {_fmt(groups[g].get(k)):>{w}}" for g, w in columns.items()))
    return lines


class Matches:
    """Games to play, up to `concurrency` at once, each on its own table with its own seats and
    seed: (n, key, Match) with n the game's number (`ended(n, table)` is called as it ends) and
    key its campaign key (server/runs/campaign/: stored with the game, under `campaign`), or
    None outside a campaign. No game starts once `stop()` was called or `budget_reached()` says
    so."""

    def __init__(self, server: Server, pending: Iterable[tuple[int, str | None, Match]],
                 on_bot_failure: str, *, campaign: str | None = None, total: int | None = None,
                 budget_reached: Callable[[], bool] = lambda: False,
                 ended: Callable[[int, Table], None] | None = None) -> None:
        self.server = server
        self.campaign = campaign
        self.on_bot_failure = on_bot_failure
        self.budget_reached = budget_reached
        self.ended = ended
        self.total = len(pending) if total is None else total  # type: ignore[arg-type]
        self._next = iter(pending)  # shared by the tasks: each takes the next game
        self.playing: set[Table] = set()
        self.done = 0
        self.actions = 0  # of the games done
        self.stopping = False
        self.budget_stopped = False

    async def play(self, concurrency: int) -> None:
        await run_workers(self._worker, min(concurrency, self.total))

    async def stop(self) -> None:
        """Start no more games and void those in flight; `play` then returns. (Cancelling
        `play` instead may catch a table while it starts, which leaves its game 'running'.)"""
        self.stopping = True
        for table in list(self.playing):
            if table.status == "playing":  # one still starting is closed once it has started
                await table.close()

    def counts(self) -> tuple[int, int]:
        """Games done and actions so far (the games still playing included)."""
        return self.done, self.actions + sum(t.game.step for t in self.playing if t.game)

    async def _worker(self) -> None:
        for n, key, match in self._next:
            if self.stopping:
                return
            if self.budget_reached():
                self.budget_stopped = True
                return
            table = self.server.create_table(
                match.env_id, match.preset, match.overrides, list(match.specs), match.seed,
                self.on_bot_failure, players=match.players,
                campaign=None if key is None or self.campaign is None else (self.campaign, key))
            self.playing.add(table)
            try:
                await table.start()
                if self.stopping:
                    await table.close()
                await table.done.wait()
            finally:
                self.playing.discard(table)
            if self.ended is not None:
                self.ended(n, table)
            self.done += 1
            self.actions += table.game.step if table.game else 0
            # The store has the game: drop the table (and its game) now, not 50 games later.
            self.server.tables.pop(table.id, None)


class Games(Matches):
    """Games `numbers` of a run (all of them, or one worker's share), up to `concurrency` at
    once, each on its own table, each folded into `summary` as it ends. Game k is seeded
    seed + k whatever order games end in (or which process plays it), so results do not depend
    on concurrency or workers."""

    def __init__(self, server: Server, args: argparse.Namespace, overrides: dict[str, Any],
                 summary: Summary, numbers: range) -> None:
        games = ((k, None, Match(args.env, args.preset, tuple(args.seat), args.seed + k,
                                 overrides, args.players)) for k in numbers)
        super().__init__(server, games, args.on_bot_failure, total=len(numbers),
                         ended=lambda k, table: summary.add(
                             k, table, {s.index: s.failed_calls for s in table.seats}))

    @classmethod
    async def open(cls, args: argparse.Namespace, overrides: dict[str, Any], summary: Summary,
                   *, db: str, instance: str, numbers: range | None = None) -> Games:
        # Nobody watches a sim: each game is written in one transaction at its end (a kill loses
        # the games under way, which are replayed by nobody; see docs/architecture.md).
        server = Server(db, durability="game", instance=instance,
                        bot_policy=BotPolicy.command_line())  # the user's own --seat specs
        server.store = await Store.open(db, instance)
        # As `parlor serve`: with CPython's defaults the collector took 0.55 ms of CPU per LLM
        # decision against a fast endpoint, 0.26 ms so (benchmarks/llm_pace.py).
        tune_gc()
        return cls(server, args, overrides, summary,
                   range(args.games) if numbers is None else numbers)

    async def close(self) -> None:
        await self.server.stop()  # voids a game still playing after an error or ctrl-c


async def run_workers(worker: Callable[[], Awaitable[None]], count: int) -> None:
    """Run `count` copies of `worker` at once until all end; the first failure is raised as
    itself (not as an ExceptionGroup)."""
    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(count):
                group.create_task(worker())
    except ExceptionGroup as errors:
        raise errors.exceptions[0] from None


def run_instance(worker: int | None = None) -> str:
    """The name a run's store stamps on its games (new for every run), by which the run's
    per-game metrics are read back for the env's aggregate."""
    run = secrets.token_hex(4)
    return f"sim-{run}" if worker is None else f"sim{worker}-{run}"


def _fmt(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
