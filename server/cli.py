"""`parlor` command line. Parsing and validation only; each command lives in its own module.

Bad arguments exit with status 2 and a message naming the problem and the valid choices.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from server.net.limits import DAY, Limits

DB_HELP = ("SQLite file (default: $PARLOR_HOME/parlor.db, else $XDG_DATA_HOME/parlor/parlor.db, "
           "else ~/.local/share/parlor/parlor.db)")
INSTANCE = re.compile(r"[A-Za-z0-9_-]{1,32}")  # it goes into table ids ("w1.t3") and the games


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="parlor", description="Social-reasoning games for people and "
                                "language models. With no command: play locally.")
    p.add_argument("--db", default=None, help=DB_HELP)
    p.add_argument("--name", default=None, help="your player name (default: your login name)")
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="join a remote server with the TUI")
    play.add_argument("--server", required=True, help="ws://HOST:PORT")
    play.add_argument("--name", default=None, help="your player name")
    play.add_argument("--invite", default=None, metavar="CODE",
                      help="invite code for a new name on an invite-only server")
    play.add_argument("--cafile", default=None, metavar="FILE",
                      help="certificate(s) to trust for a wss:// server (a host's own CA or "
                           "self-signed certificate); default: the system's")

    serve = sub.add_parser("serve", help="run a game server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_port, default=8765,
                       help="port to listen on, 0..65535 (0: any free port; default 8765)")
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

    host = sub.add_parser("admin", help="the host's requests to a running server: list tables, "
                                        "close one, remove a player (token: "
                                        "$PARLOR_ADMIN_TOKEN)")
    host.add_argument("--server", required=True, help="ws://HOST:PORT or wss://HOST:PORT")
    host.add_argument("--cafile", default=None, metavar="FILE",
                      help="certificate(s) to trust for a wss:// server")
    requests = host.add_subparsers(dest="admin_command", required=True)
    requests.add_parser("tables", help="every open table with its seats")
    close = requests.add_parser("close", help="close a table (a game under way ends void)")
    close.add_argument("table_id")
    close.add_argument("--reason", default="", help="told to everyone at the table")
    kick = requests.add_parser("kick", help="remove the person at a seat (in a game under way "
                                            "the seat forfeits)")
    kick.add_argument("table_id")
    kick.add_argument("seat", type=int)
    kick.add_argument("--reason", default="", help="told to the person and the table")

    sim = sub.add_parser("sim", help="play bot games headless and print a summary")
    sim.add_argument("env", help="environment id (see `parlor envs`)")
    sim.add_argument("--seat", action="append", required=True, metavar="SPEC",
                     help="bot for the next seat, e.g. random or scripted:adaptive, or for every "
                          "seat of a role or side, e.g. crew=random (repeat)")
    sim.add_argument("--players", type=int, default=None,
                     help="seats at the table (default: one per --seat, or the env's default "
                          "when a --seat names a role)")
    sim.add_argument("--games", type=int, default=10)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--preset", default=None)
    sim.add_argument("--config", action="append", default=[], metavar="KEY=VALUE",
                     help="override a config value (repeat)")
    sim.add_argument("--db", default=None, help="also store the games in this SQLite file")
    sim.add_argument("--concurrency", type=int, default=1, metavar="N",
                     help="games played at once, each on its own table, so bots that wait on a "
                          "provider overlap (default 1; results do not depend on it)")
    sim.add_argument("--workers", type=int, default=1, metavar="N",
                     help="processes playing the games, one core each, all writing to --db "
                          "(default 1; each has its own --concurrency; results do not depend "
                          "on it)")
    sim.add_argument("--quiet", action="store_true",
                     help="no progress line on stderr")
    sim.add_argument("--on-bot-failure", default="void", choices=("void", "default", "wait"),
                     help="when a bot's provider fails: void the game (default), make the "
                          "env's default move for it and go on, or wait and retry")

    league = sub.add_parser("league", help="bot leagues with a report of ratings")
    leagues = league.add_subparsers(dest="league_command", required=True)
    elo = leagues.add_parser("socialgrid-elo", help="SocialGrid's Crew Elo league: every "
                             "ordered pair of models (crew, impostors) plus self-play")
    elo.add_argument("--models", nargs="+", required=True, metavar="SPEC",
                     help="bot specs, e.g. random scripted:agent openai:gpt-4o-mini")
    elo.add_argument("--episodes", type=int, required=True, metavar="N",
                     help="episodes per ordered pair")
    elo.add_argument("--preset", default=None, help="default league-10x10")
    elo.add_argument("--config", action="append", default=[], metavar="KEY=VALUE",
                     help="override a config value (repeat)")
    elo.add_argument("--seed", type=int, default=0, help="the league's seed (default 0)")
    _league_options(elo)
    _add_mgref_parser(leagues)
    maze = leagues.add_parser("maze", help="SocialMaze's tasks: every model on the same "
                                           "instances, accuracy beside the paper's numbers")
    maze.add_argument("--task", nargs="+", default=None, metavar="TASK",
                      help="the tasks (default: every SocialMaze task this build plays)")
    maze.add_argument("--seat", nargs="+", required=True, metavar="[TASK:]SPEC",
                      help="the models, e.g. scripted:solver openai:gpt-4o-mini "
                           "social-graph:scripted:majority (TASK: for one task only)")
    maze.add_argument("--instances", type=int, default=None, metavar="N",
                      help="instances per task (instance k is generated from seed S + k); with "
                           "--stored or --file, play only the first N")
    maze.add_argument("--stored", action="store_true",
                      help="play the instances stored in --db by `parlor maze import` (the "
                           "paper's release files, say), every task that has some or --task's")
    maze.add_argument("--source", default=None, metavar="NAME",
                      help="with --stored: only the instances of this source (the imported "
                           "file's name or its --source)")
    maze.add_argument("--file", default=None, metavar="FILE",
                      help="play a dataset file's instances (the authors' release format or "
                           "our JSON Lines; its task told from its content, or --task)")
    maze.add_argument("--preset", default=None, help="the tasks' preset (default: each "
                                                     "task's own, e.g. paper)")
    maze.add_argument("--seed", type=int, default=0, help="the first instance's seed (0)")
    _league_options(maze)

    sub.add_parser("envs", help="list the environments and their presets")

    from server.commands.maze import add_maze_parser
    from server.reports.export import add_export_parser

    add_export_parser(sub)
    add_maze_parser(sub)

    bots = sub.add_parser("bots", help="inspect bots")
    bots_sub = bots.add_subparsers(dest="bots_command", required=True)
    check = bots_sub.add_parser("check", help="verify an LLM bot spec end to end")
    check.add_argument("spec", help="e.g. openai:gpt-4o-mini or openai-compatible:llama3@URL")
    check.add_argument("--env", default="colonel-blotto", help="env whose prompt is tried")
    return p


def _league_options(league: argparse.ArgumentParser) -> None:
    """What every league command takes: where its games go, how many at once, bot failures,
    the report as JSON, the progress line."""
    league.add_argument("--db", default=None, help="store the games in this SQLite file; the "
                                                   "league run again on it plays only what is "
                                                   "missing")
    league.add_argument("--concurrency", type=int, default=1, metavar="N",
                        help="games played at once (default 1; results do not depend on it)")
    league.add_argument("--on-bot-failure", default="void", choices=("void", "default", "wait"),
                        help="when a bot's provider fails (as `parlor sim`; void games are "
                             "left out and played again on resume)")
    league.add_argument("--json", default=None, metavar="FILE",
                        help="also write the report here")
    league.add_argument("--quiet", action="store_true", help="no progress line on stderr")


def _add_mgref_parser(leagues: argparse._SubParsersAction) -> None:
    from server.runs.mgref_schedule import ENVS

    mgref = leagues.add_parser(
        "mgref", help="MindGames' MG-Ref offline tournament: one candidate against frozen "
                      "references, 198 scheduled games over the four MindGames envs")
    mgref.add_argument("--candidate", action="append", required=True, metavar="[ENV:]SPEC",
                       help="the bot to score (repeat with ENV: for a bot per env)")
    mgref.add_argument("--refs", nargs="+", required=True, metavar="[ENV:]SPEC[=MU,SIGMA]",
                       help="the references with their frozen TrueSkill priors (default "
                            "25,8.33), e.g. colonel-blotto:scripted:adaptive=29.8,1.2")
    mgref.add_argument("--env", nargs="+", default=list(ENVS), choices=ENVS, metavar="ENV",
                       help=f"the envs to play (default all: {', '.join(ENVS)})")
    mgref.add_argument("--replicates", type=int, default=1, metavar="N",
                       help="multiply every design's replicates (default 1: 30/36/36/96 games "
                            "with the paper's 3/3/3/4 references)")
    _league_options(mgref)


def default_db(environ: Mapping[str, str] | None = None) -> Path:
    """Where `parlor` and `parlor serve` keep their database when no --db is given: the same
    file whatever the working directory."""
    env = os.environ if environ is None else environ
    if env.get("PARLOR_HOME"):
        return Path(env["PARLOR_HOME"]).expanduser() / "parlor.db"
    xdg = env.get("XDG_DATA_HOME")
    if xdg and Path(xdg).is_absolute():  # the XDG spec: a relative path is to be ignored
        return Path(xdg) / "parlor" / "parlor.db"
    return Path.home() / ".local" / "share" / "parlor" / "parlor.db"


def _positive(text: str) -> float:
    """argparse type of a limit: a number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} must be above 0")
    return value


