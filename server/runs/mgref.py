"""`parlor league mgref`: the MG-Ref offline tournament (MindGames spec §9, Appendix J) of one
candidate against frozen references, in every MindGames env: the deterministic schedule of
engine/mgref_schedule.py played through the shared league runner (stored under the
tournament's tag, resumable, games that leave the database's ratings alone), then the report of
server/reports/mgref.py.

References and candidates are bot specs, optionally for one env only (`ENV:SPEC`, e.g.
`colonel-blotto:scripted:adaptive`), a reference optionally with its frozen TrueSkill prior
(`SPEC=MU,SIGMA`; without one it is held at the competition prior 25 ± 8.33). A spec without
an env plays in every env the tournament runs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import time
from dataclasses import dataclass

from bots.registry import BotSpecError, check_spec
from engine.mgref_schedule import ENVS, MIN_REFS, Scheduled, schedule
from engine.registry import get
from server.reports.mgref import Prior, Report, env_result
from server.runs.campaign.manifest import Match
from server.runs.league_runner import (
    LeagueError,
    check_json_path,
    identities,
    play_league,
    run_command,
)
from server.store import ratings
from server.tables.policy import BotPolicy

COMMAND = "parlor league mgref"
_PRIOR = re.compile(r"^(?P<spec>.+)=(?P<mu>-?\d+(?:\.\d*)?),(?P<sigma>\d+(?:\.\d*)?)$")


@dataclass(frozen=True)
class Plan:
    envs: list[str]
    candidates: dict[str, str]  # env -> spec
    refs: dict[str, dict[str, Prior]]  # env -> spec -> frozen prior
    games: dict[str, list[Scheduled]]  # env -> the schedule
    tag: str


def run_mgref(args: argparse.Namespace) -> int:
    return run_command(COMMAND, args, _plan, _run)


def _env_and_spec(text: str) -> tuple[str | None, str]:
    head, sep, rest = text.partition(":")
    return (head, rest) if sep and head in ENVS else (None, text)


def _plan(args: argparse.Namespace) -> Plan:
    if args.replicates < 1:
        raise LeagueError(f"--replicates must be at least 1, got {args.replicates}")
    if args.concurrency < 1:
        raise LeagueError(f"--concurrency must be at least 1, got {args.concurrency}")
    check_json_path(args.json)
    envs = [e for e in ENVS if e in args.env]
    candidates: dict[str | None, str] = {}
    for text in args.candidate:
        env, spec = _env_and_spec(text)
        if env in candidates:
            raise LeagueError(f"--candidate names two bots for {env or 'every env'}")
        candidates[env] = spec
    refs: dict[str, dict[str, Prior]] = {e: {} for e in envs}
    for text in args.refs:
        env, spec, prior = _ref(text)
        for e in [env] if env else envs:
            if e in refs:
                if spec in refs[e]:
                    raise LeagueError(f"--refs names {spec} twice for {e}")
                refs[e][spec] = prior
    games, chosen = {}, {}
    for e in envs:
        spec = candidates.get(e, candidates.get(None))
        if spec is None:
            raise LeagueError(f"no --candidate for {e}: give one for every env, or ENV:SPEC")
        for bot in [spec, *refs[e]]:  # an unknown bot is named before any count is judged
            try:
                check_spec(bot, e)
            except BotSpecError as error:
                raise LeagueError(str(error)) from None
        if len(refs[e]) < MIN_REFS[e]:
            raise LeagueError(f"{e} needs at least {MIN_REFS[e]} references, got "
                              f"{len(refs[e])}")
        chosen[e] = spec
        games[e] = schedule(e, spec, list(refs[e]), args.replicates)
    return Plan(envs, chosen, refs, games, _tag())


def _ref(text: str) -> tuple[str | None, str, Prior]:
    env, rest = _env_and_spec(text)
    found = _PRIOR.match(rest)
    if found is None:
        if re.search(r"=[-\d.]+(,[-\d.]*)?$", rest) and "?" not in rest:
            raise LeagueError(f"a reference's prior is =MU,SIGMA (e.g. =29.8,1.2), got {text!r}")
        return env, rest, (ratings.MU, ratings.SIGMA)
    mu, sigma = float(found["mu"]), float(found["sigma"])
    if sigma <= 0:
        raise LeagueError(f"a reference's sigma must be positive, got {text!r}")
    return env, found["spec"], (mu, sigma)


def _tag() -> str:
    """One tag for the envs' rules and configs: games played under other rules never pass for
    this tournament's (a game is found by its key, whichever envs a run plays)."""
    text = json.dumps([[e, get(e).rules_version, get(e).config().to_json()] for e in ENVS],
                      sort_keys=True)
    return "mgref-" + hashlib.sha256(text.encode()).hexdigest()[:10]


async def _run(args: argparse.Namespace, plan: Plan, started: float) -> Report:
    policy = BotPolicy.command_line()  # the user's own specs, as `parlor sim`
    needed = [(e, spec) for e in plan.envs for spec in [plan.candidates[e], *plan.refs[e]]]
    await identities(needed, policy)  # each spec can play
    matches = {Match(g.env, None, g.seats, g.seed): g
               for e in plan.envs for g in plan.games[e]}
    found, played = await play_league(args, plan.tag, list(matches), policy, rated=False)
    results = [env_result(get(e), plan.candidates[e], plan.refs[e],
                          [(g, found.get(Match(g.env, None, g.seats, g.seed)))
                           for g in plan.games[e]])
               for e in plan.envs]
    return Report(results, played, time.monotonic() - started)
