"""`parlor league`: SocialGrid's Crew Elo league (server/runs/crew_elo.py), MindGames' MG-Ref
tournament (server/runs/mgref.py), SocialMaze's tasks (server/runs/maze_league.py),
AmongAgents' evaluation (server/runs/amongagents.py) and the Impostor game's grid
(server/runs/impostor.py)."""

from __future__ import annotations

import argparse
from typing import Any

from server.runs.campaign.options import BACKENDS


def add_parser(sub: Any) -> None:
    league = sub.add_parser("league", help="bot leagues with a report of ratings")
    leagues = league.add_subparsers(dest="league_command", required=True)
    elo = leagues.add_parser("socialgrid-elo", help="SocialGrid's Crew Elo league: every "
                             "ordered pair of models (crew, impostors) plus self-play")
    elo.add_argument("--models", nargs="+", required=True, metavar="SPEC",
                     help="bot specs, e.g. random scripted:agent openai:gpt-4o-mini")
    elo.add_argument("--episodes", type=int, required=True, metavar="N",
                     help="episodes per ordered pair")
    elo.add_argument("--preset", default=None, help="default league-10x10")
    elo.add_argument("--config", action="append", default=[], metavar="KEY=VALUE",
                     help="override a config value (repeat)")
    elo.add_argument("--seed", type=int, default=0, help="the league's seed (default 0)")
    _league_options(elo)
    _add_mgref_parser(leagues)
    maze = leagues.add_parser("maze", help="SocialMaze's tasks: every model on the same "
                                           "instances, accuracy beside the paper's numbers")
    maze.add_argument("--task", nargs="+", default=None, metavar="TASK",
                      help="the tasks (default: every SocialMaze task this build plays)")
    maze.add_argument("--seat", nargs="+", required=True, metavar="[TASK:]SPEC",
                      help="the models, e.g. scripted:solver openai:gpt-4o-mini "
                           "social-graph:scripted:majority (TASK: for one task only)")
    maze.add_argument("--instances", type=int, default=None, metavar="N",
                      help="instances per task (instance k is generated from seed S + k); with "
                           "--stored or --file, play only the first N")
    maze.add_argument("--stored", action="store_true",
                      help="play the instances stored in --db by `parlor maze import` (the "
                           "paper's release files, say), every task that has some or --task's")
    maze.add_argument("--source", default=None, metavar="NAME",
                      help="with --stored: only the instances of this source (the imported "
                           "file's name or its --source)")
    maze.add_argument("--file", default=None, metavar="FILE",
                      help="play a dataset file's instances (the authors' release format or "
                           "our JSON Lines; its task told from its content, or --task)")
    maze.add_argument("--preset", default=None, help="the tasks' preset (default: each "
                                                     "task's own, e.g. paper)")
    maze.add_argument("--seed", type=int, default=0, help="the first instance's seed (0)")
    _league_options(maze)
    _add_amongagents_parser(leagues)
    _add_impostor_parser(leagues)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.league_command == "impostor":
        from server.runs.impostor import run_league as run_impostor

        return run_impostor(args)
    if args.league_command == "amongagents":
        from server.runs.amongagents import run_league as run_amongagents

        return run_amongagents(args)
    if args.league_command == "maze":
        from server.runs.maze_league import run_maze_league

        return run_maze_league(args)
    if args.league_command == "mgref":
        from server.runs.mgref import run_mgref

        return run_mgref(args)
    from server.runs.crew_elo import run_league

    return run_league(args)


def _league_options(league: argparse.ArgumentParser) -> None:
    """What every league command takes: where its games go, how many at once, bot failures,
    the report as JSON, the progress line."""
    league.add_argument("--db", default=None, help="store the games in this SQLite file; the "
                                                   "league run again on it plays only what is "
                                                   "missing")
    league.add_argument("--concurrency", type=int, default=1, metavar="N",
                        help="games played at once (default 1; results do not depend on it)")
    league.add_argument("--on-bot-failure", default="void", choices=("void", "default", "wait"),
                        help="when a bot's provider fails (as `parlor sim`; void games are "
                             "left out and played again on resume)")
    league.add_argument("--json", default=None, metavar="FILE",
                        help="also write the report here")
    league.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    league.add_argument("--plan", default=None, metavar="FILE",
                        help="write the league's games to this campaign manifest and stop; "
                             "`parlor campaign run FILE` plays them (on Ray, say) and reports")
    add_campaign_options(league)


def _add_amongagents_parser(leagues: argparse._SubParsersAction) -> None:
    from engine.amongagents.published import GAMES_PER_SETUP, SETUPS

    among = leagues.add_parser(
        "amongagents", help="AmongAgents' end-to-end evaluation: a model against random in "
                            "four setups, with and without the planner, beside the paper's "
                            "Table 1")
    among.add_argument("--seat", required=True, metavar="SPEC",
                       help="the model under test, e.g. openai:gpt-4o-mini (or a scripted "
                            "stand-in, scripted:agent)")
    among.add_argument("--setup", nargs="+", choices=SETUPS, default=None,
                       help="the setups (default: all four)")
    among.add_argument("--planner", nargs="+", choices=("on", "off"), default=None,
                       help="the planner settings of the model's rows (default: on and off)")
    among.add_argument("--games", type=int, default=GAMES_PER_SETUP, metavar="N",
                       help=f"games per row (default {GAMES_PER_SETUP}, the paper's)")
    among.add_argument("--baseline", default="random", metavar="SPEC",
                       help="the other side's bot (default random, the paper's baseline)")
    among.add_argument("--interview", action="store_true",
                       help="the model's seats answer the interviewer's questions (§14.1)")
    among.add_argument("--judge", default=None, metavar="SPEC",
                       help="a judge model that scores the interview answers and labels the "
                            "All-LLM games' speeches (default: nothing is judged)")
    among.add_argument("--config", action="append", default=[], metavar="KEY=VALUE",
                       help="override a value of the paper preset (repeat), e.g. "
                            "max_timesteps=20")
    among.add_argument("--seed", type=int, default=0, help="the evaluation's seed (default 0)")
    _league_options(among)
    _workers_option(among)


