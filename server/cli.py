"""`parlor` command line: the root parser and `main`. Each command group is a module of
server/commands/ with its parser beside its command; this module only assembles them (run as
`python -m server.cli`, and the `parlor` console script).

Bad arguments exit with status 2 and a message naming the problem and the valid choices.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from server.commands import (
    admin,
    bots,
    campaign,
    envs,
    export,
    forget,
    league,
    maze,
    merge,
    play,
    ratings,
    replay,
    report,
    serve,
    sim,
    study,
    web,
)
from server.store.location import DB_HELP

# the command groups, in the order `parlor --help` lists them
GROUPS = {"play": play, "serve": serve, "admin": admin, "sim": sim, "league": league,
          "campaign": campaign,
          "envs": envs, "export": export, "report": report, "replay": replay,
          "ratings": ratings,
          "maze": maze, "bots": bots, "study": study, "forget": forget,
          "merge": merge, "web": web}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="parlor", description="Social-reasoning games for people and "
                                "language models. With no command: play locally.")
    p.add_argument("--db", default=None, help=DB_HELP)
    p.add_argument("--name", default=None, help="your player name (default: your login name)")
    sub = p.add_subparsers(dest="command")
    for group in GROUPS.values():
        group.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # what a campaign's manifest keeps
    try:
        if args.command is None:
            return play.run_local(args)
        return GROUPS[args.command].run(args, parser)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
