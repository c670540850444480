"""The union-find solver: the spec's worked example, every query type on it, and statements
that contradict each other or leave a relationship open."""

import pytest

from engine.social_graph.graph import Edge, Partition, people_labels
from engine.social_graph.queries import Kind, make_query
from engine.social_graph.solver import (
    InconsistentStatements,
    UndeterminedGroups,
    solve,
    solve_queries,
)
from tests.social_graph.helpers import EDGES, GROUPS, PEOPLE


def test_worked_example_groups_and_counts():
    partition = solve(PEOPLE, EDGES)
    assert partition.groups == GROUPS
    assert partition.group_count == 2
    assert (partition.good_pairs, partition.bad_pairs) == (16, 12)


@pytest.mark.parametrize("kind,subject,answer", [
    (Kind.PAIRWISE, ("B", "G"), "Yes"),
    (Kind.PAIRWISE, ("C", "H"), "No"),
    (Kind.PAIRWISE, ("H", "E"), "Yes"),
    (Kind.PAIRWISE, ("G", "H"), "No"),  # never stated: follows from E–G bad and H–E good
    (Kind.MEMBERSHIP, ("H",), "E"),
    (Kind.MEMBERSHIP, ("A",), "B, C, D, F, G"),
    (Kind.MEMBERSHIP, ("F",), "A, B, C, D, G"),
    (Kind.GROUP_COUNT, (), "2"),
    (Kind.PAIR_COUNT, (), "16 pairs have good relationships, 12 pairs have bad relationships"),
])
def test_worked_example_answers(kind, subject, answer):
    query = make_query(kind, subject, Partition.of(GROUPS))
    assert query.answer == answer
    assert solve_queries(PEOPLE, EDGES, [query]) == (answer,)


def test_order_of_statements_does_not_matter():
    assert solve(PEOPLE, EDGES[::-1]) == solve(PEOPLE, EDGES)


def test_a_group_of_one_has_no_one():
    people = people_labels(3)
    partition = solve(people, [Edge("A", "B", True), Edge("C", "A", False)])
    assert partition.groups == (("A", "B"), ("C",))
    assert make_query(Kind.MEMBERSHIP, ("C",), partition).answer == "No one"


def test_a_bad_edge_inside_a_good_chain_is_a_contradiction():
    edges = [*EDGES, Edge("B", "G", False)]
    with pytest.raises(InconsistentStatements, match=r"B and G .* \(B – A – G\)"):
        solve(PEOPLE, edges)


def test_the_same_pair_stated_good_and_bad_is_a_contradiction():
    with pytest.raises(InconsistentStatements):
        solve(people_labels(2), [Edge("A", "B", True), Edge("B", "A", False)])


def test_a_pair_stated_twice_the_same_way_is_fine():
    # The released files sometimes state one bad pair in both orders ("C and H", "H and C").
    assert solve(PEOPLE, [*EDGES, Edge("H", "C", False)]).groups == GROUPS


def test_two_groups_with_no_bad_edge_between_them_are_undetermined():
    edges = [edge for edge in EDGES if edge.good] + [Edge("C", "H", False)]
    people = people_labels(9)  # I is mentioned nowhere: its relationships are all open
    with pytest.raises(UndeterminedGroups, match=r"\{I\}"):
        solve(people, edges)
    bad_free = [edge for edge in EDGES if edge.good]
    with pytest.raises(UndeterminedGroups, match=r"\{A, B, C, D, F, G\} and \{E, H\}"):
        solve(PEOPLE, bad_free)


def test_unknown_people_are_refused():
    with pytest.raises(ValueError, match="Z is not one of the people"):
        solve(PEOPLE, [*EDGES, Edge("A", "Z", True)])
