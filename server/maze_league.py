"""`parlor league maze`: SocialMaze's tasks scored as the paper scores them. Every model (a bot
spec) plays the same --instances puzzles of each task (puzzle k from seed S + k, so models are
compared on identical instances), through the shared league runner (stored under the league's
tag, resumable); the report gives each model's accuracy with its 95% Wilson interval and the
task's breakdowns, beside the paper's published numbers (server/maze_published.py)."""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

from engine.registry import env_ids, get
from server.league_runner import GameKey, LeagueError, Match, identities, play_league, run_command
from server.maze_published import TASKS, Task
from server.maze_tables import Rows, task_json, task_lines
from server.policy import BotPolicy

COMMAND = "parlor league maze"


@dataclass(frozen=True)
class Plan:
    tasks: list[Task]
    presets: dict[str, str]
    models: dict[str, list[str]]  # task -> the specs that play it
    instances: int
    seed: int
    tag: str


def run_maze_league(args: argparse.Namespace) -> int:
    return run_command(COMMAND, args, _plan, _run)


def _plan(args: argparse.Namespace) -> Plan:
    if args.instances < 1:
        raise LeagueError(f"--instances must be at least 1, got {args.instances}")
    if args.concurrency < 1:
        raise LeagueError(f"--concurrency must be at least 1, got {args.concurrency}")
    known = [t for t in TASKS if t in env_ids()]
    tasks = args.task or known
    for name in tasks:
        if name not in known:
            raise LeagueError(f"unknown task {name!r}; valid tasks: {', '.join(known)}")
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
    text = json.dumps([[t, get(t).rules_version, get(t).presets[presets[t]].to_json()]
                       for t in tasks], sort_keys=True)
    tag = "maze-" + hashlib.sha256(text.encode()).hexdigest()[:10]
    return Plan([TASKS[t] for t in tasks], presets, models, args.instances, args.seed, tag)


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

    def to_json(self) -> dict[str, Any]:
        return {"tasks": {task.env: task_json(task, self.plan.presets[task.env],
                                              self.rows[task.env])
                          for task in self.plan.tasks},
                "played_now": self.played, "wall_seconds": round(self.seconds, 1)}

    def render(self) -> str:
        lines = [f"SocialMaze tasks: {self.plan.instances} instances each (seeds "
                 f"{self.plan.seed}..{self.plan.seed + self.plan.instances - 1})"]
        for task in self.plan.tasks:
            lines += ["", *task_lines(task, self.plan.presets[task.env], self.rows[task.env])]
        lines.append(f"{self.played} games played now, the rest from the store; wall time "
                     f"{self.seconds:.1f} s")
        return "\n".join(lines)


async def _run(args: argparse.Namespace, plan: Plan, started: float) -> Report:
    policy = BotPolicy.command_line()
    known = await identities([(t.env, m) for t in plan.tasks for m in plan.models[t.env]],
                             policy)
    matches = [Match(t.env, plan.presets[t.env], (m,), plan.seed + k)
               for t in plan.tasks for m in plan.models[t.env] for k in range(plan.instances)]

    def key(match: Match) -> GameKey:
        return match.env_id, match.seed, (known[match.env_id, match.specs[0]],)

    found, played = await play_league(args, plan.tag, matches, key, policy)
    rows: dict[str, Rows] = {}
    for task in plan.tasks:
        env = get(task.env)
        for model in plan.models[task.env]:
            games = [found[m].metrics for m in matches
                     if m.env_id == task.env and m.specs[0] == model and m in found]
            aggregate = env.aggregate_metrics(games)
            rows.setdefault(task.env, []).append(
                (model, aggregate["overall"].get("counted", len(games)), aggregate))
    return Report(plan, rows, played, time.monotonic() - started)
