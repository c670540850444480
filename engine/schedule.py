"""What league schedules share: table seeds drawn from a run seed through `derive_seed`, within
0 .. 2^48 - 1, and kept distinct in play order (a league finds a stored game by its seed and
seats, so two scheduled games must never share one).

2^48 keeps a paper-sized grid (90,720 games) almost free of draws to move (about one grid in
70,000), while a seed and the bot seeds the server makes from it (seed * 1000 + seat) stay
within SQLite's integers."""

from __future__ import annotations

from engine.core import derive_seed

SEED_SPACE = 2**48


def table_seed(seed: int, label: str) -> int:
    """The table seed for `label` (a game's place in the schedule) under `seed`."""
    return derive_seed(seed, label) % SEED_SPACE


class DistinctSeeds:
    """Hands out seeds in play order, moving one already taken to the next free one."""

    def __init__(self) -> None:
        self.taken: set[int] = set()

    def take(self, seed: int) -> int:
        while seed in self.taken:
            seed = (seed + 1) % SEED_SPACE
        self.taken.add(seed)
        return seed
