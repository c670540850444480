"""`parlor league socialgrid-elo`: SocialGrid's Crew Elo league (spec §15) between bot specs.

Every ordered pair of the models (one plays every crewmate, the other every impostor), self-play
included, plays --episodes bot-only games on the preset (server/league_schedule.py), each through
the same table driver and store as `parlor sim` (server.app.Server, Table, durability "game",
SQLite's scratch database without --db); the ratings and win rates are read back from the
stored games (server/league_report.py).

Resuming: a league's games are stored under its tag (the store's `instance`), each with its
episode's seed and seat identities, so a run with the same --db plays only the episodes that
have no finished game there yet. Games a killed run left "running" are voided first (the server's
own recovery, for this tag only); void episodes are played again. One league per database at a
time: two runs of the same league on one file would void each other's games in flight.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bots.base import BotError
from bots.registry import BotSpecError, make_bot
from engine.core import Config, ConfigError, Env
from engine.registry import get
from server import protocol as p
from server.app import Server
from server.league_report import Outcome, Report, crew_votes
from server.league_schedule import (
    Episode,
    crew_seats,
    league_tag,
    schedule,
    seat_identities,
)
from server.policy import BotPolicy
from server.progress import Progress
from server.seating import SeatingError, resolve_seats, split_spec
from server.sim import SCRATCH_DB, run_workers
from server.store import Store
from server.tables import Table

ENV_ID = "socialgrid"
DEFAULT_PRESET = "league-10x10"
COMMAND = "parlor league socialgrid-elo"


class LeagueError(Exception):
    """Bad input, said in one line; the command exits with status 2."""


@dataclass(frozen=True)
class Plan:
    """The checked command line: what to play and where its games are found."""

    env: Env
    preset: str
    overrides: dict[str, Any]
    config: Config
    models: list[str]
    schedule: list[Episode]
    tag: str


def run_league(args: argparse.Namespace) -> int:
    """The exit status: 0, or 2 on bad input (one line on stderr, as the other commands)."""
    started = time.monotonic()
    try:
        plan = _plan(args)
        report = asyncio.run(_run(args, plan, started))
    except LeagueError as e:
        print(f"{COMMAND}: error: {e}", file=sys.stderr)
        return 2
    print(report.render())
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_json(), indent=2) + "\n")
    if args.db:
        print(f"Stored in {args.db}.")
    return 0


def _plan(args: argparse.Namespace) -> Plan:
    env = get(ENV_ID)
    if args.episodes < 1:
        raise LeagueError(f"--episodes must be at least 1, got {args.episodes}")
    if args.concurrency < 1:
        raise LeagueError(f"--concurrency must be at least 1, got {args.concurrency}")
    if args.json and not Path(args.json).expanduser().absolute().parent.is_dir():
        raise LeagueError(f"--json {args.json}: its folder does not exist")
    _check_models(args.models)
    preset = args.preset or DEFAULT_PRESET
    overrides = _overrides(args.config)
    try:
        config = env.config(preset, overrides)
        plan = Plan(env, preset, overrides, config, list(args.models),
                    schedule(args.models, args.episodes, args.seed), league_tag(env, config))
        resolve_seats(env, config, plan.schedule[0].seed, plan.schedule[0].specs)
    except (ConfigError, SeatingError) as e:
        raise LeagueError(str(e)) from None
    return plan


def _check_models(models: Sequence[str]) -> None:
    for spec in models:
        if spec == "human":
            raise LeagueError("the league seats bots only; play people with `parlor`")
        if split_spec(spec)[0] is not None:
            raise LeagueError(f"a model is a bot spec (e.g. random), not ROLE=SPEC: {spec!r}")
    twice = sorted({spec for spec in models if models.count(spec) > 1})
    if twice:
        raise LeagueError(f"--models names {', '.join(twice)} more than once")


def _overrides(pairs: Sequence[str]) -> dict[str, Any]:
    """--config KEY=VALUE pairs, values read as JSON when they are (as `parlor sim`)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise LeagueError(f"--config takes KEY=VALUE, got {pair!r}")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


async def _identities(models: Sequence[str], policy: BotPolicy) -> dict[str, str]:
    """Each model's identity (what its seats are stored as), building its bot once as a table
    would: an unknown spec or a missing key is bad input, found before any game is played."""
    out = {}
    for spec in models:
        try:
            bot = make_bot(spec, ENV_ID, 0, keys=policy.keys_for(spec))
        except (BotSpecError, BotError, ValueError) as e:
            raise LeagueError(str(e)) from None
        out[spec] = bot.identity
        close = getattr(bot, "aclose", None)
        if close is not None:
            await close()
    return out


