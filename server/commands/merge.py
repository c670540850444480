"""`parlor merge DEST SRC [SRC ...]`: the games of several Parlor databases (campaigns run on
other machines, say) merged into one, without duplicates (server/store/merge.py says what is
copied and what counts as a duplicate); the ratings rebuilt once at the end."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    merge = sub.add_parser(
        "merge", help="merge the games of Parlor databases into one, without duplicates",
        description="Copy every finished or void game of each SRC (with its seats, moves, "
                    "events and transcripts; players matched by identity) into DEST, made if "
                    "missing. A game DEST already has is skipped (a campaign's game by its "
                    "campaign and number, any other by its table, start time and seed), and so "
                    "is a game left running, so merging again adds nothing. Ratings are "
                    "rebuilt from the merged games; DEST keeps its own settings and invites. "
                    "One transaction: a failure leaves DEST as it was. Sources are only read "
                    "(safe beside a running server); one at an older schema is upgraded in a "
                    "copy.")
    merge.add_argument("dest", metavar="DEST", help="the database to merge into")
    merge.add_argument("sources", metavar="SRC", nargs="+", help="a database to merge from")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncio
    import sqlite3

    from server.store.location import unusable
    from server.store.merge import SourceRefused, open_source

    dest = Path(args.dest).expanduser().absolute()
    paths = [Path(s).expanduser().absolute() for s in args.sources]
    for path in paths:
        if path == dest or (path.exists() and dest.exists() and os.path.samefile(path, dest)):
            print(f"parlor merge: {path} is the destination; merge other databases into it",
                  file=sys.stderr)
            return 2
    sources: list[sqlite3.Connection] = []
    try:
        for path in paths:  # every source is checked before DEST is touched
            try:
                sources.append(open_source(path))
            except SourceRefused as e:
                print(f"parlor merge: cannot merge {path}: {e}", file=sys.stderr)
                return 2
        problem = unusable(dest)  # made, or brought to the schema, as the server would
        if problem is not None:
            print(f"parlor merge: cannot open the database {dest}: {problem}", file=sys.stderr)
            return 2
        print(f"Parlor database: {dest}", file=sys.stderr, flush=True)
        try:
            counts, rebuilt = asyncio.run(_merge(dest, sources))
        except (sqlite3.Error, SourceRefused) as e:
            print(f"parlor merge: nothing merged: {e}", file=sys.stderr)
            return 1
    finally:
        for conn in sources:
            conn.close()
    for path, c in zip(paths, counts, strict=True):
        print(f"{path}: {c.copied} games copied, {c.duplicates} duplicates skipped, "
              f"{c.unfinished} unfinished skipped")
    for done in rebuilt:
        print(f"ratings rebuilt: {done.env}: {done.games} games rated, {done.identities} "
              f"ratings")
    return 0


async def _merge(dest: Path, sources: list[Any]) -> tuple[list[Any], list[Any]]:
    """Every source, then the ratings of the envs that got games, in one transaction."""
    from server.store.merge import copy_games, rebuild_ratings
    from server.store.store import Store

    def work(c: Any) -> tuple[list[Any], list[Any]]:
        counts = [copy_games(src, c) for src in sources]
        return counts, rebuild_ratings(c, {env for n in counts for env in n.envs})

    store = await Store.open(dest)
    try:
        return await store.write(work)
    finally:
        await store.close()
