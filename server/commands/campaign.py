"""`parlor campaign run|status`: a campaign's manifest of games (written by `parlor league ...
--plan FILE` or `parlor sim ... --plan FILE` before anything runs) played, resumable, within a
budget and per-endpoint limits, here or on Ray, then its league's report; and what a database
holds of it (server/runs/campaign/)."""

from __future__ import annotations

import argparse
from typing import Any

from server.commands import league
from server.commands.league import add_campaign_options


def add_parser(sub: Any) -> None:
    campaign = sub.add_parser("campaign", help="run and follow a campaign of bot games planned "
                                               "with --plan (resumable, with a budget; on Ray "
                                               "too)")
    verbs = campaign.add_subparsers(dest="campaign_command", required=True)
    run = verbs.add_parser("run", help="play a manifest's games not yet finished in --db, "
                                       "then print its league's report")
    run.add_argument("manifest", metavar="FILE")
    run.add_argument("--db", required=True, help="the SQLite file the games go to (a rerun on "
                                                 "it plays only what is missing)")
    run.add_argument("--concurrency", type=int, default=1, metavar="N",
                     help="games at once per process (default 1; results do not depend on it)")
    run.add_argument("--workers", type=int, default=1, metavar="N",
                     help="local processes, one core each (default 1)")
    run.add_argument("--on-bot-failure", default="void", choices=("void", "default", "wait"),
                     help="when a bot's provider fails (void games are played again on the "
                          "next run)")
    run.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    add_campaign_options(run)
    status = verbs.add_parser("status", help="what --db holds of a manifest's games")
    status.add_argument("manifest", metavar="FILE")
    status.add_argument("--db", required=True)
    status.add_argument("--json", action="store_true", help="print it as JSON")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from server.runs.campaign.command import campaign_status, run_campaign

    if args.campaign_command == "status":
        return campaign_status(args)
    status, finished = run_campaign(args)
    if finished is None or not finished.command:
        return status
    # Every game is stored: the league's own command reads them back and reports (it plays
    # nothing).
    report = parser.parse_args([*finished.command, "--db", args.db, "--quiet"])
    report.argv = list(finished.command)
    return league.run(report, parser)
