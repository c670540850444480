"""Colonel Blotto baselines: `scripted:adaptive` (models the opponent, best-responds) and
`scripted:uniform` (an even split every round).

The adaptive bot keeps no state of its own: the opponent model is rebuilt on each decision from
the resolved rounds in its view (the latest 25; older rounds weigh almost nothing after decay).
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from operator import mul
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted
from engine.core import ActionSpace

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


def _draw(fields: int, units: int, rng: random.Random) -> Plan:
    """A random full-budget allocation: `units` cut at `fields - 1` random points. The very
    draws `engine.sampling.random_action` makes for the form {each field 0..units, sum_eq
    units} (a value per field, which its split then replaces, and the cuts), without building
    the form and the action: the same plans from the same seed, in a fraction of the time."""
    for _ in range(fields):
        rng.randint(0, units)
    cuts = sorted(rng.randint(0, units) for _ in range(fields - 1))
    return tuple(b - a for a, b in zip((0, *cuts), (*cuts, units), strict=True))


def round_outcome(mine: Plan, theirs: Plan) -> float:
    """+1 for a won round, -1 for a lost one, 0 for a tie, plus a small nudge per field margin
    so that, among equal outcomes, plans that win more fields are preferred."""
    lead = 0  # fields won minus fields lost
    for a, b in zip(mine, theirs, strict=True):
        if a != b:
            lead += 1 if a > b else -1
    return (lead > 0) - (lead < 0) + 0.1 * lead / len(mine)


def expected_outcomes(plans: Sequence[Plan], samples: Sequence[tuple[Plan, float]]
                      ) -> list[float]:
    """Per plan, the weighted sum of `round_outcome(plan, sample)` over the (sample, weight)
    pairs: the same sums, added in the same order, but worked out for all samples at once so
    that the inner loops run in C (a decision at the largest config costs a few ms, not tens).

    How a plan does on one field against every sample is a row of bytes, one per sample: 2 if
    the plan sends more units there, 1 as many, 0 fewer. Read as one integer per row, adding a
    plan's rows adds up every sample's lead at once: byte s of the sum is fields + lead. (Units
    fit in a byte: the env allows at most 200.)"""
    fields = len(plans[0]) if plans else 0
    # Per field, each sample's units there, one byte each.
    columns = [bytes(column) for column in zip(*(p for p, _ in samples), strict=True)]
    weights = [w for _, w in samples]
    by_lead = [(lead > 0) - (lead < 0) + 0.1 * lead / fields  # round_outcome, per fields + lead
               for lead in range(-fields, fields + 1)]
    rows: list[dict[int, int]] = [{} for _ in columns]  # per field: units -> row (plans share)
    out = []
    for plan in plans:
        total = 0
        for units, column, known in zip(plan, columns, rows, strict=True):
            row = known.get(units)
            if row is None:  # each byte b of the column becomes 2 (units > b), 1 or 0 (units < b)
                compare = b"\2" * units + b"\1" + b"\0" * (255 - units)
                row = known[units] = int.from_bytes(column.translate(compare), "little")
            total += row
        lanes = total.to_bytes(len(weights), "little")
        out.append(sum(map(mul, weights, map(by_lead.__getitem__, lanes))))
    return out


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


@lru_cache(maxsize=256)
def cheapest_majorities(floors: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
    """The CHEAPEST majorities of fields (cheapest first, then by field indexes) with the units
    `floors` holds on them. A margin per field adds the same to every majority's cost, so one
    order serves every margin."""
    need = len(floors) // 2 + 1
    return heapq.nsmallest(CHEAPEST, ((sum(floors[i] for i in chosen), chosen)
                                      for chosen in itertools.combinations(range(len(floors)),
                                                                           need)))


def best_responses(target: Sequence[float], units: int, margin: int) -> list[Plan]:
    """Plans that beat `target` by `margin` on one of the cheapest majorities of fields and concede
    the rest, each with the leftover units placed three ways."""
    n = len(target)
    floors = tuple(int(t) for t in target)
    out = []
    for base, chosen in cheapest_majorities(floors):
        cost = base + len(chosen) * margin
        if cost > units:
            break
        plan = [floors[i] + margin if i in chosen else 0 for i in range(n)]
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
        samples = [(_draw(len(fields), units, self.rng), PRIOR_WEIGHT / PRIOR_SAMPLES)
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
        plans += [_draw(len(fields), units, self.rng) for _ in range(RANDOM_CANDIDATES)]
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
        plans = self.candidates(full, fields, samples, recent)
        scored = [(score / total, plan)
                  for score, plan in zip(expected_outcomes(plans, samples), plans, strict=True)]
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
