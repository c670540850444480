"""`parlor report ENV`: people beside models on the env's paper metrics, with intervals and
tests (server/reports/comparison.py; docs/reports.md). Read-only: safe beside a server. Bad
input exits 2 with one line naming the problem and the valid choices."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import Any

from server.store.location import DB_HELP

FORMATS = ("table", "csv", "json", "md")  # server.reports.tables.FORMATS
POOLS = ("all", "people", "bots", "mixed")  # server.reports.comparison.POOLS
BY = ("identity", "kind")  # server.reports.comparison.BY


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "report", help="people beside models on an environment's paper metrics",
        description="Compare people, models and scripted bots on the paper metrics of one "
                    "environment's stored games: per metric (and role, where the game has "
                    "roles) each group's games, value and 95% interval (Wilson for rates, a "
                    "seeded bootstrap for means and ratios) beside the paper's numbers, and "
                    "people against each bot by Fisher's exact test (rates) or a permutation "
                    "test (means, ratios) with the effect size and a warning when the sample "
                    "is too small. Only games with one preset, config and rules version are "
                    "pooled: the most played unless --preset/--config-hash say which. People are "
                    "named by pseudonym unless --names. Read-only: safe beside a server.")
    p.add_argument("env", metavar="ENV", help="the environment (see `parlor envs`)")
    p.add_argument("--preset", default=None, help="pool the games of this preset")
    p.add_argument("--config-hash", default=None, metavar="HASH",
                   help="pool the games of this config (its hash, as the report prints it)")
    p.add_argument("--by", default="identity", choices=BY,
                   help="a row per person, model and scripted bot (identity, the default) or "
                        "one per kind: people, models, scripted bots")
    p.add_argument("--since", default=None, metavar="DATE",
                   help="only games started on or after DATE (YYYY-MM-DD, UTC, or an ISO "
                        "time)")
    p.add_argument("--pool", default="all", choices=POOLS,
                   help="games of people only, bots only, both at one table, or all (default)")
    p.add_argument("--format", default="table", choices=FORMATS, help="how to write it")
    p.add_argument("--exclude-defaulted", action="store_true",
                   help="leave out games where a table made a move for a stalled seat")
    p.add_argument("--names", action="store_true",
                   help="name people by their player names instead of pseudonyms")
    p.add_argument("--study", default="", metavar="NAME",
                   help="people's pseudonyms are this study's (as `parlor study consents --study NAME` "
                        "and `parlor export --study NAME` give them; default: the database's own)")
    p.add_argument("--seed", default=0, type=int,
                   help="seed of the bootstrap and permutation resamples (default 0)")
    p.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)  # or `parlor --db`
    return p


def since(text: str | None) -> float | None:
    """A Unix time from a date or ISO time (UTC unless it says); ValueError when unreadable."""
    if text is None:
        return None
    found = datetime.fromisoformat(text)
    if found.tzinfo is None:
        found = found.replace(tzinfo=UTC)
    return found.timestamp()


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from engine.core import UnknownEnvError
    from engine.registry import env_ids, get
    from server.reports.comparison import NoSuchGroup, compare, render_comparison
    from server.reports.export import connect, database
    from server.reports.outfile import Refused, write_out
    from server.store.pseudonyms import PseudonymKeyMissing

    try:
        try:
            get(args.env)
        except UnknownEnvError:
            raise Refused(f"unknown environment {args.env!r}; environments: "
                          f"{', '.join(env_ids())}") from None
        try:
            start = since(args.since)
        except ValueError:
            raise Refused(f"--since must be a date like 2026-11-27, not {args.since!r}") from None
        conn = connect(database(getattr(args, "db", None)))
    except Refused as e:
        print(f"parlor report: {e}", file=sys.stderr)
        return 2
    try:
        found = compare(conn, args.env, preset=args.preset, config=args.config_hash, by=args.by,
                        since=start, pool=args.pool, exclude_defaulted=args.exclude_defaulted,
                        names=args.names, study=args.study, seed=args.seed)
    except (NoSuchGroup, PseudonymKeyMissing) as e:
        print(f"parlor report: {e}", file=sys.stderr)
        return 2
    finally:
        conn.close()
    text = render_comparison(found, args.format) + "\n"
    return 0 if write_out(None, lambda stream: stream.write(text)) else 141