def _add_impostor_parser(leagues: argparse._SubParsersAction) -> None:
    from engine.impostor.config import MODES
    from engine.impostor.grid import GAMES_PER_EXPERIMENT, RESAMPLES
    from engine.impostor.words import TIERS

    grid = leagues.add_parser(
        "impostor", help="the Impostor game's experiment grid: every model alone, in ordered "
                         "cross-play pairs and unordered teams, per tier, with the paper's "
                         "statistics")
    grid.add_argument("--models", nargs="+", required=True, metavar="SPEC",
                      help="the models, e.g. openai:gpt-4o anthropic:claude-sonnet-4-0 "
                           "scripted:describer")
    grid.add_argument("--tiers", nargs="+", choices=TIERS, default=None,
                      help="the difficulty tiers (default: all four)")
    grid.add_argument("--modes", nargs="+", choices=MODES, default=None,
                      help="the assignment modes (default: all five)")
    grid.add_argument("--games-per-experiment", type=int, default=GAMES_PER_EXPERIMENT,
                      metavar="N", help=f"games per experiment (default {GAMES_PER_EXPERIMENT}, "
                                        f"the paper's)")
    grid.add_argument("--resamples", type=int, default=RESAMPLES, metavar="N",
                      help=f"block-bootstrap resamples of the intervals (default {RESAMPLES})")
    grid.add_argument("--seed", type=int, default=0, help="the grid's seed (default 0)")
    _league_options(grid)
    _workers_option(grid)


def _workers_option(league: argparse.ArgumentParser) -> None:
    league.add_argument("--workers", type=int, default=1, metavar="N",
                        help="processes playing the games, one core each, all writing to one "
                             "database (default 1; results do not depend on it)")


def _add_mgref_parser(leagues: argparse._SubParsersAction) -> None:
    from engine.mgref_schedule import ENVS

    mgref = leagues.add_parser(
        "mgref", help="MindGames' MG-Ref offline tournament: one candidate against frozen "
                      "references, 198 scheduled games over the four MindGames envs")
    mgref.add_argument("--candidate", action="append", required=True, metavar="[ENV:]SPEC",
                       help="the bot to score (repeat with ENV: for a bot per env)")
    mgref.add_argument("--refs", nargs="+", required=True, metavar="[ENV:]SPEC[=MU,SIGMA]",
                       help="the references with their frozen TrueSkill priors (default "
                            "25,8.33), e.g. colonel-blotto:scripted:adaptive=29.8,1.2")
    mgref.add_argument("--env", nargs="+", default=list(ENVS), choices=ENVS, metavar="ENV",
                       help=f"the envs to play (default all: {', '.join(ENVS)})")
    mgref.add_argument("--replicates", type=int, default=1, metavar="N",
                       help="multiply every design's replicates (default 1: 30/36/36/96 games "
                            "with the paper's 3/3/3/4 references)")
    _league_options(mgref)


def add_campaign_options(parser: argparse.ArgumentParser) -> None:
    """What every command that plays a campaign takes (`campaign run`, each league)."""
    parser.add_argument("--budget", type=float, default=None, metavar="USD",
                        help="start no new game once the LLM calls cost this much (by the "
                             "price table; the games in flight finish)")
    parser.add_argument("--limit", type=_limit, action="append", default=None,
                        metavar="PROVIDER=CALLS[/RPM]",
                        help="at most CALLS calls in flight (and RPM requests a minute) to each "
                             "endpoint of the provider, over every seat and model (repeat), "
                             "e.g. openai=64/500 anthropic=16 openai-compatible=32")
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="where the games are played: this machine (default) or a Ray "
                             "cluster (docs/scaling.md)")
    parser.add_argument("--address", default=None, metavar="ADDR",
                        help="with --backend ray: the cluster's address (default: a Ray "
                             "started on this machine for the run)")


def _limit(text: str) -> tuple[str, tuple[int, int]]:
    from bots.llm.spec import PROVIDERS

    provider, sep, value = text.partition("=")
    calls, _, rpm = value.partition("/")
    if not sep or provider not in PROVIDERS:
        raise argparse.ArgumentTypeError(
            f"{text!r}: write PROVIDER=CALLS[/RPM], PROVIDER one of {', '.join(PROVIDERS)}")
    try:
        limits = (int(calls), int(rpm or 0))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: CALLS and RPM are whole numbers") from None
    if limits[0] < 1 or limits[1] < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: CALLS must be at least 1, RPM at least 0")
    return provider, limits
