"""`parlor campaign run|status` (server/commands/campaign.py): a manifest read, played into
--db, and said in words."""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from pathlib import Path

from server.runs.campaign.manifest import Manifest, ManifestError
from server.runs.campaign.options import RunOptions, RunOutcome
from server.runs.campaign.runner import RunError, open_server, play, status, stored_games

COMMAND = "parlor campaign"


def run_campaign(args: argparse.Namespace) -> tuple[int, Manifest | None]:
    """Play the manifest's missing games into --db: (exit status, the manifest when every
    game of it is now finished, for its report)."""
    try:
        manifest = Manifest.read(args.manifest)
        options = _options(args)
    except (ManifestError, RunError) as e:
        print(f"{COMMAND} run: error: {e}", file=sys.stderr)
        return 2, None

    async def go() -> tuple[RunOutcome, int]:
        server = await open_server(args.db, manifest)
        try:
            outcome = await play(server, args.db, manifest, options)
            assert server.store is not None
            left = len(manifest.games) - len(await stored_games(server.store, manifest))
        finally:
            await server.stop()  # voids a game still playing after an error or ctrl-c
        return outcome, left

    try:
        outcome, left = asyncio.run(go())
    except RunError as e:
        print(f"{COMMAND} run: error: {e}", file=sys.stderr)
        return e.status, None
    print(f"Campaign {manifest.id}: {outcome.render(options.budget)}.")
    print(f"Stored in {args.db}.")
    if left:
        why = ("the budget stopped it" if outcome.budget_reached else
               "games ended void (see --on-bot-failure)")
        print(f"{left} of {len(manifest.games)} games are still to play ({why}); run the same "
              f"command again to play them", file=sys.stderr)
        return (0 if outcome.budget_reached else 1), None
    return 0, manifest


def _options(args: argparse.Namespace) -> RunOptions:
    for name in ("concurrency", "workers"):
        if getattr(args, name) < 1:
            raise RunError(f"--{name} must be at least 1, got {getattr(args, name)}")
    if args.budget is not None and not args.budget > 0:
        raise RunError(f"--budget must be more than 0 USD, got {args.budget}")
    if args.address and args.backend != "ray":
        raise RunError("--address is for --backend ray")
    if not Path(args.db).expanduser().absolute().parent.is_dir():
        raise RunError(f"--db {args.db}: its folder does not exist")
    return RunOptions(concurrency=args.concurrency, workers=args.workers,
                      on_bot_failure=args.on_bot_failure, budget=args.budget,
                      limits=dict(args.limit or {}), quiet=args.quiet, backend=args.backend,
                      address=args.address, label=f"{COMMAND} run")


def campaign_status(args: argparse.Namespace) -> int:
    try:
        manifest = Manifest.read(args.manifest)
    except ManifestError as e:
        print(f"{COMMAND} status: error: {e}", file=sys.stderr)
        return 2
    if not Path(args.db).is_file():
        print(f"{COMMAND} status: error: no database at {args.db}", file=sys.stderr)
        return 2
    try:
        held = asyncio.run(status(args.db, manifest))
    except (OSError, sqlite3.Error, RuntimeError) as e:  # not a database, a newer schema, ...
        print(f"{COMMAND} status: error: cannot read {args.db}: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(held, indent=2))
        return 0
    print(f"Campaign {held['id']}{' (' + held['title'] + ')' if held['title'] else ''}: "
          f"{held['games']:,} games")
    print(f"  finished   {held['finished']:,}")
    print(f"  to play    {held['to_play']:,}")
    print(f"  void       {held['void']:,} (attempts that ended void; their games are played "
          f"again)")
    if held["running"]:
        print(f"  running    {held['running']:,} (left by a run that was killed, or one "
              f"playing now; voided by the next run)")
    print(f"  spend      ${held['spend']:,.4f} over {held['llm_decisions']:,} LLM decisions")
    return 0
