"""`parlor play` (join a remote server) and `parlor` with no command (play locally): the TUI,
loaded only when it runs."""

from __future__ import annotations

import argparse
from typing import Any
from urllib.parse import urlsplit

from server.commands.database import database


def add_parser(sub: Any) -> None:
    play = sub.add_parser("play", help="join a remote server with the TUI")
    play.add_argument("--server", required=True, type=server_url, help="ws://HOST:PORT")
    who = play.add_mutually_exclusive_group()
    who.add_argument("--name", default=None, help="your player name")
    who.add_argument("--ask-name", action="store_true",
                     help="ask for the name on screen and keep its token for this session "
                          "only (what each browser tab of `parlor web` runs)")
    play.add_argument("--invite", default=None, metavar="CODE",
                      help="invite code for a new name on an invite-only server")
    play.add_argument("--cafile", default=None, metavar="FILE",
                      help="certificate(s) to trust for a wss:// server (a host's own CA or "
                           "self-signed certificate); default: the system's")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from tui.launch import run_remote

    return run_remote(args.server, args.name, invite=args.invite, cafile=args.cafile,
                      ask_name=args.ask_name)


def server_url(text: str) -> str:
    """argparse type of --server: ws://HOST[:PORT] or wss://HOST[:PORT]; `HOST:PORT` alone is
    what people type, and means ws://."""
    url = text if "://" in text else f"ws://{text}"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises on a port that is not a number 0..65535)
    except ValueError:
        parts = None
    if (parts is None or parts.scheme not in ("ws", "wss") or not parts.hostname
            or any(c.isspace() for c in url)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a server address: use "
                                         f"ws://HOST:PORT (or wss:// for TLS)")
    return url


def run_local(args: argparse.Namespace) -> int:
    from server.reports.report_reply import build
    from tui.launch import run_local

    return run_local(database(args), args.name, reports=build)
