"""`parlor replay GAME_ID|FILE`: a stored game rebuilt and checked against its stored events
(server/replays/; docs/replays.md), printed as one seat's or the omniscient transcript, or saved
as a replay file (--export) or a Markdown transcript (--markdown); or watched in the TUI
(--watch) on a local server over the database (a replay file: over a scratch database holding
that game alone, deleted on exit). Read-only but for --watch, whose server records the watcher's
name as local play does. An unknown game or a file that is not a replay exits 2 with one line; a
rebuild that differs from the stored game exits 1 saying where (--watch: on the screen)."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
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
                    "without the database, or as a Markdown transcript (--markdown); or watch "
                    "it in the TUI's replay screen (--watch; Esc goes to the lobby of a local "
                    "server on that database).")
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
    p.add_argument("--watch", action="store_true",
                   help="watch it in the TUI, from --seat N or omniscient (a replay FILE is "
                        "loaded into a scratch database deleted on exit)")
    p.add_argument("--name", default=argparse.SUPPRESS,  # or `parlor --name`
                   help="with --watch: your player name on the local server (default: your "
                        "login name)")
    p.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)  # or `parlor --db`
    return p


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from server.replays.replay import Replay, ReplayError, ReplayMismatch
    from server.reports.export import connect, database
    from server.reports.outfile import Refused, write_out

    if args.watch and (args.export or args.markdown):
        print("parlor replay: --watch shows the game on screen, --export and --markdown save "
              "it to a file: give one or the other", file=sys.stderr)
        return 2
    try:
        if args.watch:
            return _watch(args)
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
        _check_seat(args.seat, replay.data["players"])
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


def _check_seat(seat: int | None, players: int) -> None:
    from server.replays.replay import ReplayError

    if seat is not None and not 0 <= seat < players:
        raise ReplayError(f"no seat {seat}; this game's seats are 0..{players - 1}")


def _watch(args: argparse.Namespace) -> int:
    """The TUI on an embedded server, opened on the game's replay (Esc: that server's lobby).
    A game id is checked here first (there, ended, the seat), so what cannot be watched is one
    line, not an empty screen."""
    from server.net.replays import game_row
    from server.replays.replay import Replay, ReplayError
    from server.replays.scratch import scratch_database
    from server.reports.export import connect, database
    from server.reports.report_reply import build
    from tui.launch import run_local

    name = getattr(args, "name", None)
    if Path(args.game).is_file():
        replay = Replay.from_file(args.game)
        _check_seat(args.seat, replay.data["players"])
        with tempfile.TemporaryDirectory(prefix="parlor-replay-") as folder:
            scratch = Path(folder) / "replay.db"
            game_id = scratch_database(replay, scratch)
            # One token entry for every scratch database (each is new, so is its token).
            return run_local(str(scratch), name, replay=(game_id, args.seat),
                             server_key="local:replay-file", reports=build)
    if not args.game.isdigit():
        raise ReplayError(f"{args.game!r} is neither a game id nor a replay file")
    db, game_id = database(getattr(args, "db", None)), int(args.game)
    conn = connect(db)
    try:
        found = game_row(conn, game_id)
    finally:
        conn.close()
    if found is None:
        raise ReplayError(f"no game {game_id} in {db}")
    ended, players, _ = found
    if not ended:
        raise ReplayError(f"game {game_id} has not ended (still being played, or its process "
                          f"was stopped): there is nothing to watch yet")
    _check_seat(args.seat, players)
    return run_local(str(db), name, replay=(game_id, args.seat), reports=build)
