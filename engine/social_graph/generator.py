"""New instances by the paper's Algorithm 2, deterministic per seed.

1. n people, uniform in [8, 10] (easy) or [14, 16] (hard), named A, B, ...
2. A random partition into m groups, m uniform in [2, 4], every group of at least 2 people
   (the paper only says m >= 2 non-empty groups; both bounds are those of the authors' released
   generator and keep graphs sparse, "edges close to vertices"). The people are shuffled and cut
   into m runs, every list of group sizes equally likely. Without the minimum, groups of one
   would dominate easy instances (34 of the 35 size lists for 8 people in 4 groups have one);
   with it, a generated membership answer is never "No one" (loaded data may still have it).
3. Per group, a random spanning tree of GOOD edges: each member after the first (in shuffled
   order) befriends a uniformly chosen earlier member (a random recursive tree).
4. For every pair of groups, one BAD edge between a uniformly chosen member of each; then up
   to EXTRA_BAD_EDGES more bad edges on distinct cross-group pairs not used yet (the paper's
   worked example states two bad edges for two groups; the released generator adds two).
5. Each edge becomes a sentence in one of our wordings, names in random order; the sentences
   are shuffled; one query of each kind is drawn (see queries.make_queries).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations, product

from engine.social_graph.graph import Edge, Partition, people_labels
from engine.social_graph.instance import Instance
from engine.social_graph.queries import make_queries
from engine.social_graph.statements import verbalise

GENERATOR_VERSION = 1  # bump on any change that alters what a seed produces
PEOPLE = {"easy": (8, 10), "hard": (14, 16)}
GROUPS = (2, 4)
MIN_GROUP_SIZE = 2
EXTRA_BAD_EDGES = 2


@dataclass(frozen=True, slots=True)
class Graph:
    """What Algorithm 2 builds before it is put into words."""

    people: tuple[str, ...]
    partition: Partition
    good_edges: tuple[Edge, ...]
    bad_edges: tuple[Edge, ...]


def random_partition(people: tuple[str, ...], groups: int, rng: random.Random
                     ) -> list[list[str]]:
    """Shuffle the people, then cut them into `groups` runs of at least MIN_GROUP_SIZE, every
    such list of sizes equally likely (stars and bars over the people left after the minimum)."""
    order = list(people)
    rng.shuffle(order)
    free = len(order) - MIN_GROUP_SIZE * groups
    if free < 0:
        raise ValueError(f"{len(order)} people cannot make {groups} groups of "
                         f"{MIN_GROUP_SIZE} or more")
    bars = sorted(rng.sample(range(free + groups - 1), groups - 1))
    sizes = [after - before - 1 + MIN_GROUP_SIZE
             for before, after in zip([-1, *bars], [*bars, free + groups - 1], strict=True)]
    starts = [sum(sizes[:i]) for i in range(groups + 1)]
    return [order[start:end] for start, end in zip(starts, starts[1:], strict=False)]


def spanning_tree(group: list[str], rng: random.Random) -> list[Edge]:
    """Good edges joining `group` (in the shuffled order given) into one random tree."""
    return [Edge(group[rng.randrange(i)], person, True) for i, person in enumerate(group) if i]


def cross_bad_edges(groups: list[list[str]], rng: random.Random) -> list[Edge]:
    chosen = [Edge(rng.choice(first), rng.choice(second), False)
              for first, second in combinations(groups, 2)]
    used = {edge.pair for edge in chosen}
    spare = [(a, b) for first, second in combinations(groups, 2)
             for a, b in product(first, second) if Edge(a, b, False).pair not in used]
    extra = rng.sample(spare, min(EXTRA_BAD_EDGES, len(spare)))
    return chosen + [Edge(a, b, False) for a, b in extra]


def generate_graph(difficulty: str, rng: random.Random) -> Graph:
    if difficulty not in PEOPLE:
        raise ValueError(f"difficulty must be one of {', '.join(PEOPLE)}, not {difficulty!r}")
    people = people_labels(rng.randint(*PEOPLE[difficulty]))
    groups = random_partition(people, rng.randint(*GROUPS), rng)
    good = [edge for group in groups for edge in spanning_tree(group, rng)]
    return Graph(people, Partition.of(groups), tuple(good), tuple(cross_bad_edges(groups, rng)))


def generate(seed: int, difficulty: str = "easy") -> Instance:
    """The instance for `seed` at `difficulty` ("easy" or "hard"); the same every time."""
    rng = random.Random(seed)
    graph = generate_graph(difficulty, rng)
    statements = [verbalise(edge, rng) for edge in graph.good_edges + graph.bad_edges]
    rng.shuffle(statements)
    return Instance(
        id=f"sga-{difficulty}-{seed}", difficulty=difficulty, people=graph.people,
        statements=tuple(statements), partition=graph.partition,
        queries=make_queries(graph.partition, rng), seed=seed,
        source=f"generator/v{GENERATOR_VERSION}")


def generate_many(count: int, difficulty: str = "easy", first_seed: int = 0) -> list[Instance]:
    """`count` instances with consecutive seeds from `first_seed`."""
    return [generate(seed, difficulty) for seed in range(first_seed, first_seed + count)]
