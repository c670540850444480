"""SocialGrid's Crew Elo league schedule (spec §15); how its episodes are found in the store is
server/runs/crew_elo.py's.

Every ordered pair (crew model, impostor model) of the models, self-play included, plays
`episodes` episodes: M^2 pairs for M models. The schedule is played and rated round by round
(round e is episode e of every pair, pairs in model order), so a league stopped half way has
covered every pair evenly.

An episode's seed is derived from the league seed, the two specs and the episode number, so it
does not move when models are added, nor when --episodes grows: a longer league reuses the
episodes of a shorter one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

CREW, IMPOSTORS = "crew", "impostors"  # SocialGrid's sides
SEED_SPACE = 2**31  # table seeds live in 0 .. 2^31 - 1 (as the server's own)


@dataclass(frozen=True)
class Episode:
    crew: str  # the spec of the model playing every crewmate
    impostor: str  # the spec of the model playing every impostor
    number: int  # 0 .. episodes - 1
    seed: int

    @property
    def self_play(self) -> bool:
        return self.crew == self.impostor

    @property
    def specs(self) -> list[str]:
        """The seat specs of the episode's table (server/tables/seating.py's side specs)."""
        return [f"{CREW}={self.crew}", f"{IMPOSTORS}={self.impostor}"]


def episode_seed(base: int, crew: str, impostor: str, number: int) -> int:
    """A seed from the league seed, the pair and the episode number (not their positions)."""
    text = json.dumps([base, crew, impostor, number])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") % SEED_SPACE


def schedule(models: Sequence[str], episodes: int, base_seed: int) -> list[Episode]:
    """Round by round, every ordered pair with self-play. Seeds are distinct: a seed already
    taken (a hash collision, about once in 10^6 leagues) moves to the next free one."""
    taken: set[int] = set()
    out = []
    for number in range(episodes):
        for crew in models:
            for impostor in models:
                seed = episode_seed(base_seed, crew, impostor, number)
                while seed in taken:
                    seed = (seed + 1) % SEED_SPACE
                taken.add(seed)
                out.append(Episode(crew, impostor, number, seed))
    return out
