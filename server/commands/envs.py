"""`parlor envs`: the environments and their presets."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    sub.add_parser("envs", help="list the environments and their presets")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from engine.registry import all_envs
    from server.wire.protocol import players_text

    for env in all_envs():
        players = players_text(env.players)
        print(f"{env.id:20} {players:>5} players  {env.description}")
        print(f"{'':20} presets: {', '.join(env.presets)} (default {env.default_preset})")
    return 0
