"""Uniform random legal actions from an ActionSpace (used by the random bot and conformance).

Deterministic: the same rng state gives the same action. The draws for int / choice / text
fields and for choice / text spaces are fixed (stored games replay the random bot's sequence);
the newer kinds (float, bool, optional fields, option args) only add draws where they appear.
"""

from __future__ import annotations

import random
import string
from typing import Any

from engine.spaces import ActionSpace, Field

OMIT_OPTIONAL = 0.25  # chance that an optional field (or optional arg) is left out


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


def _bounded_split(rng: random.Random, total: int, fields: list[Field]) -> list[int]:
    """`total` spread over int fields within their bounds, one unit at a time (the total is
    first clamped to what the bounds allow)."""
    values = [f.min if f.min is not None else 0 for f in fields]
    room = [None if f.max is None else f.max - v for f, v in zip(fields, values, strict=True)]
    left = total - sum(values)
    while left > 0:
        open_ = [i for i, r in enumerate(room) if r is None or r > 0]
        if not open_:
            break
        i = rng.choice(open_)
        values[i] += 1
        if room[i] is not None:
            room[i] -= 1
        left -= 1
    return values


def _in_bounds(f: Field, v: int) -> bool:
    return (f.min is None or v >= f.min) and (f.max is None or v <= f.max)


def random_value(rng: random.Random, f: Field) -> Any:
    """A value for field `f` (never None: optional fields are omitted by the caller)."""
    if f.kind == "choice":
        return rng.choice(f.options).id
    if f.kind == "text":
        return random_text(rng, f.max_chars)
    if f.kind == "bool":
        return rng.random() < 0.5
    if f.kind == "float":
        lo = f.min if f.min is not None else (f.max - 1.0 if f.max is not None else 0.0)
        hi = f.max if f.max is not None else lo + 1.0
        return min(max(rng.uniform(lo, hi), lo), hi)
    lo = f.min if f.min is not None else min(0, f.max if f.max is not None else 0)
    return rng.randint(lo, f.max if f.max is not None else max(100, lo))


def _omit(rng: random.Random, f: Field) -> bool:
    return f.optional and rng.random() < OMIT_OPTIONAL


def random_action(space: ActionSpace, rng: random.Random) -> dict[str, Any]:
    """A structured action drawn from `space` that passes `check_action`; honours the form
    constraints sum_max / sum_eq over the int fields."""
    if space.kind == "choice":
        if not space.options:
            raise ValueError("no options to choose from")
        option = rng.choice(space.options)
        if option.arg is None or _omit(rng, option.arg):
            return {"choice": option.id}
        return {"choice": option.id, "arg": random_value(rng, option.arg)}
    if space.kind == "text":
        return {"text": random_text(rng, space.max_chars)}
    action = {f.name: random_value(rng, f) for f in space.fields if not _omit(rng, f)}
    target = space.constraints.get("sum_eq")
    if target is None and "sum_max" in space.constraints:
        target = rng.randint(0, int(space.constraints["sum_max"]))
    ints = [f for f in space.fields if f.kind == "int" and f.name in action]
    if target is not None and not ints and "sum_eq" in space.constraints:
        ints = [f for f in space.fields if f.kind == "int"]  # a fixed total needs its fields
    if target is not None and ints:
        values = _split(rng, int(target), len(ints))
        if not all(_in_bounds(f, v) for f, v in zip(ints, values, strict=True)):
            values = _bounded_split(rng, int(target), ints)
        for f, value in zip(ints, values, strict=True):
            action[f.name] = value
    return action
