"""`parlor sim`: bot-only games through the same table driver and store as live play, with a
summary per seat spec. Without --db the games go to an in-memory store (ratings included)."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from bots.registry import available
from engine.core import ConfigError, GameRecord, UnknownEnvError
from engine.registry import env_ids, get
from server import protocol as p
from server.app import Server
from server.seating import SeatingError, resolve_seats, split_spec
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
    plain = all(split_spec(spec)[0] is None for spec in args.seat)
    if plain and args.players is None and len(args.seat) not in env.players:
        parser.error(f"{env.id} needs {' or '.join(map(str, env.players))} --seat options, got "
                     f"{len(args.seat)}")
    try:
        config = env.config(args.preset, overrides)
        resolve_seats(env, config, args.seed, args.seat, args.players)
    except (ConfigError, SeatingError) as e:
        parser.error(str(e))
    if args.games < 1:
        parser.error("--games must be at least 1")
    bots = available(env.id)
    for spec in args.seat:
        if split_spec(spec)[1] == "human":
            parser.error("parlor sim plays bots only; seat people with `parlor`")
    return {"env": env, "overrides": overrides, "bots": bots}


async def _run(args: argparse.Namespace, overrides: dict[str, Any]
               ) -> tuple[list[dict[str, Any]], dict[str, dict[str, float]], list[GameRecord]]:
    """Play the games; returns their game_over messages, usage per bot identity and the
    records as stored (what the env's aggregate metrics read)."""
    server = Server(args.db or ":memory:")
    store = server.store = await Store.open(args.db or ":memory:")
    results = []
    try:
        for k in range(args.games):
            table = server.create_table(args.env, args.preset, overrides, list(args.seat),
                                        args.seed + k, args.on_bot_failure,
                                        players=args.players)
            await table.start()
            await table.done.wait()
            # Role specs put bots on different seats from game to game: keep who sat where.
            results.append({**(table.game_over_message or {}),
                            "specs": [s.spec for s in table.seats]})
        game_ids = [m["game_id"] for m in results]
        usage = await store.usage_by_identity(game_ids)
        marks = ",".join("?" * len(game_ids))
        for row in await store.fetch(
                f"SELECT s.identity, count(*) n FROM bot_failures f JOIN seats s ON "
                f"s.game_id = f.game_id AND s.seat = f.seat WHERE f.game_id IN ({marks}) "
                f"GROUP BY s.identity", game_ids):
            usage.setdefault(row["identity"], {})["failed_calls"] = row["n"]
        records = [r for r in [await store.load_record(i) for i in game_ids] if r is not None]
    finally:
        await store.close()
    return results, usage, records


def summarise(env_id: str, specs: list[str], games: list[dict[str, Any]],
              usage: dict[str, dict[str, float]] | None = None,
              records: Sequence[GameRecord] = ()) -> str:
    env = get(env_id)
    rows: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    void = 0
    provider_errors: dict[str, int] = defaultdict(int)
    for msg in games:
        if msg["result"]["void"]:
            void += 1
            for seat, status in msg["statuses"].items():
                provider_errors[msg.get("specs", specs)[int(seat)]] += status == "provider_error"
            continue
        for seat, spec in enumerate(msg.get("specs", specs)):
            m = msg["metrics"]["seats"][str(seat)]
            r = rows[spec]
            r["seats"] += 1
            r["win"] += m.get("win", 0)
            r["draw"] += m.get("draw", 0)
            r["loss"] += m.get("loss", 0)
            r["reward"] += m.get("reward", 0.0)
            r["invalid"] += m.get("invalid_caused", 0)
            r["forfeit"] += m.get("self_forfeit", 0)
    lines = [f"{env.title}: {len(games)} games ({void} void, not counted below"
             + (f"; provider errors: {dict(provider_errors)}" if any(provider_errors.values())
                else "") + ")",
             f"{'bot':32} {'seats':>5} {'W':>4} {'D':>4} {'L':>4} {'mean reward':>11} "
             f"{'invalid':>7} {'forfeits':>8}"]
    for spec, r in rows.items():
        n = r["seats"] or 1
        lines.append(f"{spec:32} {int(r['seats']):>5} {int(r['win']):>4} {int(r['draw']):>4} "
                     f"{int(r['loss']):>4} {r['reward'] / n:>11.3f} {int(r['invalid']):>7} "
                     f"{int(r['forfeit']):>8}")
    if usage:
        lines.append(f"{'usage':32} {'decisions':>9} {'prompt tok':>10} {'compl tok':>9} "
                     f"{'cost $':>8} {'ms/dec':>7} {'retries':>7} {'failed calls':>12}")
        for identity, u in usage.items():
            n = u.get("decisions", 0) or 1
            lines.append(f"{identity[:32]:32} {int(u.get('decisions', 0)):>9} "
                         f"{int(u.get('prompt_tokens', 0)):>10} "
                         f"{int(u.get('completion_tokens', 0)):>9} {u.get('cost', 0):>8.4f} "
                         f"{u.get('latency_ms', 0) / n:>7.1f} {int(u.get('retries', 0)):>7} "
                         f"{int(u.get('failed_calls', 0)):>12}")
    if records:  # the env's own aggregation across games (void games left out by the env)
        overall = env.aggregate_metrics(records).get("overall", {})
        lines.append(f"{env.id} metrics: " + ", ".join(
            f"{name} {_fmt(value)}" for name, value in overall.items()))
    return "\n".join(lines)


def _fmt(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def run_sim(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    checked = _validate(args, parser)
    try:
        games, usage, records = asyncio.run(_run(args, checked["overrides"]))
    except p.ProtocolError as e:
        parser.error(e.message)
    print(summarise(args.env, list(args.seat), games, usage, records))
    if args.db:
        print(f"Stored in {args.db}.")
    return 0
