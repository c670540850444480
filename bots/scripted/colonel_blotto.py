"""Colonel Blotto baselines: `scripted:adaptive` (models the opponent, best-responds) and
`scripted:uniform` (an even split every round).

The adaptive bot keeps no state of its own: the opponent model is rebuilt on each decision from
the resolved rounds in its view (the latest 25; older rounds weigh almost nothing after decay).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted
from engine.core import ActionSpace
from engine.sampling import random_action

ENV = "colonel-blotto"
DECAY = 0.6  # weight of each older observed round relative to the next newer one
PRIOR_SAMPLES = 40  # imagined full-budget random allocations: the model before any evidence
PRIOR_WEIGHT = 1.0  # their total weight; one fresh observation weighs as much
RECENT = 4  # best responses are built to this many of the opponent's latest allocations
RANDOM_CANDIDATES = 24
COUNTER_WEIGHT = 2.0  # weight of "it best-responds to me" when its past play fully bears it out
CHEAPEST = 6  # majorities of fields tried per best response, cheapest first
NEAR_BEST = 0.05  # candidates this close to the best expected score are equally likely picks

Plan = tuple[int, ...]


def _budget(legal: Mapping[str, Any]) -> int:
    constraints = legal.get("constraints", {})
    return int(constraints["sum_eq"] if "sum_eq" in constraints else constraints["sum_max"])


def even_split(fields: Sequence[str], units: int) -> dict[str, int]:
    base, extra = divmod(units, len(fields))
    return {f: base + (i < extra) for i, f in enumerate(fields)}


def _draw(space: Any, fields: Sequence[str], rng: random.Random) -> Plan:
    """A random allocation that fits `space`."""
    action = random_action(space, rng)
    return tuple(action[f] for f in fields)


def round_outcome(mine: Plan, theirs: Plan) -> float:
    """+1 for a won round, -1 for a lost one, 0 for a tie, plus a small nudge per field margin
    so that, among equal outcomes, plans that win more fields are preferred."""
    lead = 0  # fields won minus fields lost
    for a, b in zip(mine, theirs, strict=True):
        if a != b:
            lead += 1 if a > b else -1
    return (lead > 0) - (lead < 0) + 0.1 * lead / len(mine)


def weighted_mean(plans: Sequence[Plan]) -> list[float]:
    """Per field, the recency-weighted mean of `plans` (newest last; DECAY per round of age)."""
    weights = [DECAY ** age for age in range(len(plans) - 1, -1, -1)]
    total = sum(weights)
    return [sum(w * p[i] for w, p in zip(weights, plans, strict=True)) / total
            for i in range(len(plans[0]))]


def _spread(plan: list[int], where: Sequence[int], units: int) -> Plan:
    """Add `units` to `plan` as evenly as possible over the field indexes `where`."""
    base, extra = divmod(units, len(where))
    for k, i in enumerate(where):
        plan[i] += base + (k < extra)
    return tuple(plan)


def best_responses(target: Sequence[float], units: int, margin: int) -> list[Plan]:
    """Plans that beat `target` by `margin` on one of the cheapest majorities of fields and concede
    the rest, each with the leftover units placed three ways."""
    n = len(target)
    need = n // 2 + 1
    majorities = sorted((sum(int(target[i]) + margin for i in chosen), chosen)
                        for chosen in itertools.combinations(range(n), need))
    out = []
    for cost, chosen in majorities[:CHEAPEST]:
        if cost > units:
            break
        plan = [int(target[i]) + margin if i in chosen else 0 for i in range(n)]
        left = units - cost
        conceded = [i for i in range(n) if i not in chosen]
        out.append(_spread(list(plan), chosen, left))  # reinforce the fields we mean to win
        out.append(_spread(list(plan), range(n), left))  # hedge everywhere
        if conceded:
            out.append(_spread(list(plan), conceded, left))  # contest the conceded fields cheaply
    return out


class AdaptiveBlotto(Bot):
    """Models the opponent as a recency-weighted mix of its past allocations plus a broad prior
    (random full-budget allocations), then plays the candidate with the best expected round
    outcome against that model. Candidates are best responses to recent allocations and to the
    weighted mean, even splits and random plans; a seeded pick among the near-best keeps it from
    being trivially predictable."""

    identity = "scripted:adaptive"
    never_awaits = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def model(self, full: Any, fields: list[str], mine: list[Plan], theirs: list[Plan]
              ) -> list[tuple[Plan, float]]:
        """(allocation, weight) samples of what the opponent will play next: a broad prior, its
        past allocations (newest weigh most) and, as far as its past play bears it out, the
        plans of an opponent that best-responds to my own past allocations."""
        units = int(full.constraints["sum_eq"])
        samples = [(_draw(full, fields, self.rng), PRIOR_WEIGHT / PRIOR_SAMPLES)
                   for _ in range(PRIOR_SAMPLES)]
        samples += [(p, DECAY ** age) for age, p in enumerate(reversed(theirs))]
        # How often did the opponent beat the mean of what I had played before that round?
        checks = [round_outcome(theirs[k], weighted_mean(mine[:k])) > 0
                  for k in range(1, len(theirs))]
        if checks and any(checks):
            counters = [plan for margin in (1, 2, 3)
                        for plan in best_responses(weighted_mean(mine), units, margin)]
            weight = COUNTER_WEIGHT * sum(checks) / len(checks) / len(counters)
            samples += [(plan, weight) for plan in counters]
        return samples

    def candidates(self, full: Any, fields: list[str], samples: list[tuple[Plan, float]],
                   recent: list[Plan]) -> list[Plan]:
        units = int(full.constraints["sum_eq"])
        total = sum(w for _, w in samples)
        mean = [sum(p[i] * w for p, w in samples) / total for i in range(len(fields))]
        plans = [tuple(even_split(fields, units).values())]
        for margin in (1, 2, 3):
            plans += best_responses(mean, units, margin)
        for seen in recent:
            plans += best_responses(seen, units, 1)
        plans += [_draw(full, fields, self.rng) for _ in range(RANDOM_CANDIDATES)]
        return list(dict.fromkeys(plans))  # drop duplicates, keep a deterministic order

    def allocate(self, legal: Mapping[str, Any], history: Sequence[Mapping[str, Any]],
                 seat: int) -> dict[str, int]:
        """The plan for the next round, from the legal form and the resolved rounds so far."""
        space = ActionSpace.from_json(legal)
        fields = [f.name for f in space.fields]
        full = dataclasses.replace(space, constraints={"sum_eq": _budget(legal)})
        mine, theirs = ([tuple(h["allocations"][s][f] for f in fields) for h in history]
                        for s in (seat, 1 - seat))
        samples = self.model(full, fields, mine, theirs)
        recent = list(dict.fromkeys(reversed(theirs[-RECENT:])))
        total = sum(w for _, w in samples)
        scored = [(sum(w * round_outcome(plan, p) for p, w in samples) / total, plan)
                  for plan in self.candidates(full, fields, samples, recent)]
        best = max(s for s, _ in scored)
        _, plan = self.rng.choice([c for c in scored if c[0] >= best - NEAR_BEST])
        return dict(zip(fields, plan, strict=True))

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        plan = self.allocate(legal, view["public"]["history"], view["seat"])
        return Decision(action=plan)


class UniformBlotto(Bot):
    identity = "scripted:uniform"
    never_awaits = True

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        fields = [f["name"] for f in legal["fields"]]
        return Decision(action=even_split(fields, _budget(legal)))


register_scripted(ENV, "adaptive", "best response to a model of the opponent's recent allocations")(
    AdaptiveBlotto)
register_scripted(ENV, "uniform", "the same even split every round")(lambda seed: UniformBlotto())
