"""Uniform random legal actions from an ActionSpace (used by the random bot and conformance)."""

from __future__ import annotations

import random
import string
from typing import Any

from engine.core import ActionSpace, Field


def random_text(rng: random.Random, max_chars: int | None, words: int = 6) -> str:
    """A short line of random lowercase words, within max_chars."""
    text = " ".join("".join(rng.choices(string.ascii_lowercase, k=rng.randint(1, 8)))
                    for _ in range(rng.randint(1, words)))
    return text[:max_chars] if max_chars else text


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    """A uniformly random composition of `total` into `parts` non-negative integers."""
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


def _random_field(rng: random.Random, f: Field) -> Any:
    if f.kind == "choice":
        return rng.choice(f.options).id
    if f.kind == "text":
        return random_text(rng, f.max_chars)
    return rng.randint(f.min if f.min is not None else 0, f.max if f.max is not None else 100)


def random_action(space: ActionSpace, rng: random.Random) -> dict[str, Any]:
    """A structured action drawn from `space`; honours the form constraints sum_max / sum_eq."""
    if space.kind == "choice":
        if not space.options:
            raise ValueError("no options to choose from")
        return {"choice": rng.choice(space.options).id}
    if space.kind == "text":
        return {"text": random_text(rng, space.max_chars)}
    action = {f.name: _random_field(rng, f) for f in space.fields}
    ints = [f for f in space.fields if f.kind == "int"]
    target = space.constraints.get("sum_eq")
    if target is None and "sum_max" in space.constraints:
        target = rng.randint(0, int(space.constraints["sum_max"]))
    if target is not None and ints:
        for f, value in zip(ints, _split(rng, int(target), len(ints)), strict=True):
            action[f.name] = value
    return action
