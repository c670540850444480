"""`parlor maze report`: every finished SocialMaze game in a database, people's and models'
alike, scored as the paper scores them — the human baselines beside the models. Per task and
setting (the preset, and whether the instances were imported), one row per player identity: its
games, accuracy with its 95% Wilson interval, the task's columns and breakdowns, and the
baseline of the instances it played, with the paper's numbers (its human average among them)
below. The database is opened read-only, so a report may run beside a server.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections import defaultdict
from typing import Any

from engine.registry import env_ids, get
from server.reports.export import connect
from server.reports.export import database as find_database
from server.reports.maze_tables import TASKS, Rows, task_json, task_lines
from server.reports.outfile import Refused
from server.store.pseudonyms import Label, PseudonymKeyMissing, labeller


def run_report(args: argparse.Namespace) -> int:
    known = [t for t in TASKS if t in env_ids()]
    try:
        for task in args.task or ():
            if task not in known:
                raise Refused(f"unknown task {task!r}; tasks: {', '.join(known)}")
        conn = connect(find_database(getattr(args, "db", None)))
        try:
            label = labeller(conn, getattr(args, "study", ""), getattr(args, "names", False))
        except PseudonymKeyMissing as e:
            conn.close()
            raise Refused(str(e)) from None
    except Refused as e:
        print(f"parlor maze report: {e}", file=sys.stderr)
        return 2
    try:
        tables = {task: _rows(conn, task, label) for task in (args.task or known)}
    finally:
        conn.close()
    lines = []
    for task, settings in tables.items():
        for setting, rows in settings.items():
            lines += [*task_lines(TASKS[task], setting, rows, who="player",
                                  same_instances=False), ""]
    if not lines:
        lines = ["No finished SocialMaze games in this database yet."]
    print("\n".join(lines).rstrip())
    if args.json:
        report = {task: {setting: task_json(TASKS[task], setting, rows)
                         for setting, rows in settings.items()}
                  for task, settings in tables.items()}
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=1)
    return 0


def who(identity: str, kind: str, label: Label) -> str:
    """"p-1a2b3c4d5e6f (person)" for a person (their pseudonym, or "alice (person)" when
    names were asked for), the bot's spec as it is for a bot."""
    if kind != "human":
        return identity
    return f"{label(identity, kind).removeprefix('human:')} (person)"


def setting_of(preset: str | None, config: dict[str, Any]) -> str:
    # a stored or file instance (Find the Spy's passive recording is its `recorded` setting)
    imported = " · imported instances" if config.get("instance") or config.get("recorded") \
        else ""
    return f"{preset or 'custom settings'}{imported}"


def _rows(conn: sqlite3.Connection, task: str, label: Label) -> dict[str, Rows]:
    """The task's finished games by setting, then by player: each game's metrics cut to the
    seats that player held (Find the Spy seats several players a game)."""
    env = get(task)
    games: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    found = conn.execute(
        "SELECT g.id, g.preset, g.config, g.metrics, s.seat, s.identity, s.kind FROM games g "
        "JOIN seats s ON s.game_id = g.id WHERE g.env = ? AND g.status = 'finished' "
        "AND g.metrics IS NOT NULL ORDER BY g.id, s.seat", (task,))
    for row in found:
        metrics = json.loads(row["metrics"])
        setting = setting_of(row["preset"], json.loads(row["config"]))
        seat = str(row["seat"])
        mine = games[setting][who(row["identity"], row["kind"], label)]
        if mine and mine[-1].get("_game") == row["id"]:
            mine[-1]["seats"][seat] = metrics["seats"].get(seat, {})
        else:
            mine.append({"_game": row["id"], "game": metrics.get("game", {}),
                         "seats": {seat: metrics["seats"].get(seat, {})}})
    out: dict[str, Rows] = {}
    for setting, players in sorted(games.items()):
        rows = []
        for name, played in players.items():
            aggregate = env.aggregate_metrics(played)
            rows.append((name, aggregate["overall"].get("counted", len(played)), aggregate))
        # people first, then by games played
        rows.sort(key=lambda r: (not r[0].endswith("(person)"), -r[1], r[0]))
        out[setting] = rows
    return out
