"""Decisions per second of Parlor's engines against TextArena 0.7.4's implementations of the same
games, on the same pre-generated action streams (no bot time, no I/O).

Per decision Parlor does what a table does: pending(), the seat's view() and its text render(),
then act(). TextArena does what its loop does: get_observation(), then step(). TextArena runs in a
subprocess with whatever Python has `textarena` importable (`pip install -e '.[bench]'`, or
--textarena-python PATH); without it, only Parlor's figures are printed.

    python benchmarks/engine.py [--games 300] [--repeats 3] [--textarena-python PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.registry import get  # noqa: E402

CHAT = ["Let's all cooperate this round.", "I will defect on anyone who defects on me.",
        "Player 1 cannot be trusted.", "Agreed, cooperation it is.", "No promises."]


def blotto_stream(rng: random.Random) -> list[str]:
    """18 allocations of exactly 20 units (valid under both the paper's and TextArena's rule)."""
    out = []
    for _ in range(18):
        a = rng.randint(0, 20)
        b = rng.randint(0, 20 - a)
        out.append(f"[A{a} B{b} C{20 - a - b}]")
    return out


def ipd_stream(rng: random.Random) -> list[str]:
    """Five rounds of three chat lines then three decisions (players 0, 1, 2 in order)."""
    out = []
    for _ in range(5):
        out += [rng.choice(CHAT) for _ in range(3)]
        for seat in range(3):
            opp = [o for o in range(3) if o != seat]
            out.append(" ".join(f"[{o} {rng.choice(['cooperate', 'defect'])}]" for o in opp))
    return out


STREAMS = {"colonel-blotto": blotto_stream, "three-player-ipd": ipd_stream}
PLAYERS = {"colonel-blotto": 2, "three-player-ipd": 3}


def run_parlor(env_id: str, streams: list[list[str]], text: bool) -> tuple[int, float]:
    """text=True renders each decision's view as the text an agent reads."""
    env = get(env_id)
    config = env.config("paper")
    decisions = 0
    start = time.perf_counter()
    for seed, stream in enumerate(streams):
        game = env.new_game(config, seed, PLAYERS[env_id])
        for action in stream:
            if game.over:
                break
            seat = min(game.pending())
            view = game.view(seat)
            if text:
                env.render(view)
            game.act(seat, action)
            decisions += 1
    return decisions, time.perf_counter() - start


TEXTARENA_RUNNER = r"""
import json, sys, time
import textarena as ta
from textarena.envs.ColonelBlotto.env import ColonelBlottoEnv
from textarena.envs.ThreePlayerIPD.env import ThreePlayerIPDEnv
env_id, path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
streams = json.load(open(path))
if mode == "raw":
    make = {"colonel-blotto": lambda: ColonelBlottoEnv(num_fields=3, num_total_units=20,
                                                       num_rounds=9),
            "three-player-ipd": lambda: ThreePlayerIPDEnv(num_rounds=5, communication_turns=1)
            }[env_id]
else:  # as registered: the default wrappers build the text observation an agent reads
    make = lambda: ta.make({"colonel-blotto": "ColonelBlotto-v0",
                            "three-player-ipd": "ThreePlayerIPD-v0"}[env_id])
players = {"colonel-blotto": 2, "three-player-ipd": 3}[env_id]
steps = 0
start = time.perf_counter()
for seed, stream in enumerate(streams):
    env = make()
    env.reset(num_players=players, seed=seed)
    for text in stream:
        env.get_observation()
        done, _ = env.step(text)
        steps += 1
        if done:
            break
print(json.dumps([steps, time.perf_counter() - start]))
"""


def find_textarena_python(explicit: str | None) -> str | None:
    candidates = [explicit] if explicit else [sys.executable, "/work/ta-venv/bin/python"]
    for python in candidates:
        if python and Path(python).exists() and subprocess.run(
                [python, "-c", "import textarena"], capture_output=True).returncode == 0:
            return python
    return None


def run_textarena(python: str, env_id: str, streams: list[list[str]], text: bool
                  ) -> tuple[int, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(streams, f)
    out = subprocess.run([python, "-c", TEXTARENA_RUNNER, env_id, f.name,
                          "text" if text else "raw"], capture_output=True,
                         text=True, check=True)
    Path(f.name).unlink()
    steps, seconds = json.loads(out.stdout.strip().splitlines()[-1])
    return steps, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--textarena-python", default=None)
    args = parser.parse_args()
    ta_python = find_textarena_python(args.textarena_python)
    print(f"{'env':18} {'observation':11} {'decisions':>9} {'Parlor dec/s':>13} "
          f"{'TextArena st/s':>15} {'ratio':>6}  target >=2x (goal 3x), best of {args.repeats}")
    for env_id, make_stream in STREAMS.items():
        rng = random.Random(2026)
        streams = [make_stream(rng) for _ in range(args.games)]
        for text in (True, False):
            label = "text" if text else "structured"
            ours = [run_parlor(env_id, streams, text) for _ in range(args.repeats)]
            n, best = ours[0][0], min(s for _, s in ours)
            rate = n / best
            median = n / statistics.median(s for _, s in ours)
            if not ta_python:
                print(f"{env_id:18} {label:11} {n:>9} {rate:>13,.0f} {'skipped':>15} {'-':>6}"
                      "  (textarena not importable: pip install -e '.[bench]')")
                continue
            theirs = [run_textarena(ta_python, env_id, streams, text)
                      for _ in range(args.repeats)]
            ta_n, ta_best = theirs[0][0], min(s for _, s in theirs)
            ta_rate = ta_n / ta_best
            print(f"{env_id:18} {label:11} {n:>9} {rate:>13,.0f} {ta_rate:>15,.0f} "
                  f"{rate / ta_rate:>5.1f}x  (Parlor median {median:,.0f}/s; "
                  f"TextArena made {ta_n} steps)")


if __name__ == "__main__":
    main()
