"""`parlor replay GAME_ID|FILE`: a stored game rebuilt and checked against its stored events
(server/replays/; docs/replays.md), printed as one seat's or the omniscient transcript, or saved
as a replay file (--export) or a Markdown transcript (--markdown). Read-only. An unknown game or
a file that is not a replay exits 2 with one line; a rebuild that differs from the stored game
exits 1 saying where."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from server.store.location import DB_HELP


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "replay", help="watch a stored game again, or save it as a replay file",
        description="Rebuild a stored game from its seed and actions, check it against the "
                    "stored events, and print its transcript as one seat saw it (--seat) or "
                    "with everything (--omniscient, the default); or save it as a "
                    "self-contained replay file (--export) that `parlor replay FILE` opens "
                    "without the database, or as a Markdown transcript (--markdown).")
    p.add_argument("game", metavar="GAME_ID|FILE",
                   help="a game's id in the database, or a replay file")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, default=None, metavar="N",
                     help="only what seat N saw, when it saw it")
    who.add_argument("--omniscient", action="store_true",
                     help="everything, hidden roles and words included (the default)")
    p.add_argument("--export", default=None, metavar="FILE.json",
                   help="save the game as a replay file")
    p.add_argument("--markdown", default=None, metavar="FILE.md",
                   help="save the transcript (for --seat or omniscient) as Markdown")
    p.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)  # or `parlor --db`
    return p


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from server.replays.replay import Replay, ReplayError, ReplayMismatch
    from server.reports.export import connect, database
    from server.reports.outfile import Refused, write_out

    try:
        if Path(args.game).is_file():
            replay = Replay.from_file(args.game)
        elif args.game.isdigit():
            conn = connect(database(getattr(args, "db", None)))
            try:
                replay = Replay.from_db(conn, int(args.game))
            finally:
                conn.close()
        else:
            raise ReplayError(f"{args.game!r} is neither a game id nor a replay file")
        if args.seat is not None and not 0 <= args.seat < replay.data["players"]:
            raise ReplayError(f"no seat {args.seat}; this game's seats are "
                              f"0..{replay.data['players'] - 1}")
        if args.export:
            replay.check()
            write_out(Path(args.export), lambda f: f.write(json.dumps(replay.to_json())))
            print(f"Saved the replay of {replay.env.id} in {args.export}.")
        if args.markdown:
            text = replay.markdown(args.seat) + "\n"
            write_out(Path(args.markdown), lambda f: f.write(text))
            print(f"Saved the transcript in {args.markdown}.")
        if not (args.export or args.markdown):
            lines = "\n".join(replay.transcript(args.seat)) + "\n"
            return 0 if write_out(None, lambda stream: stream.write(lines)) else 141
    except ReplayMismatch as e:
        print(f"parlor replay: this replay does not match the stored game: {e}",
              file=sys.stderr)
        return 1
    except (ReplayError, Refused, OSError) as e:
        print(f"parlor replay: {e}", file=sys.stderr)
        return 2
    return 0
