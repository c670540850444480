"""`parlor serve`: run a game server (server/net/serve.py), or N of them (server/net/workers.py),
or a host task on its database (`invite`, `admin-token`, `backup`: server/net/hosting.py)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from server.commands.database import database
from server.net.limits import DAY, Limits
from server.store.location import DB_HELP

INSTANCE = re.compile(r"[A-Za-z0-9_-]{1,32}")  # it goes into table ids ("w1.t3") and the games
EVENT_LOOPS = ("auto", "uvloop", "asyncio")  # server/net/serve.py `loop_factory`
DEFAULT_PORT = 8765


def add_parser(sub: Any) -> None:
    serve = sub.add_parser("serve", help="run a game server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                       help="port to listen on, 0..65535 (0: any free port; default "
                            "%(default)s)")
    serve.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)  # or `parlor --db`
    serve.add_argument("--turn-timeout", type=float, default=300.0,
                       help="seconds a human has for one decision (then --on-timeout applies)")
    serve.add_argument("--disconnect-grace", type=float, default=60.0,
                       help="seconds a disconnected human may take to resume")
    serve.add_argument("--on-timeout", default=None, choices=("default", "void"),
                       help="when a person's time runs out: make the env's default move and go "
                            "on, or void the game (default: each env's own rule)")
    serve.add_argument("--instance", default=None, metavar="NAME",
                       help="name of this server when several share one --db (1-32 letters, "
                            "digits, '-' or '_'): its table ids carry it and on start it voids "
                            "only its own interrupted games")
    serve.add_argument("--workers", type=int, default=1, metavar="N",
                       help="run N server processes on ports PORT .. PORT+N-1, all on --db, "
                            "named w1..wN (or NAME-1..NAME-N): one core each (default 1)")
    serve.add_argument("--allow-bots", default=None, metavar="PATTERNS",
                       help="comma-separated bot specs this server seats, globs allowed, e.g. "
                            "'scripted:*,random,openai:gpt-4o-mini,"
                            "openai-compatible:*@http://localhost:11434/v1' (default: "
                            "scripted:*,random; see docs/operations.md)")
    serve.add_argument("--bots-config", default=None, metavar="FILE",
                       help="JSON or .toml file: allow (patterns), keys ({base URL: ENV_VAR} "
                            "for openai-compatible servers), max_llm_seats, "
                            "max_llm_seats_per_hour")
    serve.add_argument("--max-llm-seats", type=int, default=None, metavar="N",
                       help="LLM seats a player may hold at once (default 4; 0: no limit)")
    serve.add_argument("--max-llm-seats-per-hour", type=int, default=None, metavar="N",
                       help="LLM seats a player may create per hour (default 20; 0: no limit)")
    limits = Limits()
    serve.add_argument("--max-tables", type=_positive, default=limits.tables_total, metavar="N",
                       help="open tables on this server at once (default %(default)s)")
    serve.add_argument("--tables-per-player", type=_positive, default=limits.tables_per_player,
                       metavar="N", help="open tables one player may create (default %(default)s)")
    serve.add_argument("--tables-per-address", type=_positive, default=limits.tables_per_address,
                       metavar="N", help="open tables created from one address, whatever the "
                                         "names (default %(default)s)")
    serve.add_argument("--names-per-address-per-hour", type=_positive,
                       default=limits.names_per_address_per_hour, metavar="N",
                       help="new names claimed from one address per hour (default %(default)s)")
    serve.add_argument("--forget-unused-names", type=_positive,
                       default=limits.unused_name_expiry / DAY, metavar="DAYS",
                       help="days after its last hello that a name which never sat at a game "
                            "is released (default %(default)g)")
    serve.add_argument("--waiting-expiry", type=_positive, default=limits.waiting_expiry / 60,
                       metavar="MIN", help="minutes a table may wait for players before it "
                                           "closes (default %(default)g)")
    serve.add_argument("--connections-per-address", type=_positive,
                       default=limits.connections_per_address, metavar="N",
                       help="open connections from one address (default %(default)s)")
    serve.add_argument("--messages-per-second", type=_positive,
                       default=limits.messages_per_second, metavar="N",
                       help="messages a connection may send per second, sustained "
                            "(default %(default)g)")
    serve.add_argument("--spectators-per-table", type=_positive,
                       default=limits.spectators_per_table, metavar="N",
                       help="people watching one table at once (default %(default)s)")
    serve.add_argument("--certfile", default=None, metavar="PEM",
                       help="serve over TLS (wss://) with this certificate chain")
    serve.add_argument("--keyfile", default=None, metavar="PEM",
                       help="the certificate's private key (if not in --certfile)")
    serve.add_argument("--invite-only", action="store_true",
                       help="a new name needs an invite code (`parlor serve invite`)")
    serve.add_argument("--allow-client-seeds", action="store_true",
                       help="let a table with people be created with a chosen seed (which "
                            "tells its creator the hidden setup: for tests and demos)")
    serve.add_argument("--unrated-same-address", action="store_true",
                       help="do not rate games between people connected from one address")
    serve.add_argument("--event-loop", default="auto", choices=EVENT_LOOPS,
                       help="the event loop to run on: uvloop (less CPU per move) where it is "
                            "installed, else asyncio's (default auto)")
    serve.add_argument("--omniscient-delay", type=at_least_one("action"), default=None, metavar="N",
                       help="let anyone watch a table of bots only from everywhere (hidden "
                            "roles and words included), N actions behind the game (`replay` "
                            "with its table id; default: off)")
    serve.add_argument("--study", default=None, metavar="FILE",
                       help="run a study: FILE (Markdown with a TOML front matter: the study's "
                            "name and an optional demographics form) holds the consent text a "
                            "person must agree to before their first game (docs/operations.md, "
                            "\"Running a study\")")
    hosting = serve.add_subparsers(dest="serve_command", metavar="{invite,admin-token,backup}",
                                   help="host tasks on the server's database (run beside a "
                                        "running server); with none: run the server")
    invite = hosting.add_parser("invite", help="print new invite codes (or --list them)")
    invite.add_argument("--count", type=int, default=1, metavar="N",
                        help="codes to make, 1..1000 (default 1)")
    invite.add_argument("--note", default="", help="who the codes are for (kept with them)")
    invite.add_argument("--list", action="store_true",
                        help="list the invites made and who used them, make none")
    invite.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)
    token = hosting.add_parser("admin-token", help="print a new admin token for `parlor "
                                                   "admin` (the old one stops working)")
    token.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)
    backup = hosting.add_parser("backup", help="copy the database, consistent even while the "
                                               "server writes to it")
    backup.add_argument("path", help="the copy to write (must not exist)")
    backup.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.serve_command:
        from server.net.hosting import run_hosting

        return run_hosting(args, database(args))
    _check(args, parser)
    database(args)
    if args.workers > 1:
        from server.net.workers import run_workers

        return run_workers(args)
    from server.net.serve import run_serve
    from server.reports.report_reply import build

    args.reports = build  # the server's `report` requests (server/net may not import reports)
    return run_serve(args)


def _positive(text: str) -> float:
    """argparse type of a limit: a number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} must be above 0")
    return value


