"""`parlor sim`: bot-only games through the same table driver and store as live play, with a
summary per seat spec. Without --db the games go to a scratch store (ratings included) that is
deleted at the end.

Memory stays constant however many games are played: each game is folded into the summary when
it ends and its table is dropped; the env's aggregate is folded at the end from the run's stored
per-game metrics, read one game at a time. Up to
--concurrency games play at once; a live progress line goes to stderr unless --quiet."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sqlite3
import sys
from collections.abc import Iterable
from typing import Any

from bots.registry import BotSpecError, available, check_spec
from engine.core import ConfigError, Env, UnknownEnvError
from engine.registry import env_ids, get
from server.runs.campaign.manifest import Manifest, ManifestError, Match
from server.runs.games import SCRATCH_DB, Games, Summary, run_instance
from server.runs.league_runner import league_tag
from server.runs.progress import Progress
from server.tables.seating import SeatingError, resolve_seats, split_spec
from server.wire import protocol as p


def _overrides(pairs: list[str], parser: argparse.ArgumentParser) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            parser.error(f"--config takes KEY=VALUE, got {pair!r}")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def _validate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> dict[str, Any]:
    try:
        env = get(args.env)
    except UnknownEnvError:
        parser.error(f"unknown environment {args.env!r}; valid environments: "
                     f"{', '.join(env_ids())}")
    overrides = _overrides(args.config, parser)
    plain = all(split_spec(spec)[0] is None for spec in args.seat)
    if plain and args.players is None and len(args.seat) not in env.players:
        parser.error(f"{env.id} needs {' or '.join(map(str, env.players))} --seat options, got "
                     f"{len(args.seat)}")
    try:
        config = env.config(args.preset, overrides)
        resolve_seats(env, config, args.seed, args.seat, args.players)
    except (ConfigError, SeatingError) as e:
        parser.error(str(e))
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.concurrency < 1:
        parser.error("--concurrency must be at least 1")
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, got {args.workers}")
    bots = available(env.id)
    for spec in args.seat:
        bot = split_spec(spec)[1]
        if bot == "human":
            parser.error("parlor sim plays bots only; seat people with `parlor`")
        try:  # before the progress line starts
            check_spec(bot, env.id)
        except BotSpecError as e:
            parser.error(str(e))
    return {"env": env, "overrides": overrides, "bots": bots}


def check_endpoints(command: str, specs: Iterable[str]) -> bool:
    """Check every LLM seat's key and endpoint, as `parlor bots check` does, before the first
    game; False (each failure said on stderr) when one cannot answer."""
    from bots.llm.check import unreachable

    failed = asyncio.run(unreachable(specs))
    for spec, why in failed.items():
        print(f"{command}: {spec} cannot play: {why}", file=sys.stderr)
    if failed:
        print(f"{command}: no game was played; `parlor bots check SPEC` says more",
              file=sys.stderr)
    return not failed


async def _run(args: argparse.Namespace, overrides: dict[str, Any], summary: Summary
               ) -> dict[str, Any]:
    """Play the games, folding each into `summary` as it ends; returns the env's aggregate,
    folded from the stored per-game metrics. Nothing per game stays in memory."""
    instance = run_instance()
    games = await Games.open(args, overrides, summary, db=args.db or SCRATCH_DB,
                              instance=instance)
    store = games.server.store
    assert store is not None
    before = store.last_game_id()
    progress = None if args.quiet else Progress("parlor sim", args.games, games.counts,
                                                sys.stderr)
    drawing = asyncio.create_task(progress.run()) if progress else None
    try:
        await games.play(args.concurrency)
        return summary.env.aggregate_metrics(store.run_metrics([instance], before))
    finally:
        if drawing is not None:
            drawing.cancel()
        await games.close()
        if progress is not None:
            progress.finish()  # after ctrl-c too: how far it got, and the line ended


def _plan(args: argparse.Namespace, env: Env, overrides: dict[str, Any]) -> int:
    """Write the run's games as a campaign manifest (stored under a tag of the env, its rules
    and config, rated as `parlor sim` rates) instead of playing them."""
    config = env.config(args.preset, overrides)
    games = [Match(env.id, args.preset, tuple(args.seat), args.seed + k, overrides, args.players)
             for k in range(args.games)]
    try:
        manifest = Manifest(league_tag(env, config, "sim"), True, tuple(games),
                            f"parlor sim {env.id}")
        manifest.write(args.plan)
    except ManifestError as e:
        print(f"parlor sim: error: {e}", file=sys.stderr)
        return 2
    print(f"{len(games)} games planned in {args.plan} (campaign {manifest.id}); play them with "
          f"`parlor campaign run {args.plan} --db FILE`, read them with `parlor report {env.id} "
          f"--db FILE`")
    return 0


def _last_game_id(db: str | None) -> int:
    """The newest game id in `db` before the run (0: none, or no database yet)."""
    if not db or not os.path.exists(db):
        return 0
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
            return conn.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0]
    except sqlite3.Error:  # not a Parlor database yet: the run says so itself
        return 0


def _stored_ids(db: str, before: int) -> str:
    """": games 12-31" for the games `parlor sim` runs stored after game `before` (what
    `parlor replay ID` and the TUI's lobby `g` open), or nothing if it cannot tell."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
            first, last = conn.execute(
                "SELECT min(id), max(id) FROM games WHERE id > ? AND instance LIKE 'sim%'",
                (before,)).fetchone()
    except sqlite3.Error:
        return ""
    if first is None:
        return ""
    return f": game {first}" if first == last else f": games {first}-{last}"


def run_sim(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    checked = _validate(args, parser)
    if args.plan:
        return _plan(args, checked["env"], checked["overrides"])
    if not check_endpoints("parlor sim", (split_spec(spec)[1] for spec in args.seat)):
        return 1
    before = _last_game_id(args.db)
    if args.workers > 1:  # server/runs/sim_workers.py: the games shared out to N processes
        from server.runs.sim_workers import run_workers

        played = run_workers(args, checked["env"], checked["overrides"], parser)
        if isinstance(played, int):  # the run failed or was stopped: the exit status
            return played
        summary, aggregate = played
    else:
        summary = Summary(checked["env"])
        try:
            aggregate = asyncio.run(_run(args, checked["overrides"], summary))
        except p.ProtocolError as e:
            parser.error(e.message)
    print(summary.render(aggregate))
    if args.db:
        print(f"Stored in {args.db}{_stored_ids(args.db, before)}.")
    if summary.games == summary.void:
        print(f"parlor sim: no game was counted: all {summary.games} ended void"
              + (f" ({summary.failures()})" if summary.failures() else ""), file=sys.stderr)
        return 1
    return 0
