"""`parlor league socialgrid-elo`: SocialGrid's Crew Elo league (spec §15) between bot specs.

Every ordered pair of the models (one plays every crewmate, the other every impostor), self-play
included, plays --episodes bot-only games on the preset (engine/socialgrid/league.py), through the
shared league runner (server/runs/league_runner.py: stored under the league's tag, resumable); the
ratings and win rates are read back from the stored games (server/reports/crew_elo.py).

A stored game is a league episode when it carries the league's tag (the store's `instance`
column: the env, its rules version and the whole config, hashed) and the episode's key (its
seed and the bot specs it seats, hashed: server/runs/campaign/manifest.py).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from engine.core import Config, ConfigError, Env
from engine.registry import get
from engine.socialgrid.league import CREW, Episode, schedule
from server.reports.crew_elo import Outcome, Report, crew_votes
from server.runs.campaign.manifest import Match
from server.runs.league_runner import (
    LeagueError,
    check_models,
    check_run_options,
    config_overrides,
    identities,
    league_tag,
    play_league,
    run_command,
)
from server.tables.policy import BotPolicy
from server.tables.seating import SeatingError, resolve_seats

ENV_ID = "socialgrid"
DEFAULT_PRESET = "league-10x10"
COMMAND = "parlor league socialgrid-elo"


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
    return run_command(COMMAND, args, _plan, _run)


def _plan(args: argparse.Namespace) -> Plan:
    env = get(ENV_ID)
    if args.episodes < 1:
        raise LeagueError(f"--episodes must be at least 1, got {args.episodes}")
    check_run_options(args)
    check_models(args.models)
    preset = args.preset or DEFAULT_PRESET
    overrides = config_overrides(args.config)
    try:
        config = env.config(preset, overrides)
        plan = Plan(env, preset, overrides, config, list(args.models),
                    schedule(args.models, args.episodes, args.seed), league_tag(env, config))
        resolve_seats(env, config, plan.schedule[0].seed, plan.schedule[0].specs)
    except (ConfigError, SeatingError) as e:
        raise LeagueError(str(e)) from None
    return plan


async def _run(args: argparse.Namespace, plan: Plan, started: float) -> Report:
    policy = BotPolicy.command_line()  # the user's own specs, as `parlor sim`
    await identities([(ENV_ID, spec) for spec in plan.models], policy)  # each spec can play
    matches = {Match(ENV_ID, plan.preset, tuple(e.specs), e.seed, plan.overrides): e
               for e in plan.schedule}
    found, played = await play_league(args, plan.tag, list(matches), policy)
    outcomes = []
    for match, episode in matches.items():
        game = found.get(match)
        if game is None or "game" not in game.metrics:
            outcomes.append(Outcome(episode, None))
            continue
        votes = crew_votes(game.metrics.get("seats", {}),
                           crew_seats(plan.env, plan.config, episode))
        outcomes.append(Outcome(episode, bool(game.metrics["game"]["crew_won"]), votes))
    changed = ", ".join(f"{k}={v}" for k, v in plan.overrides.items())
    title = f"SocialGrid Crew Elo league, {plan.preset}" + (f" ({changed})" if changed else "")
    return Report(title, plan.models, outcomes, played, time.monotonic() - started)


def crew_seats(env: Env, config: Config, episode: Episode) -> list[int]:
    """The seats the crew model holds in the episode."""
    roles = env.assign_roles(config, episode.seed, env.default_players())
    return [i for i, role in enumerate(roles) if role.side == CREW]
