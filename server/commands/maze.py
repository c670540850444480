"""`parlor maze solve` and `parlor maze generate`: the SocialMaze rules kits from the command
line (docs/rules/hidden-role.md, docs/rules/social-graph.md, "Command line").

- solve FILE: our solver on every instance of a file, against the file's answers (server/runs/maze_solve.py).
- generate: N instances as our JSON Lines; instance k uses seed S + k, so a file is reproducible.

Nothing here imports a kit until a command runs, so `parlor --help` stays fast. The choices
below are the kits' (tests hold them equal). Bad input exits 2 with one line naming the problem
and the valid choices.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from server.commands.database import database
from server.reports.outfile import out_path, write_out
from server.runs.maze_solve import TASKS, Refused, run_solve
from server.store.instances import TASKS as INSTANCE_TASKS

VARIANTS = ("original", "rumormonger", "lunatic", "full")  # engine.hidden_role.roles.VARIANTS
PLAYERS = ("6", "10")  # the paper's games and its released hard set
P1 = ("uniform", "released")  # engine.hidden_role.roles.P1_DISTRIBUTIONS
MAX_ROUNDS = 10  # engine.hidden_role.generator.MAX_ROUNDS
DIFFICULTIES = ("easy", "hard")  # engine.social_graph.generator.PEOPLE
QUERIES = ("mixed", "user", "item")  # engine.user_profile.config.ProfileConfig.query
# The dataset tasks: generated instances are our synthetic samples (no solver to run).
DATASET_TASKS = ("rating-estimation", "review-decision", "user-profile")
# option -> (its task, its default, its valid values or None for a number of rounds)
OPTIONS: dict[str, tuple[str, str, tuple[str, ...] | None]] = {
    "variant": ("hidden-role", "full", VARIANTS),
    "players": ("hidden-role", "6", PLAYERS),
    "rounds": ("hidden-role", "3", None),
    "p1": ("hidden-role", "uniform", P1),
    "difficulty": ("social-graph", "easy", DIFFICULTIES),
    "query": ("user-profile", "mixed", QUERIES),
}


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "maze", help="SocialMaze puzzles: solve a dataset file with our solvers, or generate one",
        description="SocialMaze's Hidden Role Deduction and Social Graph Analysis puzzles: check a "
                    "dataset file against our solvers, or generate a reproducible one.")
    commands = p.add_subparsers(dest="maze_command", required=True,
                                metavar="{solve,generate,import,report}")
    tasks = "|".join(TASKS)
    generated = "|".join((*TASKS, *DATASET_TASKS))
    solve = commands.add_parser(
        "solve", help="run our solver on every instance of a file and compare with its answers",
        description="Load a file (the official release format or our JSON Lines), run our solver "
                    "on every instance and print, per instance, our answer, the file's and "
                    "'agrees' or 'DIFFERS', then the agreement. Problems in the file go to "
                    "stderr; the good instances are still solved. Exit 0 when at least one "
                    "instance was read, 2 when none.")
    solve.add_argument("file", metavar="FILE", help="the dataset file")
    solve.add_argument("--task", default=None, metavar=tasks,
                       help="the file's task (default: the one whose loader reads it)")
    solve.add_argument("--explain", action="store_true",
                       help="print the reasoning under each instance (hidden-role: the kit's "
                            "explanation; social-graph: the groups)")
    solve.add_argument("--json", action="store_true", help="print the results as JSON")
    gen = commands.add_parser(
        "generate", help="write N generated instances as our JSON Lines",
        description="Write N generated instances as our JSON Lines, to stdout or --out FILE. "
                    "Instance k uses seed S + k, so the same options give the same file.")
    gen.add_argument("--task", default=None, metavar=generated,
                     help="which puzzles (required); the dataset tasks write our synthetic "
                          "sample")
    gen.add_argument("--count", default=None, metavar="N", help="how many (required, >= 1)")
    gen.add_argument("--seed", default="0", metavar="S", help="the first seed (default 0)")
    gen.add_argument("--out", default="-", metavar="FILE",
                     help="file to write; '-' (the default) writes to stdout. An existing file "
                          "is refused unless --force")
    gen.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    hrd = gen.add_argument_group("hidden-role options")
    hrd.add_argument("--variant", metavar="|".join(VARIANTS), help="default full")
    hrd.add_argument("--players", metavar="|".join(PLAYERS), help="default 6")
    hrd.add_argument("--rounds", metavar="T", help=f"1..{MAX_ROUNDS}, default 3")
    hrd.add_argument("--p1", metavar="|".join(P1),
                     help="Player 1's role distribution, I:C:R:L 1:1:1:1 or the released "
                          "set's 3:2:60:35 (default uniform)")
    sga = gen.add_argument_group("social-graph options")
    sga.add_argument("--difficulty", metavar="|".join(DIFFICULTIES),
                     help="8-10 people (easy, the default) or 14-16 (hard)")
    imp = commands.add_parser(
        "import", help="store a file's instances in the database, for tables to play by id",
        description="Read a file (the authors' release format or our JSON Lines) and store its "
                    "instances in the database, where a table plays one by its id (the "
                    "create-table screen lists them; protocol: create_table.instance). Problems "
                    "in the file go to stderr; the good instances are still stored. An instance "
                    "is known by its source (the file's name, or --source) and its id: an id "
                    "stored before from the same source with the same content is left alone; "
                    "with other content it is refused unless --replace. Exit 0 when at least one instance was read.")
    imp.add_argument("file", metavar="FILE", help="the dataset file")
    imp.add_argument("--task", default=None, metavar="|".join(INSTANCE_TASKS),
                     help="the file's task (default: the one whose loader reads it)")
    imp.add_argument("--replace", action="store_true",
                     help="replace instances stored from the same source under the same id "
                          "with other content")
    imp.add_argument("--source", default=None, metavar="NAME",
                     help="the name the instances are stored under (default: the file's name); "
                          "an instance is known by its source and id, so files that reuse ids "
                          "are kept apart")
    imp.add_argument("--db", default=argparse.SUPPRESS, help="SQLite file (default: parlor's)")
    report = commands.add_parser(
        "report", help="every finished SocialMaze game in a database, people and models alike",
        description="Score every finished game of the SocialMaze tasks in a database as the "
                    "paper scores them, one row per player (people and bots alike) per task and "
                    "setting: games, accuracy with its 95%% Wilson interval, the task's columns "
                    "and breakdowns, the baseline of the instances played, and the paper's "
                    "numbers (its human average among them). Read-only: safe beside a server.")
    report.add_argument("--task", nargs="+", default=None, metavar="TASK",
                        help="only these tasks (default: all six)")
    report.add_argument("--json", default=None, metavar="FILE", help="also write it as JSON")
    report.add_argument("--names", action="store_true",
                        help="people by name (default: by their pseudonym, as every report)")
    report.add_argument("--study", default="", metavar="NAME",
                        help="people's pseudonyms are this study's (as `parlor study consents --study NAME` "
                             "and `parlor export --study NAME` give them; default: the database's own)")
    report.add_argument("--db", default=argparse.SUPPRESS, help="SQLite file (default: parlor's)")
    upi = gen.add_argument_group("user-profile options")
    upi.add_argument("--query", metavar="|".join(QUERIES),
                     help="one user's comments, an item's, or mixed (user for an even seed, "
                          "item for an odd one; the default)")
    return p


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.maze_command == "import":
        from server.commands.maze_import import run_import

        return run_import(args, database(args))
    if args.maze_command == "solve":
        return run_solve(args)
    if args.maze_command == "report":
        from server.reports.maze import run_report

        return run_report(args)
    try:
        task = _task(args.task)
        count = _number("--count", args.count, 1)
        seed = _number("--seed", args.seed, None)
        options = _options(task, args)
        out = out_path(args.out, args.force, "maze.jsonl")
    except Refused as e:
        print(f"parlor maze generate: {e}", file=sys.stderr)
        return 2
    from engine.errors import ConfigError

    try:
        text = _generate(task, count, seed, options)
    except ConfigError as e:  # e.g. settings that never make a puzzle with a unique answer
        print(f"parlor maze generate: {e}", file=sys.stderr)
        return 2
    if not write_out(out, lambda stream: stream.write(text)):
        return 141
    where = "stdout" if out is None else str(out)
    print(f"parlor maze generate: wrote {count} {task} instance{'s' if count != 1 else ''} "
          f"(seeds {seed}..{seed + count - 1}) to {where}", file=sys.stderr)
    return 0


def _task(given: str | None) -> str:
    if given is None:
        raise Refused(f"--task is required: {' or '.join((*TASKS, *DATASET_TASKS))}")
    if given in DATASET_TASKS:
        return given
    if given not in TASKS:
        raise Refused(f"unknown task {given!r}; tasks: {', '.join((*TASKS, *DATASET_TASKS))}")
    return given


def _number(option: str, text: str | None, minimum: int | None) -> int:
    if text is None:
        raise Refused(f"{option} N is required")
    try:
        value = int(text)
    except ValueError:
        raise Refused(f"{option} must be a whole number, not {text!r}") from None
    if minimum is not None and value < minimum:
        raise Refused(f"{option} must be at least {minimum}, not {value}")
    return value


def _options(task: str, args: argparse.Namespace) -> dict[str, str]:
    """The task's options, checked, with defaults; an option of the other task is refused."""
    chosen = {}
    for name, (owner, default, valid) in OPTIONS.items():
        given = getattr(args, name)
        if owner != task:
            if given is not None:
                mine = ", ".join(f"--{o}" for o, (t, _, _) in OPTIONS.items() if t == task)
                raise Refused(f"--{name} is a {owner} option; {task} takes "
                              f"{mine or 'no options'}")
            continue
        value = default if given is None else given
        if valid is not None and value not in valid:
            raise Refused(f"--{name} must be {' or '.join(valid)}, not {value!r}")
        if valid is None and not (value.isdigit() and 1 <= int(value) <= MAX_ROUNDS):
            raise Refused(f"--{name} must be a whole number from 1 to {MAX_ROUNDS}, not "
                          f"{value!r}")
        chosen[name] = value
    return chosen


def _generate(task: str, count: int, seed: int, options: dict[str, str]) -> str:
    """Our JSON Lines of the instances of seeds seed .. seed + count - 1."""
    seeds = range(seed, seed + count)
    if task in DATASET_TASKS:
        from engine.dataset_task.files import dumps as record_line
        from engine.registry import get

        env = get(task)
        config = env.config(overrides={"query": options["query"]} if "query" in options else {})
        return "".join(record_line(env.task.generate(s, config)) + "\n" for s in seeds)
    if task == "hidden-role":
        from engine.hidden_role.dataset import dump_jsonl
        from engine.hidden_role.generator import generate

        return dump_jsonl(generate(options["variant"], int(options["players"]),
                                   int(options["rounds"]), options["p1"], seed=s) for s in seeds)
    from engine.social_graph.dataset import dumps
    from engine.social_graph.generator import generate as sga_generate

    return "".join(dumps(sga_generate(s, options["difficulty"])) + "\n" for s in seeds)

