"""The Impostor game's word pairs (pairs.json, ours): 300 pairs, 75 per tier, the majority's
word first, as the paper's resource is laid out. Tiers run from unrelated words (easy) to
near-synonyms and hierarchies (expert); engine/impostor/similarity.py checks the order.

A league plays each experiment through a seeded shuffle of its tier's pairs, cycled
(`experiment_pairs`); a table without a fixed pair draws one from the game's seed."""

from __future__ import annotations

import json
import random
from functools import cache
from importlib import resources

from engine.core import derive_seed

TIERS = ("easy", "medium", "hard", "expert")
PAIRS_PER_TIER = 75


@cache
def pairs() -> dict[str, tuple[tuple[str, str], ...]]:
    """Every tier's pairs in file order (read once)."""
    data = json.loads(resources.files(__package__).joinpath("pairs.json").read_text("utf-8"))
    return {tier: tuple((m, i) for m, i in data[tier]) for tier in TIERS}


def pair(tier: str, index: int) -> tuple[str, str]:
    """(majority word, impostor word) of the tier's pair `index` (file order)."""
    return pairs()[tier][index]


def experiment_pairs(tier: str, experiment_seed: int) -> list[int]:
    """The order one experiment plays its tier's pairs in: a shuffle of their indices from
    the experiment's seed. Game g of the experiment plays `order[g % 75]` (the list cycled)."""
    order = list(range(len(pairs()[tier])))
    random.Random(derive_seed(experiment_seed, f"pairs:{tier}")).shuffle(order)
    return order


def cycled_pairs(tier: str, experiment_seed: int, games: int) -> list[int]:
    """The pair index of each of an experiment's first `games` games: its shuffle, cycled."""
    order = experiment_pairs(tier, experiment_seed)
    return [order[g % len(order)] for g in range(games)]


def pair_for_game(tier: str, experiment_seed: int, game_number: int) -> int:
    """The pair index game `game_number` (0-based) of an experiment plays."""
    return cycled_pairs(tier, experiment_seed, game_number + 1)[game_number]
