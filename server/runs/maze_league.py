"""`parlor league maze`: SocialMaze's tasks scored as the paper scores them. Every model (a bot
spec) plays the same instances of each task, so models are compared on identical instances:
--instances N generated puzzles (puzzle k from seed S + k), or imported ones — the instances
stored in --db by `parlor maze import` (--stored, of one --source or all), or a dataset file's
(--file), the paper's own data among them. Games go through the shared league runner (stored
under the league's tag, which covers the instances played, so a run resumes); the report gives
each model's accuracy with its 95% Wilson interval and the task's breakdowns, beside the paper's
published numbers (each task env's published.py)."""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.registry import env_ids, get
from engine.socialmaze_published import Task
from server.reports.league import run_line
from server.reports.maze_tables import TASKS, Rows, task_json, task_lines
from server.runs.campaign.manifest import Match
from server.runs.league_runner import (
    LeagueError,
    identities,
    play_league,
    run_command,
)
from server.store import instances as maze_instances
from server.tables.policy import BotPolicy

COMMAND = "parlor league maze"


Imported = dict[str, list[tuple[str, str, str]]]  # task -> (source, id, record) per instance


@dataclass(frozen=True)
class Plan:
    tasks: list[Task]
    presets: dict[str, str]
    models: dict[str, list[str]]  # task -> the specs that play it
    instances: int
    seed: int
    tag: str
    imported: Imported | None = None  # None: generated from seeds


def run_maze_league(args: argparse.Namespace) -> int:
    return run_command(COMMAND, args, _plan, _run)


def _plan(args: argparse.Namespace) -> Plan:
    if args.stored and args.file:
        raise LeagueError("give --stored or --file, not both")
    if args.source is not None and not args.stored:
        raise LeagueError("--source picks among the stored instances: give --stored too")
    if args.instances is None and not (args.stored or args.file):
        raise LeagueError("--instances N is required to play generated instances (or play "
                          "imported ones: --stored or --file FILE)")
    if args.instances is not None and args.instances < 1:
        raise LeagueError(f"--instances must be at least 1, got {args.instances}")
    if args.concurrency < 1:
        raise LeagueError(f"--concurrency must be at least 1, got {args.concurrency}")
    known = [t for t in TASKS if t in env_ids()]
    for name in args.task or ():
        if name not in known:
            raise LeagueError(f"unknown task {name!r}; valid tasks: {', '.join(known)}")
    imported = None
    if args.file:
        imported = _from_file(args.file, args.task)
    elif args.stored:
        imported = _from_store(args.db, args.task or known, args.source, bool(args.task))
    if imported is not None and args.instances is not None:
        imported = {t: found[:args.instances] for t, found in imported.items()}
    tasks = list(imported) if imported is not None else args.task or known
    twice = sorted({m for m in args.seat if args.seat.count(m) > 1})
    if twice:
        raise LeagueError(f"--seat names {', '.join(twice)} more than once")
    seats = [_task_and_spec(text, known) for text in args.seat]
    models = {t: [spec for only, spec in seats if only in (None, t)] for t in tasks}
    for name in tasks:
        if not models[name]:
            raise LeagueError(f"no --seat plays {name}: give a spec without a task, or "
                              f"{name}:SPEC")
    presets = {}
    for name in tasks:
        env = get(name)
        preset = args.preset or TASKS[name].preset or env.default_preset
        if preset not in env.presets:
            raise LeagueError(f"{name} has no preset {preset!r}; valid: "
                              f"{', '.join(env.presets)}")
        presets[name] = preset
    played = [[t, get(t).rules_version, get(t).presets[presets[t]].to_json()] for t in tasks]
    if imported is not None:  # the league is its instances: another set is another league
        played.append({t: [[source, ident, hashlib.sha256(record.encode()).hexdigest()]
                           for source, ident, record in found]
                       for t, found in imported.items()})
    text = json.dumps(played, sort_keys=True)
    tag = "maze-" + hashlib.sha256(text.encode()).hexdigest()[:10]
    return Plan([TASKS[t] for t in tasks], presets, models, args.instances or 0, args.seed, tag,
                imported)


def _from_file(name: str, given: list[str] | None) -> Imported:
    """A dataset file's instances, its task told as `parlor maze import` tells it; its problems
    on stderr, one a line (the good instances are played)."""
    from engine.solve_check import Reading
    from server.runs.maze_solve import Refused, choose, read_file

    if given is not None and len(given) != 1:
        raise LeagueError("--file holds one task's instances: give one --task, or none")
    try:
        path, data = read_file(name)
        tasks = given or list(maze_instances.TASKS)
        for task in tasks:
            if task not in maze_instances.TASKS:
                raise Refused(f"{task} plays no imported instances")
        readings = {t: Reading(*maze_instances.read_rows(t, data, str(path))) for t in tasks}
        task = choose(readings, name)
    except Refused as e:
        raise LeagueError(str(e)) from None
    for problem in readings[task].problems:
        print(problem, file=sys.stderr)
    if not readings[task].items:
        raise LeagueError(f"no {task} instance could be read from {name}")
    return {task: [(path.name, row.id, json.dumps(row.record, ensure_ascii=False,
                                                  separators=(",", ":")))
                   for row in readings[task].items]}


