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
        "export", help="write stored games as a research dataset (JSON Lines, Parquet)",
        description=f"Write the games of a Parlor database as a dataset, one JSON object per "
                    f"line. Formats: {formats}. mindgames and socialmaze hold finished games; "
                    f"games and actions hold finished and void games, people under a "
                    f"pseudonym, and with --out DIR (either or both: --format games actions) "
                    f"make a dataset folder the Hugging Face datasets library loads (Parquet, "
                    f"JSON Lines and a dataset card). Games still running are skipped. The "
                    f"database is opened read-only: safe beside a running server.")
    p.add_argument("--format", required=True, choices=tuple(FORMATS), action="extend",
                   nargs="+", metavar="FORMAT",
                   help=f"dataset format: {', '.join(FORMATS)} (games and actions may be "
                        f"given together)")
    p.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)  # or `parlor --db`
    p.add_argument("--env", action="extend", nargs="+", default=None, metavar="ENV",
                   help="only these environments (repeatable; default: every environment of "
                        "the format: " + ", ".join(export_mindgames.ENVS) + " for mindgames; "
                        + ", ".join(export_socialmaze.ENVS) + " for socialmaze; all for games "
                        "and actions)")
    p.add_argument("--out", default="-", metavar="FILE|DIR",
                   help="file to write, e.g. saves/mindgames.jsonl; for games and actions a "
                        "folder to make, e.g. saves/dataset; '-' (the default) writes JSON "
                        "Lines to stdout. An existing file or folder with files is refused "
                        "unless --force")
    p.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    p.add_argument("--names", action="store_true",
                   help="people's names, left out unless asked: games and actions add them "
                        "beside the pseudonyms (the dataset card says so), mindgames and "
                        "socialmaze give them in place of the pseudonyms")
    p.add_argument("--study", default="", metavar="NAME",
                   help="people's pseudonyms are this study's (as `parlor "
                        "study consents --study NAME` lists them; default: the database's own)")
    p.add_argument("--license", default="other", metavar="ID",
                   help="games and actions: the license the dataset card names (a Hugging "
                        "Face license id, e.g. cc-by-4.0; default: other, for the host to set)")
    return p


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from server.reports.export import run_export

    return run_export(args)
