"""Decisions per second of Parlor's engines against TextArena 0.7.4's implementations of the same
games, on the same pre-generated action streams (no bot time, no I/O). What each side counts per
decision is described in benchmarks/README.md.

TextArena runs in a subprocess of whatever Python has `textarena` importable (this one, or
/work/ta-venv/bin/python, or --textarena-python PATH; `pip install -e '.[bench]'` provides it).
Without it only Parlor's figures are printed and the comparison is reported as skipped.

    python benchmarks/engine.py [--games 300] [--repeats 5] [--textarena-python PATH] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.registry import get  # noqa: E402

TARGET, GOAL = 2.0, 3.0
CHAT = ["Let's all cooperate this round.", "I will defect on anyone who defects on me.",
        "Player 1 cannot be trusted.", "Agreed, cooperation it is.", "No promises."]


def blotto_stream(rng: random.Random) -> list[str]:
    """18 allocations of exactly 20 units: valid under both the paper's at-most-20 rule and
    TextArena's exactly-20 rule, so both implementations play the same 9-round (or shorter) game."""
    out = []
    for _ in range(18):
        a = rng.randint(0, 20)
        b = rng.randint(0, 20 - a)
        out.append(f"[A{a} B{b} C{20 - a - b}]")
    return out


def ipd_stream(rng: random.Random) -> list[str]:
    """Five rounds of three chat lines then three decision strings (players 0, 1, 2 in order)."""
    out = []
    for _ in range(5):
        out += [rng.choice(CHAT) for _ in range(3)]
        for seat in range(3):
            opp = [o for o in range(3) if o != seat]
            out.append(" ".join(f"[{o} {rng.choice(['cooperate', 'defect'])}]" for o in opp))
    return out


def mafia_stream(rng: random.Random) -> list[str]:
    """Secret Mafia: lines that are both a speech and a target (`[k]`, k random), in whatever
    order the game asks; invalid targets take the retry-then-eliminate path. Every game ends
    well within 200 of them (at most 76 decisions over 1,000 seeds)."""
    return [f"I suspect Player {k}. [{k}]" for k in (rng.randrange(6) for _ in range(200))]


class CodenamesStreams:
    """Codenames: stream k is a game played on the board of seed k (parlor_games seeds game k
    with k), clues `[signal n]` (legal on every board) and random guesses or passes, written by
    playing it through the engine. A run makes its streams in order from one fresh rng, so the
    maker counts its calls per rng. TextArena's Codenames needs NLTK downloads: no comparison."""

    def __init__(self) -> None:
        self.rng: random.Random | None = None
        self.made = 0

    def __call__(self, rng: random.Random) -> list[str]:
        if rng is not self.rng:
            self.rng, self.made = rng, 0
        env, out = get("codenames"), []
        game = env.new_game(env.config("paper"), self.made, 4)
        self.made += 1
        while not game.over:
            hidden = [w for w, shown in zip(game.words, game.revealed, strict=True) if not shown]
            text = (f"[signal {rng.randint(1, 3)}]" if game.phase == "clue" else
                    "[pass]" if rng.random() < 0.2 else f"[{rng.choice(hidden)}]")
            game.act(min(game.pending()), text)
            out.append(text)
        return out


STREAMS: dict[str, Callable[[random.Random], list[str]]] = {
    "colonel-blotto": blotto_stream, "three-player-ipd": ipd_stream,
    "secret-mafia": mafia_stream, "codenames": CodenamesStreams()}
PLAYERS = {"colonel-blotto": 2, "three-player-ipd": 3, "secret-mafia": 6, "codenames": 4}
NO_TEXTARENA = {"codenames"}  # Parlor's figures only


# ---------------------------------------------------------------------------------- Parlor side
ROWS = ("steps", "structured", "text")


def parlor_games(env_id: str, streams: list[list[str]], row: str) -> tuple[int, list[dict]]:
    """Play every stream once; per decision: pending() and act(), and for the structured and
    text rows first legal() and view(), and for the text row render(view).
    Returns (decisions, final rewards per game)."""
    env = get(env_id)
    config = env.config("paper")
    players = PLAYERS[env_id]
    render = env.render
    observe, text = row != "steps", row == "text"
    decisions = 0
    results = []
    for seed, stream in enumerate(streams):
        game = env.new_game(config, seed, players)
        for action in stream:
            seat = min(game.pending())
            if observe:
                game.legal(seat)
                view = game.view(seat)
                if text:
                    render(view)
            game.act(seat, action)
            decisions += 1
            if game.over:
                break
        results.append({str(s): r for s, r in game.result.rewards.items()})
    return decisions, results


def time_parlor(env_id: str, streams: list[list[str]], row: str, repeats: int
                ) -> tuple[int, list[float], list[dict]]:
    decisions, results = parlor_games(env_id, streams, row)  # warm-up, and the outcomes
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        parlor_games(env_id, streams, row)
        times.append(time.perf_counter() - start)
    return decisions, times, results


