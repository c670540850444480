"""`parlor bots check SPEC`: an LLM bot spec tried end to end (bots/llm/check.py)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    bots = sub.add_parser("bots", help="inspect bots")
    bots_sub = bots.add_subparsers(dest="bots_command", required=True)
    check = bots_sub.add_parser("check", help="verify an LLM bot spec end to end")
    check.add_argument("spec", help="e.g. openai:gpt-4o-mini or openai-compatible:llama3@URL")
    check.add_argument("--env", default="colonel-blotto", help="env whose prompt is tried")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from bots.llm.check import run_bots_check

    return run_bots_check(args.spec, env_id=args.env)
