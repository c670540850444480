"""Reading and scoring answers: the paper's exact formats, any casing, markdown bold, prose
around the answer, the last answer winning, lists in any order, "No one", and garbage (wrong,
never an exception)."""

import pytest

from engine.social_graph.graph import Partition
from engine.social_graph.queries import (
    Kind,
    format_value,
    parse_question,
    question_text,
    read_answer,
    score,
)
from engine.social_graph.queries import make_query as _make
from tests.social_graph.helpers import GROUPS

PARTITION = Partition.of([*GROUPS[:1], ("E",), ("H",)])  # E and H apart: H has "No one"


def query(kind, *subject):
    return _make(kind, subject, PARTITION)


YES = query(Kind.PAIRWISE, "B", "G")
NO = query(Kind.PAIRWISE, "C", "H")
MEMBERS = query(Kind.MEMBERSHIP, "A")
NOBODY = query(Kind.MEMBERSHIP, "H")
GROUP_COUNT = query(Kind.GROUP_COUNT)
PAIR_COUNT = query(Kind.PAIR_COUNT)


def test_canonical_answers():
    assert (YES.answer, NO.answer, MEMBERS.answer, NOBODY.answer, GROUP_COUNT.answer) == \
        ("Yes", "No", "B, C, D, F, G", "No one", "3")
    assert PAIR_COUNT.answer == "15 pairs have good relationships, 13 pairs have bad relationships"


@pytest.mark.parametrize("q,reply", [
    (YES, "Final Answer: Yes"),
    (YES, "final answer: YES"),
    (YES, "**Final Answer:** Yes"),
    (YES, "**Final Answer: yes**"),
    (YES, "B is linked to G through A.\n\nFinal Answer: Yes, they are."),
    (YES, "Final Answer: No\nWait, B and G are both friends of A.\nFinal Answer: Yes"),
    (YES, "Final Answer:\n\nYes"),
    (YES, "yes"),  # a person typing just the answer
    (NO, "Final Answer: No."),
    (NO, "Final answer: *No*"),
    (MEMBERS, "Final Answer: B, C, D, F, G"),
    (MEMBERS, "Final Answer: g, f, d, c, b"),
    (MEMBERS, "Final Answer: B C D F G"),
    (MEMBERS, "Final Answer: B, C, D, F and G."),
    (MEMBERS, "Final Answer: Person B, Person C, Person D, Person F, Person G"),
    (MEMBERS, "Final Answer: **B**, **C**, **D**, **F**, **G**"),
    (MEMBERS, "so the friends of A are everyone in the big group.\nFinal Answer: B;C;D;F;G"),
    (MEMBERS, "d, b, c, g, f"),
    (MEMBERS, "Final Answer: B, C, C, D, F, G"),  # a set of names: a repeat changes nothing
    (NOBODY, "Final Answer: No one"),
    (NOBODY, "Final Answer: no one."),
    (NOBODY, "Final Answer: None"),
    (NOBODY, "**Final Answer: No-one**"),
    (NOBODY, "No one"),
    (GROUP_COUNT, "Final Answer: 3"),
    (GROUP_COUNT, "Final Answer: 3 groups"),
    (GROUP_COUNT, "There are 2 or 3 groups... Final Answer: **3**"),
    (GROUP_COUNT, "3"),
    (PAIR_COUNT, "Final Answer: 15 pairs have good relationships, 13 pairs have bad relationships"),
    (PAIR_COUNT, "FINAL ANSWER: 15 PAIRS HAVE GOOD RELATIONSHIPS, 13 PAIRS HAVE BAD "
                 "RELATIONSHIPS."),
    (PAIR_COUNT, "Final Answer: 15 pairs have good relationships and 13 pairs have bad "
                 "relationships"),
    (PAIR_COUNT, "C(6,2) = 15 good; 28 - 15 = 13 bad.\n**Final Answer:** 15 pairs have good "
                 "relationships, 13 pairs have bad relationships"),
])
def test_right_answers_score(q, reply):
    assert score(q, reply)


