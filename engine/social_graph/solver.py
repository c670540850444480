"""Recovering the groups from the stated relationships (union-find), and answering queries.

Good edges join people into the same group (Axiom 1, transitivity), so the groups are at least
as coarse as the components of the good-edge graph. Bad edges never join anything; a bad edge
between two components makes every pair across them bad (Axiom 2), and two bad facts say nothing
about a third pair. Hence the statements determine the partition exactly when (1) no bad edge
lies inside a good component — otherwise they contradict each other — and (2) every two
components have at least one bad edge between them — otherwise the two could be one group or
two. Under (1) and (2) the groups ARE the good components. The generator (one spanning tree per
group, a bad edge for every pair of groups) always satisfies both.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from itertools import combinations

from engine.social_graph.graph import Edge, Partition
from engine.social_graph.queries import Query, truth


class InconsistentStatements(ValueError):
    """The statements contradict each other (a bad edge inside a chain of good ones)."""


class UndeterminedGroups(ValueError):
    """The statements leave some relationship open (two components with no bad edge between)."""


class _UnionFind:
    def __init__(self, items: Iterable[str]) -> None:
        self.parent = {item: item for item in items}

    def find(self, item: str) -> str:
        parent = self.parent
        while parent[item] != item:
            parent[item] = parent[parent[item]]  # path halving
            item = parent[item]
        return item

    def union(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)


def _good_path(edges: Sequence[Edge], start: str, goal: str) -> list[str]:
    """A chain of good edges from start to goal (for the contradiction message)."""
    friends: dict[str, list[str]] = {}
    for edge in edges:
        if edge.good:
            friends.setdefault(edge.a, []).append(edge.b)
            friends.setdefault(edge.b, []).append(edge.a)
    came_from = {start: start}
    queue = deque([start])
    while queue:
        person = queue.popleft()
        for friend in friends.get(person, ()):
            if friend not in came_from:
                came_from[friend] = person
                queue.append(friend)
    path = [goal]
    while path[-1] != start:
        path.append(came_from[path[-1]])
    return path[::-1]


def solve(people: Sequence[str], edges: Sequence[Edge]) -> Partition:
    """The groups the statements determine. Raises InconsistentStatements or UndeterminedGroups
    (both ValueError, with a message a person can check) when there is no single answer."""
    known = set(people)
    for edge in edges:
        unknown = sorted({edge.a, edge.b} - known)
        if unknown:
            raise ValueError(f"{unknown[0]} is not one of the people ({', '.join(people)})")
    sets = _UnionFind(people)
    for edge in edges:
        if edge.good:
            sets.union(edge.a, edge.b)
    separated: set[frozenset[str]] = set()
    for edge in edges:
        if edge.good:
            continue
        root_a, root_b = sets.find(edge.a), sets.find(edge.b)
        if root_a == root_b:
            chain = " – ".join(_good_path(edges, edge.a, edge.b))
            raise InconsistentStatements(
                f"{edge.a} and {edge.b} are said to be on bad terms, but a chain of good "
                f"relationships links them ({chain})")
        separated.add(frozenset((root_a, root_b)))
    members: dict[str, list[str]] = {}
    for person in people:
        members.setdefault(sets.find(person), []).append(person)
    for root_a, root_b in combinations(members, 2):
        if frozenset((root_a, root_b)) not in separated:
            raise UndeterminedGroups(
                f"nothing says whether {{{', '.join(members[root_a])}}} and "
                f"{{{', '.join(members[root_b])}}} are on good or bad terms")
    return Partition.of(members.values())


def solve_queries(people: Sequence[str], edges: Sequence[Edge], queries: Iterable[Query]
                  ) -> tuple[str, ...]:
    """The canonical answer to every query, from the statements alone."""
    partition = solve(people, edges)
    return tuple(truth(query.kind, query.subject, partition) for query in queries)
