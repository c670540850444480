"""Algorithm 2 over many seeds: sizes in range, a spanning tree of good edges per group, a bad
edge for every pair of groups, the solver recovering exactly the generator's groups, sentences
that read back to their edges, and the same instance for the same seed."""

import random
import re
from itertools import combinations

import pytest

from engine.social_graph.generator import (
    GROUPS,
    MIN_GROUP_SIZE,
    PEOPLE,
    generate,
    generate_graph,
)
from engine.social_graph.graph import people_labels
from engine.social_graph.instance import validate
from engine.social_graph.queries import KINDS
from engine.social_graph.solver import solve
from engine.social_graph.statements import BAD_WORDINGS, GOOD_WORDINGS, parse_statement

SEEDS = range(300)


def _connected(group, edges):
    reached, frontier = {group[0]}, [group[0]]
    while frontier:
        person = frontier.pop()
        for edge in edges:
            for here, there in ((edge.a, edge.b), (edge.b, edge.a)):
                if here == person and there not in reached:
                    reached.add(there)
                    frontier.append(there)
    return reached == set(group)


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_graphs_follow_algorithm_2(difficulty):
    low, high = PEOPLE[difficulty]
    for seed in SEEDS:
        graph = generate_graph(difficulty, random.Random(seed))
        assert low <= len(graph.people) <= high
        assert graph.people == people_labels(len(graph.people))
        groups = graph.partition.groups
        assert GROUPS[0] <= len(groups) <= GROUPS[1]
        assert all(len(group) >= MIN_GROUP_SIZE for group in groups)
        for group in groups:  # a spanning tree: |V_i| - 1 edges that connect the group
            inside = [e for e in graph.good_edges if e.a in group and e.b in group]
            assert len(inside) == len(group) - 1 and _connected(group, inside)
        assert len(graph.good_edges) == len(graph.people) - len(groups)
        for first, second in combinations(groups, 2):
            assert any({e.a, e.b} & set(first) and {e.a, e.b} & set(second)
                       for e in graph.bad_edges)
        assert all(not graph.partition.same_group(e.a, e.b) for e in graph.bad_edges)
        assert len({e.pair for e in graph.bad_edges}) == len(graph.bad_edges)
        assert solve(graph.people, graph.good_edges + graph.bad_edges) == graph.partition


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_instances_are_sound_and_solvable_from_their_sentences(difficulty):
    for seed in SEEDS:
        instance = generate(seed, difficulty)
        validate(instance)  # sentences state their edges; groups and answers are right
        edges = [parse_statement(s.text) for s in instance.statements]
        assert solve(instance.people, edges) == instance.partition
        assert tuple(q.kind for q in instance.queries) == KINDS


def test_same_seed_same_instance_and_seeds_differ():
    assert generate(7, "hard") == generate(7, "hard")
    assert generate(7, "hard").content_hash() == generate(7, "hard").content_hash()
    assert len({generate(seed, "easy").content_hash() for seed in range(30)}) == 30


def test_generation_leaves_the_global_random_alone():
    random.seed(123)
    expected = random.random()
    random.seed(123)
    generate(5, "easy")
    assert random.random() == expected


def test_wordings_vary_and_pairwise_answers_are_balanced():
    instances = [generate(seed, "easy") for seed in range(200)]
    wordings = {re.sub(r"\b[A-Z]\b", "X", s.text) for i in instances for s in i.statements}
    assert len(wordings) == len(GOOD_WORDINGS) + len(BAD_WORDINGS)
    yes = sum(i.queries[0].answer == "Yes" for i in instances)
    assert 60 < yes < 140


def test_unknown_difficulty_is_refused():
    with pytest.raises(ValueError, match="easy, hard"):
        generate(1, "medium")
