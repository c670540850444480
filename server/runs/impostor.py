"""`parlor league impostor`: the Impostor game paper's experiment grid (spec §2.4, §6) for any
list of models: per tier, each model alone (homogeneous), every ordered pair (cross-play) and every
unordered pair in the three team modes, counterbalanced as the env's grid says
(`engine/impostor/grid.py`), played through the shared league runner (stored under the league's
tag, resumable), then reported with the paper's statistics (`engine/impostor/statistics.py`)
beside its numbers (`server/reports/impostor.py`)."""

from __future__ import annotations

import argparse
import sqlite3
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import Env
from engine.impostor.grid import GridGame, build_grid, grid_games, grid_row
from engine.impostor.statistics import report as statistics
from engine.registry import get
from server.reports.impostor import Report
from server.runs.campaign.manifest import Match
from server.runs.league_runner import (
    LeagueError,
    check_models,
    check_run_options,
    identities,
    league_tag,
    play_scheduled,
    run_command,
    stored_metrics,
)
from server.store.store import Store
from server.tables.policy import BotPolicy

ENV_ID = "impostor"
COMMAND = "parlor league impostor"


@dataclass(frozen=True)
class Plan:
    env: Env
    models: list[str]
    games: list[GridGame]
    experiments: int
    tag: str


def run_league(args: argparse.Namespace) -> int:
    return run_command(COMMAND, args, _plan, _run)


def _plan(args: argparse.Namespace) -> Plan:
    env = get(ENV_ID)
    check_run_options(args)
    if args.resamples < 1:
        raise LeagueError(f"--resamples must be at least 1, got {args.resamples}")
    check_models(args.models)
    try:
        grid = build_grid(args.models, args.seed, games=args.games_per_experiment,
                          **({"tiers": args.tiers} if args.tiers else {}),
                          **({"modes": args.modes} if args.modes else {}))
    except ValueError as e:
        raise LeagueError(str(e)) from None
    return Plan(env, list(args.models), list(grid_games(grid)), len(grid),
                league_tag(env, env.config(), "grid"))


async def _run(args: argparse.Namespace, plan: Plan, started: float) -> Report:
    policy = BotPolicy.command_line()
    known = await identities([(ENV_ID, spec) for spec in plan.models], policy)
    same = [s for s in plan.models if [known[ENV_ID, m] for m in plan.models].count(
        known[ENV_ID, s]) > 1]
    if same:  # the statistics group seats by identity: it must tell the models apart
        raise LeagueError(f"{', '.join(same)} are one model to the store (the same identity, "
                          f"settings apart): list it once")
    matches = {Match(ENV_ID, None, g.seat_models, g.seed, g.overrides()): g for g in plan.games}

    async def collect(store: Store, ids: Mapping[Match, int]) -> dict[str, Any]:
        def rows(conn: sqlite3.Connection) -> Iterator[dict[str, Any]]:
            # `ids` is in the schedule's order: the bootstrap's experiments come in that order
            games = stored_metrics(conn, ids.values())
            for match, metrics in zip(ids, games, strict=True):
                if "game" in metrics:
                    yield grid_row(matches[match], metrics)

        return await store.read_with(lambda conn: statistics(
            rows(conn), resamples=args.resamples, seed=args.seed))

    figures, played = await play_scheduled(args, plan.tag, list(matches), policy,
                                           rated=False, collect=collect)
    return Report(models=plan.models, experiments=plan.experiments, scheduled=len(plan.games),
                  figures=figures, played=played, wall=time.monotonic() - started)
