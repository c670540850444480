"""Playing a campaign's manifest into a SQLite store: the games not finished there yet, up to
`concurrency` at once in this process, in `--workers` processes (server/runs/league_workers.py)
or on a Ray cluster (ray_backend.py), through the same table driver and store as live play.

A game is recorded when it ends, in one transaction with its key (`games.game_key`); a game
still playing when the run is stopped (ctrl-c, a failure) is voided, and a run that was killed
leaves its games "running", which the next run voids first (the server's own recovery, for the
campaign's tag only). Void games are played again. So a rerun plays exactly the games that have
no finished record, whatever stopped the run before. One run per campaign and database at a
time: two would void each other's games.

Every LLM call of the run goes through its server's client pool: calls in flight and requests
per minute per endpoint (`limits`, shared by every seat and model calling it), and the meter of
spend and errors the progress line shows; once the spend reaches `budget`, no new game starts
(the games in flight finish)."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import Sequence
from typing import Any

from server.net.app import Server
from server.net.serve import tune_gc
from server.runs.campaign.manifest import Manifest, Planned
from server.runs.campaign.options import (
    RunError,
    RunOptions,
    RunOutcome,
    reached,
    spend_line,
    unreachable_error,
)
from server.runs.games import Matches
from server.runs.progress import Progress, drawn
from server.store.store import Store
from server.tables.policy import BotPolicy
from server.tables.seating import split_spec
from server.wire import protocol as p


async def open_server(db: str, manifest: Manifest, policy: BotPolicy | None = None) -> Server:
    """A headless server on the database for the campaign's games, the games a killed run of
    the campaign's tag left running voided first."""
    server = Server(db, durability="game", instance=manifest.tag,
                    bot_policy=policy or BotPolicy.command_line(), rated=manifest.rated)
    try:
        server.store = await Store.open(db, manifest.tag)
    except (OSError, sqlite3.Error, RuntimeError) as e:  # a folder, a newer schema, ...
        raise RunError(f"cannot open the database {db or '(scratch)'}: {e}") from None
    # As `parlor serve`: CPython's default collector thresholds cost an LLM decision more CPU
    # than the rest of Parlor's work (benchmarks/llm_pace.py).
    tune_gc()
    try:
        await server.recover()
    except BaseException:
        await server.stop()
        raise
    return server


def finished_keys(conn: sqlite3.Connection, tag: str) -> dict[str, int]:
    """{game key: id} of the finished campaign games under the tag (the latest of two)."""
    return {key: game_id for key, game_id in conn.execute(
        "SELECT game_key, id FROM games WHERE instance = ? AND status = 'finished' AND "
        "game_key IS NOT NULL ORDER BY id", (tag,))}


async def stored_games(store: Store, manifest: Manifest) -> dict[int, int]:
    """{game number: stored id} of the manifest's finished games."""
    found = await store.read_with(lambda conn: finished_keys(conn, manifest.tag))
    return {n: found[key] for n, key in enumerate(manifest.keys) if key in found}


async def play(server: Server, db: str, manifest: Manifest, options: RunOptions) -> RunOutcome:
    """Play the manifest's games that have no finished record in the server's store."""
    assert server.store is not None
    server.llm_clients.endpoint_limits = dict(options.limits)
    done = await stored_games(server.store, manifest)
    pending = [(n, manifest.keys[n], m) for n, m in enumerate(manifest.games) if n not in done]
    outcome = RunOutcome(len(manifest.games), len(done), 0, server.llm_clients.meter)
    if not pending:
        return outcome
    specs = {split_spec(s)[1] for _, _, m in pending for s in m.specs}
    if options.backend != "ray":  # on Ray, where the keys are: a node checks them
        await check_endpoints(specs)
    if done and not options.quiet:
        print(f"{options.label}: {len(done)} of {len(manifest.games)} games already stored; "
              f"playing {len(pending)}", file=sys.stderr, flush=True)
    try:
        if options.backend == "ray":
            from server.runs.campaign.ray_backend import play_on_ray

            await play_on_ray(server, manifest, pending, specs, options, outcome)
        elif options.workers > 1 and len(pending) > 1:
            from server.runs.campaign.workers import play_in_workers

            why = await asyncio.to_thread(play_in_workers, db, manifest, pending,
                                          min(options.workers, len(pending)), options, outcome)
            if why == "interrupted":
                raise KeyboardInterrupt
            if why is not None:
                raise RunError(why, 1)
        else:
            await _play_here(server, manifest, pending, options, outcome)
    except p.ProtocolError as e:  # a game's table refused (a bad config or seat)
        raise RunError(e.message) from None
    return outcome


async def _play_here(server: Server, manifest: Manifest, pending: Sequence[Planned],
                     options: RunOptions, outcome: RunOutcome) -> None:
    meter = outcome.meter
    games = Matches(server, pending, options.on_bot_failure, campaign=manifest.id,
                    budget_reached=lambda: reached(meter.cost, options.budget))
    progress = None if options.quiet else Progress(
        options.label, len(pending), games.counts, sys.stderr,
        extra=lambda: spend_line(meter, options.budget))
    try:
        async with drawn(progress):
            await games.play(options.concurrency)
    finally:
        outcome.played = games.done
        outcome.budget_reached = games.budget_stopped


async def check_endpoints(specs: set[str]) -> None:
    """Every LLM seat's key and endpoint answer (as `parlor bots check` checks them), before
    the first game; else RunError (status 1) naming each that failed."""
    from bots.llm.check import unreachable

    failed = await unreachable(specs)
    if failed:
        raise unreachable_error(failed)


async def status(db: str, manifest: Manifest) -> dict[str, Any]:
    """What the database holds of the campaign: finished, void and interrupted attempts, what
    is left, and the stored spend of its games."""
    def read(conn: sqlite3.Connection) -> dict[str, Any]:
        finished = finished_keys(conn, manifest.tag)
        keys = set(manifest.keys)
        done = sum(1 for key in manifest.keys if key in finished)
        attempts = dict(conn.execute(
            "SELECT status, count(*) FROM games WHERE campaign = ? AND status != 'finished' "
            "GROUP BY status", (manifest.id,)).fetchall())
        spend, calls = conn.execute(
            "SELECT coalesce(sum(json_extract(a.usage, '$.cost')), 0), count(a.usage) "
            "FROM actions a JOIN games g ON g.id = a.game_id WHERE g.campaign = ? AND "
            "a.usage IS NOT NULL", (manifest.id,)).fetchone()
        return {"id": manifest.id, "title": manifest.title, "tag": manifest.tag,
                "games": len(manifest.games), "finished": done,
                "to_play": len(keys) - done, "void": attempts.get("void", 0),
                "running": attempts.get("running", 0), "spend": spend,
                "llm_decisions": calls}

    store = await Store.open(db, manifest.tag)
    try:
        return await store.read_with(read)
    finally:
        await store.close()