@pytest.mark.parametrize("q,reply", [
    (YES, "Final Answer: No"),
    (YES, "Final Answer: Yes\nOn reflection, Final Answer: No"),  # the last answer counts
    (YES, "They are on good terms, yes."),  # prose without the label is not a bare answer
    (YES, "Final Answer: Not sure"),
    (YES, "Final Answer: Unknown"),
    (NO, "Final Answer: Yes"),
    (MEMBERS, "Final Answer: B, C, D, F"),  # one missing
    (MEMBERS, "Final Answer: A, B, C, D, F, G"),  # the person asked about is not their friend
    (MEMBERS, "Final Answer: B, C, D, F, G are A's friends"),
    (MEMBERS, "Final Answer: No one"),
    (NOBODY, "Final Answer: E"),
    (NOBODY, "Final Answer: Nothing"),
    (GROUP_COUNT, "Final Answer: 2"),
    (GROUP_COUNT, "Final Answer: three"),
    (GROUP_COUNT, "Final Answer: 3.5"),
    (GROUP_COUNT, "Final Answer: 3333333"),
    (PAIR_COUNT, "Final Answer: 13 pairs have good relationships, 15 pairs have bad "
                 "relationships"),
    (PAIR_COUNT, "Final Answer: 15, 13"),
    (PAIR_COUNT, "Final Answer: 15 pairs have good relationships"),
])
def test_wrong_answers_do_not_score(q, reply):
    assert not score(q, reply)


GARBAGE = ["", "   ", "Final Answer:", "Final Answer: **", "**", "🤷", "\x00\x01", "[1 defect]",
           "final answer " * 500, "Final Answer: " + "BC, " * 5000, "a" * 100_000,
           "Final Answer:" + " " * 50_000 + "xy\n" * 1000, "ＢＣ", None]


@pytest.mark.parametrize("kind", list(Kind))
@pytest.mark.parametrize("reply", GARBAGE, ids=range(len(GARBAGE)))
def test_garbage_is_wrong_and_never_raises(kind, reply):
    assert read_answer(kind, reply) is None


@pytest.mark.parametrize("kind", list(Kind))
def test_canonical_text_reads_back(kind):
    subject = {Kind.PAIRWISE: ("A", "E"), Kind.MEMBERSHIP: ("A",)}.get(kind, ())
    q = query(kind, *subject)
    assert format_value(kind, read_answer(kind, q.answer)) == q.answer
    assert score(q, f"Final Answer: {q.answer}")


@pytest.mark.parametrize("text,asked", [
    ("Do N and L have a good relationship?", (Kind.PAIRWISE, ("N", "L"))),
    ("Do Person N and Person L have a good relationship?", (Kind.PAIRWISE, ("N", "L"))),
    ("Who has a good relationship with H?", (Kind.MEMBERSHIP, ("H",))),
    ("Who has a good relationship with Person H?", (Kind.MEMBERSHIP, ("H",))),
    ("How many groups of people are there?", (Kind.GROUP_COUNT, ())),
    ("How many distinct groups of people are there?", (Kind.GROUP_COUNT, ())),
    ("How many pairs of people have good/bad relationships?", (Kind.PAIR_COUNT, ())),
    ("What is the capital of France?", None),
])
def test_questions_in_the_papers_words_are_recognised(text, asked):
    assert parse_question(text) == asked


@pytest.mark.parametrize("kind,subject", [(Kind.PAIRWISE, ("C", "K")),
                                          (Kind.MEMBERSHIP, ("J",)),
                                          (Kind.GROUP_COUNT, ()), (Kind.PAIR_COUNT, ())])
def test_our_questions_are_recognised(kind, subject):
    assert parse_question(question_text(kind, subject)) == (kind, subject)


def test_a_query_needs_the_right_number_of_people():
    with pytest.raises(ValueError, match="about 2 people"):
        query(Kind.PAIRWISE, "A")
