"""`parlor web`: the TUI in a browser (textual-serve), so a host can hand people a link.

Each browser tab (each websocket to this server) runs its own `parlor play --ask-name` process
connected to one Parlor server: its own session, under the name its person types. The command
each tab runs is fixed here at start, quoted with shlex; nothing a browser sends reaches a shell
(textual-serve starts it with the shell, and feeds the browser's keys to the app's stdin only).
docs/web.md: what to put in front of it for a study, and what a tab costs.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from server.commands.play import server_url
from server.commands.serve import DEFAULT_PORT, at_least_one, port_number

DEFAULT_SERVER = f"ws://127.0.0.1:{DEFAULT_PORT}"  # where `parlor serve` listens by default
TITLE = "Parlor"  # the page's title and its loading card
PAGE = Path(__file__).with_name("web_page")  # our page: textual-serve's loads a web font from
# a third party, which would tell it of every participant who opens the link


def add_parser(sub: Any) -> None:
    web = sub.add_parser("web", help="serve the TUI in a browser: each tab a player of its own")
    web.add_argument("--server", type=server_url, default=DEFAULT_SERVER, metavar="URL",
                     help="the Parlor server the tabs play on (default %(default)s, where "
                          "`parlor serve` listens)")
    web.add_argument("--host", default="127.0.0.1",
                     help="address to listen on (default %(default)s: this machine only; "
                          "put a proxy with TLS in front to open it to others, docs/web.md)")
    web.add_argument("--port", type=port_number, default=8000,
                     help="port to listen on, 1..65535 (default %(default)s)")
    web.add_argument("--public-url", type=public_url, default=None, metavar="URL",
                     help="the address people open when a proxy is in front, e.g. "
                          "https://games.example.org (default: http://HOST:PORT); the page "
                          "reaches its websocket there too")
    web.add_argument("--max-tabs", type=at_least_one("tab"), default=50, metavar="N",
                     help="tabs open at once, each a process of about 60 MiB; one more is "
                          "refused (default %(default)s)")
    web.add_argument("--cafile", default=None, metavar="FILE",
                     help="certificate(s) the tabs trust for a wss:// --server (a host's own "
                          "CA); default: the system's")


def tab_command(server: str, cafile: str | None = None) -> str:
    """The shell command each tab runs: `parlor play` on `server`, asking for the name; the
    shell execs it, so the tab's app is this server's child and ends with it
    (tui/launch.py)."""
    argv = [sys.executable, "-m", "server.cli", "play", "--server", server, "--ask-name"]
    if cafile:
        argv += ["--cafile", str(Path(cafile).resolve())]  # the tabs may start elsewhere
    return f"exec {shlex.join(argv)}"


def public_url(text: str) -> str:
    """argparse type of --public-url: http(s)://HOST[:PORT][/PATH], without a trailing /."""
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (raises on a port that is not a number 0..65535)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(f"{text!r} is not a web address: use "
                                         f"https://HOST[:PORT]")
    return text.rstrip("/")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from server.commands.web_tabs import TabServer

    if args.port == 0:  # the page's own address must name the port it is served on
        parser.error("argument --port: 0 is not a port people can open: give one, 1..65535")
    web = TabServer(tab_command(args.server, args.cafile), host=args.host, port=args.port,
                    title=TITLE, public_url=args.public_url, templates_path=PAGE,
                    max_tabs=args.max_tabs)
    print(f"Parlor in a browser at {web.public_url} — each tab a player of its own on "
          f"{args.server}; Ctrl+C stops", flush=True)
    try:
        web.serve()
    except OSError as exc:  # the port is taken, or the address is not this machine's
        print(f"parlor web: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    return 0
