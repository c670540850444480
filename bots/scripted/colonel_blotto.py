"""Colonel Blotto baselines: `scripted:adaptive` (models the opponent, best-responds) and
`scripted:uniform` (an even split every round)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted

ENV = "colonel-blotto"
DECAY = 0.6  # weight of each older round relative to the next newer one


def _budget(legal: Mapping[str, Any]) -> tuple[int, bool]:
    constraints = legal.get("constraints", {})
    if "sum_eq" in constraints:
        return int(constraints["sum_eq"]), True
    return int(constraints["sum_max"]), False


def even_split(fields: list[str], units: int) -> dict[str, int]:
    base, extra = divmod(units, len(fields))
    return {f: base + (i < extra) for i, f in enumerate(fields)}


def predict(history: list[Mapping[str, Any]], opponent: int, fields: list[str], units: int
            ) -> dict[str, float]:
    """Recency-weighted mean of the opponent's past allocations (an even split before any)."""
    if not history:
        return {f: units / len(fields) for f in fields}
    weights = [DECAY ** age for age in range(len(history))]
    total = sum(weights)
    return {f: sum(w * h["allocations"][opponent][f] for w, h in zip(weights, reversed(history),
                                                                       strict=True)) / total
            for f in fields}


class AdaptiveBlotto(Bot):
    """Wins the cheapest majority of fields by a margin over the predicted opponent split and
    spreads what is left, with a seeded choice among near-cheapest majorities."""

    identity = "scripted:adaptive"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def allocate(self, fields: list[str], units: int, history: list[Mapping[str, Any]],
                 opponent: int) -> dict[str, int]:
        guess = predict(history, opponent, fields, units)
        need = len(fields) // 2 + 1
        options = []
        for chosen in itertools.combinations(fields, need):
            cost = [int(guess[f]) + 1 + self.rng.randint(0, 2) for f in chosen]
            options.append((sum(cost), self.rng.random(), chosen, cost))
        options.sort()
        affordable = [o for o in options if o[0] <= units] or options[:1]
        _, _, chosen, cost = self.rng.choice(affordable[:2])
        if sum(cost) > units:  # cannot outbid everywhere: scale down, keep the order
            cost = [c * units // sum(cost) for c in cost]
        plan = dict.fromkeys(fields, 0)
        plan.update(zip(chosen, cost, strict=True))
        left = units - sum(plan.values())
        for _ in range(left):  # leftovers mostly reinforce the chosen fields
            pool = chosen if self.rng.random() < 0.7 else fields
            plan[self.rng.choice(pool)] += 1
        return plan

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        fields = [f["name"] for f in legal["fields"]]
        units, _ = _budget(legal)
        history = view["public"]["history"]
        plan = self.allocate(fields, units, history, 1 - view["seat"])
        return Decision(action=plan)


class UniformBlotto(Bot):
    identity = "scripted:uniform"

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        fields = [f["name"] for f in legal["fields"]]
        return Decision(action=even_split(fields, _budget(legal)[0]))


register_scripted(ENV, "adaptive", "best response to the opponent's recent allocations")(
    AdaptiveBlotto)
register_scripted(ENV, "uniform", "the same even split every round")(lambda seed: UniformBlotto())
