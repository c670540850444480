"""`parlor sim`: bot-only games through the same table driver and store as live play, with a
summary per seat spec. Without --db the games go to an in-memory store (ratings included)."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections import defaultdict
from typing import Any

from bots.registry import available
from engine.core import ConfigError, UnknownEnvError
from engine.registry import env_ids, get
from server import protocol as p
from server.app import Server
from server.store import Store


def _overrides(pairs: list[str], parser: argparse.ArgumentParser) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            parser.error(f"--config takes KEY=VALUE, got {pair!r}")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def _validate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> dict[str, Any]:
    try:
        env = get(args.env)
    except UnknownEnvError:
        parser.error(f"unknown environment {args.env!r}; valid environments: "
                     f"{', '.join(env_ids())}")
    overrides = _overrides(args.config, parser)
    try:
        env.config(args.preset, overrides)
    except ConfigError as e:
        parser.error(str(e))
    if len(args.seat) not in env.players:
        parser.error(f"{env.id} needs {' or '.join(map(str, env.players))} --seat options, got "
                     f"{len(args.seat)}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    bots = available(env.id)
    for spec in args.seat:
        if spec == "human":
            parser.error("parlor sim plays bots only; seat people with `parlor`")
    return {"env": env, "overrides": overrides, "bots": bots}


async def _run(args: argparse.Namespace, overrides: dict[str, Any]) -> list[dict[str, Any]]:
    server = Server(args.db or ":memory:")
    server.store = await Store.open(args.db or ":memory:")
    results = []
    try:
        for k in range(args.games):
            table = server.create_table(args.env, args.preset, overrides, list(args.seat),
                                        args.seed + k)
            await table.start()
            await table.done.wait()
            results.append(table.game_over_message or {})
    finally:
        await server.store.close()
    return results


def summarise(env_id: str, specs: list[str], games: list[dict[str, Any]]) -> str:
    env = get(env_id)
    rows: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    void = 0
    for msg in games:
        if msg["result"]["void"]:
            void += 1
            continue
        for seat, spec in enumerate(specs):
            m = msg["metrics"]["seats"][str(seat)]
            r = rows[spec]
            r["seats"] += 1
            r["win"] += m.get("win", 0)
            r["draw"] += m.get("draw", 0)
            r["loss"] += m.get("loss", 0)
            r["reward"] += m.get("reward", 0.0)
            r["invalid"] += m.get("invalid_caused", 0)
            r["forfeit"] += m.get("self_forfeit", 0)
    lines = [f"{env.title}: {len(games)} games ({void} void)",
             f"{'bot':32} {'seats':>5} {'W':>4} {'D':>4} {'L':>4} {'mean reward':>11} "
             f"{'invalid':>7} {'forfeits':>8}"]
    for spec, r in rows.items():
        n = r["seats"] or 1
        lines.append(f"{spec:32} {int(r['seats']):>5} {int(r['win']):>4} {int(r['draw']):>4} "
                     f"{int(r['loss']):>4} {r['reward'] / n:>11.3f} {int(r['invalid']):>7} "
                     f"{int(r['forfeit']):>8}")
    means: dict[str, list[float]] = defaultdict(list)
    for msg in games:
        if not msg["result"]["void"]:
            for name, value in msg["metrics"]["game"].items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    means[name].append(value)
    if means:
        lines.append("game metrics (mean): " + ", ".join(
            f"{name} {sum(v) / len(v):.3f}" for name, v in means.items()))
    return "\n".join(lines)


def run_sim(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    checked = _validate(args, parser)
    try:
        games = asyncio.run(_run(args, checked["overrides"]))
    except p.ProtocolError as e:
        parser.error(e.message)
    print(summarise(args.env, list(args.seat), games))
    if args.db:
        print(f"Stored in {args.db}.")
    return 0
