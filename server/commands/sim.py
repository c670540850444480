"""`parlor sim`: bot games played headless, with a summary (server/runs/sim.py)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
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
    sim.add_argument("--plan", default=None, metavar="FILE",
                     help="write these games to a campaign manifest and stop; `parlor "
                          "campaign run FILE` plays them (resumable, with a budget, on Ray)")
    sim.add_argument("--on-bot-failure", default="void", choices=("void", "default", "wait"),
                     help="when a bot's provider fails: void the game (default), make the "
                          "env's default move for it and go on, or wait and retry")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from server.runs.sim import run_sim

    return run_sim(args, parser)
