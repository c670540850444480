"""Relationship sentences: every wording we write reads back to its edge, the paper's and the
released files' wordings read too, and other lines read as nothing."""

import random

import pytest

from engine.social_graph.graph import Edge
from engine.social_graph.statements import (
    BAD_WORDINGS,
    GOOD_WORDINGS,
    parse_statement,
    verbalise,
)


@pytest.mark.parametrize("wording,good", [(w, True) for w in GOOD_WORDINGS]
                         + [(w, False) for w in BAD_WORDINGS])
def test_our_wordings_read_back(wording, good):
    assert parse_statement(wording.format(a="K", b="P")) == Edge("K", "P", good)


@pytest.mark.parametrize("text,edge", [
    ("N and G have a good relationship", Edge("N", "G", True)),
    ("Person K and Person P have a bad relationship", Edge("K", "P", False)),
    ("u and v are good friends.", Edge("U", "V", True)),
    ("  A   and B do not get along.  ", Edge("A", "B", False)),
])
def test_the_papers_wordings_read(text, edge):
    assert parse_statement(text) == edge


@pytest.mark.parametrize("text", [
    "", "Question: Who has a good relationship with H?", "There are 8 people in total.",
    "A and A get along well.", "A and B get along well, mostly.", "AB and C are on bad terms.",
    "Final Answer: Yes",
])
def test_other_lines_are_not_statements(text):
    assert parse_statement(text) is None


def test_verbalise_keeps_the_edge_and_varies_the_order():
    rng = random.Random(0)
    said = [verbalise(Edge("A", "B", False), rng) for _ in range(40)]
    assert {(s.edge.pair, s.edge.good) for s in said} == {(("A", "B"), False)}
    assert all(parse_statement(s.text) == s.edge for s in said)
    assert {s.edge.a for s in said} == {"A", "B"}
