"""What `parlor ratings fit` costs (issue 26): one Plackett–Luce fit and its bootstrap over
synthetic games between players of known strength (half two-side games with a side of two,
half three-player rankings), and how well the fit finds the strengths. Prints figures;
nothing is asserted.

    python benchmarks/fitted_ratings.py [--players 20] [--games 5000] [--resamples 200]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.reports import plackett_luce as pl  # noqa: E402


def games(players: int, count: int, seed: int) -> tuple[list[float], list[list[pl.Place]]]:
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(players)]
    made: list[list[pl.Place]] = []
    for _ in range(count):
        a, b, c = rng.sample(range(players), 3)
        if rng.random() < 0.5:
            edge = (strength[a] + strength[b]) / 2 - strength[c]
            won = rng.random() < 1 / (1 + math.exp(-edge))
            made.append([((a, b), float(won)), ((c,), float(not won))])
        else:  # Gumbel noise on the strengths draws a Plackett–Luce order
            order = sorted((a, b, c), key=lambda p: -(strength[p]
                                                      - math.log(-math.log(rng.random()))))
            made.append([((p,), -float(i)) for i, p in enumerate(order)])
    return strength, made


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=20)
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--resamples", type=int, default=200)
    args = ap.parse_args()
    strength, played = games(args.players, args.games, seed=0)
    t0 = time.perf_counter()
    d = pl.design(args.players, played)
    t1 = time.perf_counter()
    theta = pl.fit(d)
    t2 = time.perf_counter()
    boot = pl.bootstrap(d, args.resamples, seed=0, start=theta)
    t3 = time.perf_counter()
    low, high = np.nanpercentile(boot, [2.5, 97.5], axis=0)
    truth = np.asarray(strength) - np.mean(strength)
    print(f"{args.players} players, {args.games} games, {args.resamples} resamples")
    print(f"  layout {t1 - t0:.2f} s, one fit {1000 * (t2 - t1):.0f} ms, bootstrap "
          f"{t3 - t2:.1f} s ({1000 * (t3 - t2) / max(args.resamples, 1):.0f} ms a resample)")
    print(f"  correlation with the true strengths {np.corrcoef(theta, truth)[0, 1]:.4f}; "
          f"true strength inside the 95% interval for "
          f"{np.mean((low <= truth) & (truth <= high)):.0%} of players; mean interval "
          f"{np.mean(pl.to_elo(high) - pl.to_elo(low)):.0f} rating points wide")


if __name__ == "__main__":
    main()
