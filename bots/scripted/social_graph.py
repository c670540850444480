"""Social Graph Analysis baselines, reading only the seat's view (the sentences, the people and
the question asked now):

- `scripted:solver`: reads every sentence back into its relationship (statements.parse_statement)
  and finds the groups by union-find (solver.solve), then answers from them through the form.
  Perfect on every sound puzzle, which is every puzzle the game plays.
- `scripted:majority`: the majority-class baseline, typed like a model's reply and blind to the
  sentences: for each query type the answer most often right on our generator's puzzles with
  this many people, ties to the smaller. Pairwise `No` (the majority class when pairs are drawn
  uniformly, as in the authors' data; 50% on ours, whose draw is balanced), membership `No one`
  (no answer is the majority: every answer names the person's group, of at least 2 on our
  puzzles, so 0% there), group count 2 (2, 3 and 4 groups are equally likely: about a third),
  pair count the most likely split of the people's pairs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from math import comb
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted
from engine.social_graph.generator import GROUPS, MIN_GROUP_SIZE
from engine.social_graph.graph import Edge
from engine.social_graph.queries import Kind, format_value, truth_value
from engine.social_graph.solver import solve
from engine.social_graph.statements import parse_statement

ENV = "social-graph"


def edges_of(view: Mapping[str, Any]) -> list[Edge]:
    """The relationships the view's sentences state (a sentence that reads as none is skipped)."""
    return [edge for edge in map(parse_statement, view["public"]["statements"]) if edge]


def form_answer(kind: Kind, value: Any) -> dict[str, Any]:
    """A value of `kind` as the game's form takes it."""
    if kind is Kind.PAIRWISE:
        return {"answer": "Yes" if value else "No"}
    if kind is Kind.MEMBERSHIP:
        return {"names": format_value(kind, value)}
    if kind is Kind.GROUP_COUNT:
        return {"groups": value}
    return {"good": value[0], "bad": value[1]}


class SolverBot(Bot):
    never_awaits = True

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        pub = view["public"]
        question = pub["question"]
        kind = Kind(question["kind"])
        try:
            groups = solve(pub["people"], edges_of(view))
        except ValueError:  # cannot happen with a sound puzzle: an honest non-answer
            return Decision(action="I cannot tell.")
        return Decision(action=form_answer(
            kind, truth_value(kind, tuple(question["subject"]), groups)))


@cache
def likely_splits(people: int) -> tuple[int, int]:
    """(groups, good pairs) most often right for `people` people under the generator (groups
    drawn uniformly, then every list of group sizes equally likely), each ties to the smaller."""
    groups: Counter[int] = Counter()
    good: Counter[int] = Counter()
    for m in range(GROUPS[0], GROUPS[1] + 1):
        sizes = _size_lists(people, m)
        for size_list in sizes:
            groups[m] += 1 / len(sizes)
            good[sum(comb(s, 2) for s in size_list)] += 1 / len(sizes)
    if not groups:  # too few people for our generator: one group, as likely as any
        return 1, comb(people, 2)
    return (min(groups, key=lambda m: (-round(groups[m], 9), m)),
            min(good, key=lambda g: (-round(good[g], 9), g)))


def _size_lists(people: int, groups: int) -> list[tuple[int, ...]]:
    if groups == 1:
        return [(people,)] if people >= MIN_GROUP_SIZE else []
    return [(first, *rest) for first in range(MIN_GROUP_SIZE, people + 1)
            for rest in _size_lists(people - first, groups - 1)]


class MajorityBot(Bot):
    never_awaits = True

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        pub = view["public"]
        kind, n = Kind(pub["question"]["kind"]), len(pub["people"])
        groups, good = likely_splits(n)
        answer = {Kind.PAIRWISE: False, Kind.MEMBERSHIP: frozenset(), Kind.GROUP_COUNT: groups,
                  Kind.PAIR_COUNT: (good, comb(n, 2) - good)}[kind]
        return Decision(action=f"Final Answer: {format_value(kind, answer)}")


register_scripted(ENV, "solver", "union-find on the sentences: perfect")(lambda seed: SolverBot())
register_scripted(ENV, "majority", "the majority-class baseline per query type, blind to the "
                                   "sentences")(lambda seed: MajorityBot())