# ------------------------------------------------------------------------------- TextArena side
TEXTARENA_RUNNER = r"""
import json, sys, time
import textarena as ta
from textarena.envs.ColonelBlotto.env import ColonelBlottoEnv
from textarena.envs.ThreePlayerIPD.env import ThreePlayerIPDEnv
from textarena.envs.SecretMafia.env import SecretMafiaEnv
env_id, path, mode, repeats = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
streams = json.load(open(path))
observe = mode != "steps"
if mode != "text":  # the bare env class: get_observation() is a list of new messages
    make = {"colonel-blotto": lambda: ColonelBlottoEnv(num_fields=3, num_total_units=20,
                                                       num_rounds=9),
            "three-player-ipd": lambda: ThreePlayerIPDEnv(num_rounds=5, communication_turns=1),
            "secret-mafia": lambda: SecretMafiaEnv(mafia_ratio=0.25, discussion_rounds=3)
            }[env_id]
else:  # as registered: the default wrappers build the text an agent reads on every step
    name = {"colonel-blotto": "ColonelBlotto-v0", "three-player-ipd": "ThreePlayerIPD-v0",
            "secret-mafia": "SecretMafia-v0"}[env_id]
    make = lambda: ta.make(name)
players = {"colonel-blotto": 2, "three-player-ipd": 3, "secret-mafia": 6}[env_id]

def play(collect):
    steps, results = 0, []
    for seed, stream in enumerate(streams):
        env = make()
        env.reset(num_players=players, seed=seed)
        for text in stream:
            if observe:
                env.get_observation()
            done, _ = env.step(text)
            steps += 1
            if done:
                break
        if collect:
            results.append({str(k): v for k, v in env.close()[0].items()})
    return steps, results

steps, results = play(True)  # warm-up, and the outcomes
times = []
for _ in range(repeats):
    start = time.perf_counter()
    play(False)
    times.append(time.perf_counter() - start)
print(json.dumps({"steps": steps, "times": times, "results": results}))
"""


def find_textarena_python(explicit: str | None) -> str | None:
    candidates = [explicit] if explicit else [sys.executable, "/work/ta-venv/bin/python"]
    for python in candidates:
        if python and Path(python).exists() and subprocess.run(
                [python, "-c", "import textarena"], capture_output=True).returncode == 0:
            return python
    return None


def time_textarena(python: str, env_id: str, streams: list[list[str]], row: str, repeats: int
                   ) -> tuple[int, list[float], list[dict]]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "streams.json"
        path.write_text(json.dumps(streams))
        out = subprocess.run([python, "-c", TEXTARENA_RUNNER, env_id, str(path), row,
                              str(repeats)],
                             capture_output=True, text=True, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return data["steps"], data["times"], data["results"]


# ---------------------------------------------------------------------------------- report
def profile(env_id: str, streams: list[list[str]], row: str, top: int = 18) -> None:
    """Where Parlor's time goes on one pass over the streams."""
    parlor_games(env_id, streams, row)  # warm caches so the profile shows steady state
    profiler = cProfile.Profile()
    profiler.enable()
    parlor_games(env_id, streams, row)
    profiler.disable()
    print(f"\n--- cProfile, Parlor {env_id}, {row} row ---")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--textarena-python", default=None)
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of Parlor's side of each row")
    args = parser.parse_args()
    ta_python = find_textarena_python(args.textarena_python)
    print(f"{args.games} games per env, best and median of {args.repeats} timed runs after one "
          f"warm-up; target Parlor >= {TARGET:g}x TextArena (goal {GOAL:g}x)")
    if ta_python is None:
        print("textarena is not importable (pip install -e '.[bench]' or --textarena-python): "
              "the comparison is skipped, Parlor's figures only")
    header = (f"{'env':17} {'row':10} {'decisions':>9} {'Parlor dec/s':>13} {'(median)':>9} "
              f"{'TextArena st/s':>15} {'(median)':>9} {'ratio':>6}  verdict")
    print(header)
    print("-" * len(header))
    for env_id, make_stream in STREAMS.items():
        rng = random.Random(2026)
        streams = [make_stream(rng) for _ in range(args.games)]
        for row in ROWS:
            n, ours, our_results = time_parlor(env_id, streams, row, args.repeats)
            best, median = n / min(ours), n / statistics.median(ours)
            line = f"{env_id:17} {row:10} {n:>9} {best:>13,.0f} {median:>9,.0f}"
            if ta_python is None or env_id in NO_TEXTARENA:
                print(f"{line} {'skipped':>15} {'':>9} {'-':>6}")
                continue
            ta_n, theirs, ta_results = time_textarena(ta_python, env_id, streams, row,
                                                      args.repeats)
            ta_best, ta_median = ta_n / min(theirs), ta_n / statistics.median(theirs)
            ratio = best / ta_best
            verdict = "goal met" if ratio >= GOAL else "target met" if ratio >= TARGET \
                else "BELOW TARGET"
            same = ta_n == n and ta_results == our_results
            if not same:
                verdict += f"; streams diverged ({ta_n} steps, outcomes differ)"
            print(f"{line} {ta_best:>15,.0f} {ta_median:>9,.0f} {ratio:>5.2f}x  {verdict}")
    if args.profile:
        for env_id, make_stream in STREAMS.items():
            rng = random.Random(2026)
            streams = [make_stream(rng) for _ in range(args.games)]
            for row in ROWS:
                profile(env_id, streams, row)


if __name__ == "__main__":
    main()