async def _run(args: argparse.Namespace, plan: Plan, started: float) -> Report:
    policy = BotPolicy.command_line()  # the user's own specs, as `parlor sim`
    identities = await _identities(plan.models, policy)
    db = args.db or SCRATCH_DB
    server = Server(db, durability="game", instance=plan.tag, bot_policy=policy)
    try:
        server.store = await Store.open(db, plan.tag)
    except (OSError, sqlite3.Error, RuntimeError) as e:  # a folder, a newer schema, ...
        raise LeagueError(f"cannot open the database {db}: {e}") from None
    progress: Progress | None = None
    drawing: asyncio.Task[None] | None = None
    try:
        await server.recover()  # void the games a killed run of this league left running
        stored = await _stored(server.store, plan, identities)
        pending = [e for e in plan.schedule if e not in stored]
        if stored and not args.quiet:
            print(f"parlor league: {len(stored)} of {len(plan.schedule)} episodes already "
                  f"stored; playing {len(pending)}", file=sys.stderr, flush=True)
        games = Episodes(server, plan, pending, args.on_bot_failure)
        if not args.quiet:
            progress = Progress("parlor league", len(pending), games.counts, sys.stderr)
            drawing = asyncio.create_task(progress.run())
        await games.play(args.concurrency)
        stored = await _stored(server.store, plan, identities)
    except p.ProtocolError as e:
        raise LeagueError(e.message) from None
    finally:
        if drawing is not None:
            drawing.cancel()
        await server.stop()  # voids a game still playing after an error or ctrl-c
        if progress is not None:
            progress.finish()
    outcomes = [stored.get(e, Outcome(e, None)) for e in plan.schedule]
    changed = ", ".join(f"{k}={v}" for k, v in plan.overrides.items())
    title = f"SocialGrid Crew Elo league, {plan.preset}" + (f" ({changed})" if changed else "")
    return Report(title, plan.models, outcomes, len(pending), time.monotonic() - started)


async def _stored(store: Store, plan: Plan, identities: dict[str, str]
                  ) -> dict[Episode, Outcome]:
    """The scheduled episodes that have a finished game under the league's tag (the latest
    one, should there be two), with its outcome."""
    where = "instance = ? AND status = 'finished'"
    games = await store.fetch(f"SELECT id, seed, metrics FROM games WHERE {where} ORDER BY id",
                              (plan.tag,))
    seats: dict[int, list[str]] = defaultdict(list)
    for row in await store.fetch(f"SELECT game_id, identity FROM seats WHERE game_id IN "
                                 f"(SELECT id FROM games WHERE {where}) ORDER BY game_id, seat",
                                 (plan.tag,)):
        seats[row["game_id"]].append(row["identity"])
    found = {(g["seed"], tuple(seats[g["id"]])): json.loads(g["metrics"] or "{}")
             for g in games}
    out = {}
    for episode in plan.schedule:
        metrics = found.get((episode.seed, seat_identities(plan.env, plan.config, episode,
                                                           identities)))
        if metrics and "game" in metrics:
            votes = crew_votes(metrics.get("seats", {}),
                               crew_seats(plan.env, plan.config, episode))
            out[episode] = Outcome(episode, bool(metrics["game"]["crew_won"]), votes)
    return out


class Episodes:
    """The episodes to play, up to `concurrency` at once, each on its own table (as
    `sim.Games`, with each episode's own seats and seed); the store keeps the outcomes."""

    def __init__(self, server: Server, plan: Plan, pending: list[Episode],
                 on_bot_failure: str) -> None:
        self.server = server
        self.plan = plan
        self.on_bot_failure = on_bot_failure
        self._next = iter(pending)  # shared by the tasks: each takes the next episode
        self.total = len(pending)
        self.playing: set[Table] = set()
        self.done = 0
        self.actions = 0  # of the games done

    async def play(self, concurrency: int) -> None:
        await run_workers(self._worker, min(concurrency, self.total))

    def counts(self) -> tuple[int, int]:
        """Episodes done and actions so far (the games still playing included)."""
        return self.done, self.actions + sum(t.game.step for t in self.playing if t.game)

    async def _worker(self) -> None:
        plan = self.plan
        for episode in self._next:
            table = self.server.create_table(ENV_ID, plan.preset, plan.overrides, episode.specs,
                                             episode.seed, self.on_bot_failure)
            self.playing.add(table)
            try:
                await table.start()
                await table.done.wait()
            finally:
                self.playing.discard(table)
            self.done += 1
            self.actions += table.game.step if table.game else 0
            self.server.tables.pop(table.id, None)  # the store has it: drop table and game