def _port(text: str) -> int:
    """argparse type of --port."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0..65535)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: ports are 0..65535 (0: any "
                                         f"free port)")
    return port


def _database(args: argparse.Namespace) -> str:
    """The database this command uses (--db, else `default_db()`), announced on stderr once it
    is known to open; exit 2 with the reason in one line if it does not."""
    db = Path(args.db).expanduser() if args.db else default_db()
    args.db = str(db.absolute())
    problem = _database_problem(Path(args.db))
    if problem is not None:
        print(f"parlor: cannot open the database {args.db}: {problem}", file=sys.stderr,
              flush=True)
        raise SystemExit(2)
    print(f"Parlor database: {args.db}", file=sys.stderr, flush=True)
    return args.db


def _database_problem(db: Path) -> str | None:
    """Why the database at `db` cannot be used, or None: its folder is made if need be and the
    file opened (and brought to the current schema) as the server will open it."""
    import asyncio
    import sqlite3

    from server.store.store import Store

    folder = db.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is a file, not a folder"
    if db.is_dir():
        return "it is a folder; give the path of a file in it (e.g. parlor.db)"

    async def open_and_close() -> None:
        store = await Store.open(db)
        await store.close()
    try:
        asyncio.run(open_and_close())
    except OSError as e:
        where = f" ({e.filename})" if e.filename and str(e.filename) != str(db) else ""
        return f"{(e.strerror or str(e)).lower()}{where}"
    except (sqlite3.Error, RuntimeError) as e:
        return str(e)
    return None


def _cmd_envs() -> int:
    from engine.registry import all_envs
    from server.wire.protocol import players_text

    for env in all_envs():
        players = players_text(env.players)
        print(f"{env.id:20} {players:>5} players  {env.description}")
        print(f"{'':20} presets: {', '.join(env.presets)} (default {env.default_preset})")
    return 0


def _check_serve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """parser.error (exit 2) on options that cannot work together."""
    from server.net.workers import instance_names
    from server.tables.policy import BotPolicy, PolicyError

    try:  # the host's bots: a bad pattern or config file is a bad argument
        args.bot_policy = BotPolicy.from_options(args.allow_bots, args.bots_config,
                                                 args.max_llm_seats, args.max_llm_seats_per_hour)
    except PolicyError as e:
        parser.error(str(e))
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "envs":
            return _cmd_envs()
        if args.command == "export":
            from server.reports.export import run_export

            return run_export(args)
        if args.command == "maze" and args.maze_command == "import":
            from server.commands.maze_import import run_import

            return run_import(args, _database(args))
        if args.command == "maze":
            from server.commands.maze import run_maze

            return run_maze(args)
        if args.command == "bots":
            from bots.llm.check import run_bots_check

            return run_bots_check(args.spec, env_id=args.env)
        if args.command == "admin":
            from server.commands.admin import run_admin

            return run_admin(args)
        if args.command == "serve" and args.serve_command:
            from server.net.hosting import run_hosting

            return run_hosting(args, _database(args))
        if args.command == "serve":
            _check_serve(args, parser)
            _database(args)
            if args.workers > 1:
                from server.net.workers import run_workers

                return run_workers(args)
            from server.net.serve import run_serve

            return run_serve(args)
        if args.command == "sim":
            from server.runs.sim import run_sim

            return run_sim(args, parser)
        if args.command == "league" and args.league_command == "maze":
            from server.runs.maze_league import run_maze_league

            return run_maze_league(args)
        if args.command == "league" and args.league_command == "mgref":
            from server.runs.mgref import run_mgref

            return run_mgref(args)
        if args.command == "league":
            from server.runs.crew_elo import run_league

            return run_league(args)
        from tui.launch import run_local, run_remote

        if args.command == "play":
            return run_remote(args.server, args.name, invite=args.invite, cafile=args.cafile)
        return run_local(_database(args), args.name)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
