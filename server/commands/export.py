"""`parlor export --format FORMAT`: stored games as a research dataset (server/reports/export.py)."""

from __future__ import annotations

import argparse
from typing import Any

from server.reports import export_mindgames, export_socialmaze
from server.reports.export import FORMATS
from server.store.location import DB_HELP


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    formats = "; ".join(f"{name}: {text}" for name, (_, text) in FORMATS.items())
    p = subparsers.add_parser(
        "export", help="write stored games as a research dataset (JSON Lines)",
        description=f"Write the finished games of a Parlor database as a dataset, one JSON "
                    f"object per line. Formats: {formats}. Unfinished and void games are "
                    f"skipped. The database is opened read-only: safe beside a running server.")
    p.add_argument("--format", required=True, choices=tuple(FORMATS), help="dataset format")
    p.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)  # or `parlor --db`
    p.add_argument("--env", action="extend", nargs="+", default=None, metavar="ENV",
                   help="only these environments (repeatable; default: every environment of "
                        "the format: " + ", ".join(export_mindgames.ENVS) + " for mindgames; "
                        + ", ".join(export_socialmaze.ENVS) + " for socialmaze)")
    p.add_argument("--out", default="-", metavar="FILE",
                   help="file to write, e.g. saves/mindgames.jsonl; '-' (the default) writes "
                        "to stdout. An existing file is refused unless --force")
    p.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    return p


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from server.reports.export import run_export

    return run_export(args)
