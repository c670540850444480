"""`parlor play` (join a remote server) and `parlor` with no command (play locally): the TUI,
loaded only when it runs."""

from __future__ import annotations

import argparse
from typing import Any

from server.commands.database import database


def add_parser(sub: Any) -> None:
    play = sub.add_parser("play", help="join a remote server with the TUI")
    play.add_argument("--server", required=True, help="ws://HOST:PORT")
    play.add_argument("--name", default=None, help="your player name")
    play.add_argument("--invite", default=None, metavar="CODE",
                      help="invite code for a new name on an invite-only server")
    play.add_argument("--cafile", default=None, metavar="FILE",
                      help="certificate(s) to trust for a wss:// server (a host's own CA or "
                           "self-signed certificate); default: the system's")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from tui.launch import run_remote

    return run_remote(args.server, args.name, invite=args.invite, cafile=args.cafile)


def run_local(args: argparse.Namespace) -> int:
    from server.reports.report_reply import build
    from tui.launch import run_local

    return run_local(database(args), args.name, reports=build)