def at_least_one(unit: str) -> Callable[[str], int]:
    """An argparse type: a whole number of `unit`s (say "action"), 1 or more."""
    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of {unit}s, "
                                             f"1 or more")
        return value
    return check


def port_number(text: str) -> int:
    """argparse type of --port."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0..65535)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: ports are 0..65535 (0: any "
                                         f"free port)")
    return port


def _check(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """parser.error (exit 2) on options that cannot work together."""
    from server.net.workers import instance_names
    from server.tables.policy import BotPolicy, PolicyError

    try:  # the host's bots: a bad pattern or config file is a bad argument
        args.bot_policy = BotPolicy.from_options(args.allow_bots, args.bots_config,
                                                 args.max_llm_seats, args.max_llm_seats_per_hour)
    except PolicyError as e:
        parser.error(str(e))
    if args.study is not None:
        from server.store.study import StudyError, load_study

        try:
            args.study_plan = load_study(args.study)
        except StudyError as e:
            parser.error(f"--study {args.study}: {e}")
    if args.keyfile and not args.certfile:
        parser.error("--keyfile needs --certfile")
    for option in ("certfile", "keyfile"):
        path = getattr(args, option)
        if path and not Path(path).is_file():
            parser.error(f"--{option} {path}: no such file")
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, got {args.workers}")
    if args.instance is not None and not INSTANCE.fullmatch(args.instance):
        parser.error(f"--instance must be 1-32 letters, digits, '-' or '_', got "
                     f"{args.instance!r}")
    if args.workers == 1:
        return
    if args.port == 0:
        parser.error(f"--port 0 cannot be used with --workers {args.workers}: the workers "
                     "listen on PORT, PORT+1, ...; give a fixed port")
    if not 0 < args.port <= 65536 - args.workers:
        parser.error(f"--port {args.port} with --workers {args.workers} needs ports "
                     f"{args.port}..{args.port + args.workers - 1}, outside 1..65535")
    longest = max(instance_names(args.instance, args.workers), key=len)
    if len(longest) > 32:
        parser.error(f"--instance {args.instance!r} is too long for {args.workers} workers: "
                     f"{longest!r} has more than 32 characters")
