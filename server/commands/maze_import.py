"""`parlor maze import FILE`: a SocialMaze file's instances into the database (see
server/store/instances.py). The file's task is --task, else the one whose loader reads it (as
`parlor maze solve` tells). Problems go to stderr, one a line naming the file, the instance and
the field; the good instances are stored under their source (the file's name, or --source), so
two files that use the same ids are both kept. Exit 0 when at least one instance was read, 2 when
none (or the file or the options are unusable), 1 when ids were refused for other content."""

from __future__ import annotations

import argparse
import sys

from engine.solve_check import Reading
from server.runs.maze_solve import Refused, choose, read_file
from server.store.instances import TASKS, read_rows, store_rows
from server.store.store import Store
from server.wire.protocol import MAX_INSTANCE_ID_CHARS


def run_import(args: argparse.Namespace, db: str) -> int:
    try:
        if args.task is not None and args.task not in TASKS:
            raise Refused(f"unknown task {args.task!r}; tasks: {', '.join(TASKS)}")
        path, data = read_file(args.file)
        source = path.name if args.source is None else args.source.strip()
        if not 1 <= len(source) <= MAX_INSTANCE_ID_CHARS:
            raise Refused(f"a source name has 1 to {MAX_INSTANCE_ID_CHARS} characters: give "
                          f"--source NAME")
        tasks = [args.task] if args.task else list(TASKS)
        readings = {t: Reading(*read_rows(t, data, str(path))) for t in tasks}
        task = choose(readings, args.file)
    except Refused as e:
        print(f"parlor maze import: {e}", file=sys.stderr)
        return 2
    rows, problems = readings[task].items, readings[task].problems
    for problem in problems:
        print(problem, file=sys.stderr)
    if not rows:
        print(f"parlor maze import: no instance of {task} could be read from {args.file}",
              file=sys.stderr)
        return 2
    conn = Store._connect(db)
    try:
        done = store_rows(conn, task, rows, source, replace=args.replace)
    finally:
        conn.close()
    parts = [f"{done.added} new"]
    if done.replaced:
        parts.append(f"{done.replaced} replaced")
    if done.same:
        parts.append(f"{done.same} already stored")
    print(f"parlor maze import: {len(rows)} {task} instance{'s' if len(rows) != 1 else ''} from "
          f"{path.name}" + (f" as source {source!r}" if source != path.name else "")
          + f": {', '.join(parts)}"
          + (f"; {len(problems)} problem{'s' if len(problems) != 1 else ''} (above)"
             if problems else ""), file=sys.stderr)
    if done.conflicts:
        shown = ", ".join(done.conflicts[:10]) + (" ..." if len(done.conflicts) > 10 else "")
        print(f"parlor maze import: {len(done.conflicts)} id{'s' if len(done.conflicts) != 1 else ''}"
              f" already stored with other content, kept as they were (--replace replaces "
              f"them): {shown}", file=sys.stderr)
        return 1
    return 0
