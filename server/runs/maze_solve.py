"""`parlor maze solve FILE`: our solver on every instance of a SocialMaze file, against the
file's own answers.

The file's task is --task, else the one whose kit reads it (see `choose`). Problems in the file
go to stderr, one a line naming the file, the instance and the field; the good instances are
still solved. One line per instance on stdout, then `agreement: A / N instances`. Exit 0 when at
least one instance was read, 2 when none (or the file or the options are unusable).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

from engine.solve_check import Check, Reading
from server.reports.outfile import Refused, write_out

KINDS = ("pairwise", "membership", "group_count", "pair_count")  # social_graph.queries.KINDS


# task -> its kit's module that reads a file and checks one instance (`read`, `check`), imported
# when a command runs so that `parlor --help` loads no kit
TASKS = {
    "hidden-role": "engine.hidden_role.solve_check",
    "social-graph": "engine.social_graph.solve_check",
}


def _kit(task: str) -> Any:
    return importlib.import_module(TASKS[task])


def task_name(given: str | None) -> str | None:
    if given is not None and given not in TASKS:
        raise Refused(f"unknown task {given!r}; tasks: {', '.join(TASKS)}")
    return given


def read_file(name: str) -> tuple[Path, bytes]:
    path = Path(name).expanduser()
    if path.is_dir():
        raise Refused(f"{name} is a folder; give a dataset file")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise Refused(f"{name}: no such file") from None
    except OSError as e:
        raise Refused(f"{name}: cannot read: {e.strerror or e}") from None
    if not data.strip():
        raise Refused(f"{name} is empty: no instances")
    return path, data


def choose(readings: dict[str, Reading], name: str) -> str:
    """The task whose kit reads the file: the only one that reads it without problems, else the
    only one that reads any instance of it."""
    if len(readings) == 1:
        return next(iter(readings))
    for fits in (lambda r: r.items and not r.problems, lambda r: r.items):
        found = [task for task, reading in readings.items() if fits(reading)]
        if len(found) == 1:
            return found[0]
    reading_it = [task for task, reading in readings.items() if reading.items]
    if reading_it:
        why = f"{' and '.join(reading_it)} read instances from it"
    else:
        why = "no kit reads an instance from it: " + "; ".join(
            f"{task}: {reading.problems[0]}" for task, reading in readings.items()
            if reading.problems)
    raise Refused(f"cannot tell which task {name} is for ({why}); give --task "
                  f"{' or --task '.join(reading_it or readings)}")


def unsolved(path: Path, data: bytes, name: str) -> None:
    """Refused, saying so, when the file holds instances of a task we have no solver for (the
    dataset tasks, Find the Spy's recordings): they are imported and played, not solved."""
    from server.store.instances import TASKS as STORED
    from server.store.instances import read_rows

    for task in STORED:
        if task not in TASKS and read_rows(task, data, str(path))[0]:
            raise Refused(f"{name} holds {task} instances: there is no solver for {task} (its "
                          f"answers are judgements, not deductions); `parlor maze import` "
                          f"stores them for tables, `parlor league maze --file` plays them")


def summary(checks: list[Check], problems: int) -> str:
    agree = sum(c.agrees for c in checks)
    text = f"agreement: {agree} / {len(checks)} instances"
    if agree < len(checks):
        text += f" ({len(checks) - agree} DIFFERS)"
    kinds = _by_kind(checks)
    if kinds:
        text += "; by query type: " + ", ".join(f"{kind} {ok}/{total}"
                                                for kind, (ok, total) in kinds.items())
    if problems:
        text += (f"; {problems} problem{'s' if problems != 1 else ''} in the file (listed on "
                 f"stderr): {'those instances were' if problems != 1 else 'that instance was'} "
                 f"not solved")
    return text


def _by_kind(checks: list[Check]) -> dict[str, tuple[int, int]]:
    total, ok = Counter[str](), Counter[str]()
    for check in checks:
        for kind, agrees in check.queries:
            total[kind] += 1
            ok[kind] += agrees
    order = [*KINDS, *sorted(set(total) - set(KINDS))]
    return {kind: (ok[kind], total[kind]) for kind in order if kind in total}


def run_solve(args: argparse.Namespace) -> int:
    try:
        given = task_name(args.task)
        path, data = read_file(args.file)
        tasks = [given] if given else list(TASKS)
        readings = {task: _kit(task).read(path, data) for task in tasks}
        if not given and not any(r.items for r in readings.values()):
            unsolved(path, data, args.file)
        task = choose(readings, args.file)
    except Refused as e:
        print(f"parlor maze solve: {e}", file=sys.stderr)
        return 2
    reading = readings[task]
    for problem in reading.problems:
        print(problem, file=sys.stderr)
    if not reading.items:
        print(f"parlor maze solve: no {task} instance could be read from {args.file}",
              file=sys.stderr)
        return 2
    check = _kit(task).check
    checks = [check(item, args.explain) for item in reading.items]
    if args.json:
        return emit(json.dumps(_json(args.file, task, checks, reading.problems), indent=2,
                               ensure_ascii=False) + "\n")
    rows = []
    for c in checks:
        rows.append(f"{c.id}: solver {c.solver} | file {c.truth} | "
                    f"{'agrees' if c.agrees else 'DIFFERS'}\n")
        if c.explanation:
            rows.append(textwrap.indent(c.explanation, "    ") + "\n")
    return emit("".join(rows) + summary(checks, len(reading.problems)) + "\n")


def emit(text: str) -> int:
    """Write `text` to stdout: 0, or 141 when the reader closed it early (e.g. `| head`)."""
    return 0 if write_out(None, lambda stream: stream.write(text)) else 141


def _json(name: str, task: str, checks: list[Check], problems: list[str]) -> dict[str, Any]:
    agreement: dict[str, Any] = {"agree": sum(c.agrees for c in checks),
                                 "instances": len(checks)}
    kinds = _by_kind(checks)
    if kinds:
        agreement["by_query_type"] = {kind: {"agree": ok, "queries": total}
                                      for kind, (ok, total) in kinds.items()}
    return {"file": name, "task": task, "instances": [c.data for c in checks],
            "agreement": agreement, "problems": problems, "summary": summary(checks,
                                                                            len(problems))}