def _from_store(db: str | None, tasks: list[str], source: str | None, named: bool) -> Imported:
    """The instances stored in `db` (`parlor maze import`) of each task (of one source, or
    all); a task named on the command line must have some, the others are left out when they
    have none."""
    if not db:
        raise LeagueError("--stored plays the instances stored in --db: give --db FILE")
    if not Path(db).expanduser().is_file():
        raise LeagueError(f"--db {db}: no such database, so no stored instances")
    try:
        conn = sqlite3.connect(Path(db).expanduser().absolute().as_uri() + "?mode=ro",
                               uri=True)
        try:
            found = {t: maze_instances.stored_records(conn, t, source) for t in tasks
                     if t in maze_instances.TASKS}
        finally:
            conn.close()
    except sqlite3.Error as e:
        raise LeagueError(f"cannot read the stored instances of {db}: {e}") from None
    where = f" from source {source!r}" if source is not None else ""
    missing = [t for t in tasks if not found.get(t)]
    if named and missing:
        raise LeagueError(f"no stored {' or '.join(missing)} instance{where} in {db}; "
                          f"`parlor maze import FILE --db {db}` stores them")
    imported = {t: rows for t, rows in found.items() if rows}
    if not imported:
        raise LeagueError(f"no stored instance{where} in {db}; `parlor maze import FILE "
                          f"--db {db}` stores them")
    return imported


def _matches(plan: Plan, env: str, model: str) -> list[Match]:
    """The model's games of one task: instance k from seed S + k, or the k-th imported
    instance (seed k, its record in the table's config)."""
    if plan.imported is None:
        return [Match(env, plan.presets[env], (model,), plan.seed + k)
                for k in range(plan.instances)]
    return [Match(env, plan.presets[env], (model,), k,
                  overrides=maze_instances.table_settings(env, record))
            for k, (_, _, record) in enumerate(plan.imported[env])]


def _task_and_spec(text: str, tasks: list[str]) -> tuple[str | None, str]:
    """("social-graph", "scripted:majority") for "social-graph:scripted:majority"."""
    head, sep, rest = text.partition(":")
    return (head, rest) if sep and head in tasks else (None, text)


@dataclass
class Report:
    plan: Plan
    rows: dict[str, Rows]  # task -> (model, games, aggregate)
    played: int
    seconds: float
    stored: int = 0  # scheduled games found already stored (a run again on its --db)

    @property
    def counted(self) -> int:
        return sum(games for rows in self.rows.values() for _, games, _ in rows)

    def to_json(self) -> dict[str, Any]:
        return {"tasks": {task.env: {**task_json(task, self.plan.presets[task.env],
                                                 self.rows[task.env]),
                                     "instances": self._instances(task.env)}
                          for task in self.plan.tasks},
                "played_now": self.played, "wall_seconds": round(self.seconds, 1)}

    def _instances(self, env: str) -> dict[str, Any]:
        """What the task's instances were: generated from seeds, or imported (by source)."""
        if self.plan.imported is None:
            return {"generated": self.plan.instances, "seeds": [
                self.plan.seed, self.plan.seed + self.plan.instances - 1]}
        found = self.plan.imported[env]
        return {"imported": len(found),
                "sources": dict(Counter(source for source, _, _ in found))}

    def render(self) -> str:
        if self.plan.imported is None:
            lines = [f"SocialMaze tasks: {self.plan.instances} instances each (seeds "
                     f"{self.plan.seed}..{self.plan.seed + self.plan.instances - 1})"]
        else:
            lines = ["SocialMaze tasks on imported instances: " + "; ".join(
                f"{env} {info['imported']} ("
                + ", ".join(f"{s} {n}" for s, n in info["sources"].items()) + ")"
                for env in self.plan.imported
                for info in [self._instances(env)])]
        for task in self.plan.tasks:
            lines += ["", *task_lines(task, self.plan.presets[task.env], self.rows[task.env])]
        lines.append(run_line(self.played, self.stored, self.seconds))
        return "\n".join(lines)


async def _run(args: argparse.Namespace, plan: Plan, started: float) -> Report:
    policy = BotPolicy.command_line()
    await identities([(t.env, m) for t in plan.tasks for m in plan.models[t.env]],
                     policy)  # each spec can play
    matches = [match for t in plan.tasks for m in plan.models[t.env]
               for match in _matches(plan, t.env, m)]
    found, played = await play_league(args, plan.tag, matches, policy)
    rows: dict[str, Rows] = {}
    for task in plan.tasks:
        env = get(task.env)
        for model in plan.models[task.env]:
            games = [found[m].metrics for m in matches
                     if m.env_id == task.env and m.specs[0] == model and m in found]
            aggregate = env.aggregate_metrics(games)
            rows.setdefault(task.env, []).append(
                (model, aggregate["overall"].get("counted", len(games)), aggregate))
    return Report(plan, rows, played, time.monotonic() - started, len(matches) - played)
