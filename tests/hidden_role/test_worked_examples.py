"""The paper's four worked examples: the solver finds the published answer and the explanation
names it with the facts that decide it."""

import pytest

from engine.hidden_role.explain import analyse, explain
from engine.hidden_role.roles import Role
from engine.hidden_role.solver import solve, unique_answer
from tests.hidden_role.helpers import FIG6, FIG14, FIG22, FIG30

CASES = [
    (FIG6, Role.INVESTIGATOR, 2, Role.INVESTIGATOR),
    (FIG14, Role.CRIMINAL, 1, Role.CRIMINAL),
    (FIG22, Role.INVESTIGATOR, 3, Role.RUMORMONGER),
    (FIG30, Role.CRIMINAL, 2, Role.LUNATIC),
]


@pytest.mark.parametrize(("instance", "told", "criminal", "role"), CASES,
                         ids=["fig6", "fig14", "fig22", "fig30"])
def test_unique_answer_after_round_3_is_the_papers(instance, told, criminal, role):
    assert instance.told is told
    assert unique_answer(instance, 3) == (criminal, role)
    assert instance.answer == (criminal, role.value)


def test_fig6_is_settled_from_round_2_but_not_round_1():
    assert unique_answer(FIG6, 1) is None
    assert len(solve(FIG6, 1)) > 1
    assert unique_answer(FIG6, 2) == (2, Role.INVESTIGATOR)


@pytest.mark.parametrize(("instance", "conclusion", "facts"), [
    (FIG6, "Conclusion: the criminal is Player 2 and you are an Investigator.",
     ["Player 2 cannot be an Investigator: they called Players 4 and 6 the criminal",
      "Player 3 cannot be an Investigator: they said in round 1 that you are the criminal",
      "so you cannot be a Rumormonger"]),
    (FIG14, "Conclusion: the criminal is you (Player 1) and you are the Criminal.",
     ["Player 6 cannot be an Investigator: they said in round 1 that you are not the criminal",
      "so you cannot be a Lunatic"]),
    (FIG22, "Conclusion: the criminal is Player 3 and you are a Rumormonger.",
     ["No criminal fits, so you cannot be an Investigator",
      "Player 3 could be the criminal: Players 4, 5 and 6 could all be telling the truth"]),
    (FIG30, "Conclusion: the criminal is Player 2 and you are a Lunatic.",
     ["Player 3 cannot be an Investigator: they said in round 1 that Player 2 is the criminal, "
      "which is false if you are the Criminal", "so you cannot be the Criminal"]),
], ids=["fig6", "fig14", "fig22", "fig30"])
def test_explanation_names_the_answer_and_the_decisive_facts(instance, conclusion, facts):
    text = explain(instance)
    assert text.splitlines()[-1] == conclusion
    for fact in facts:
        assert fact in text


@pytest.mark.parametrize("instance", [FIG6, FIG14, FIG22, FIG30])
@pytest.mark.parametrize("t", [1, 2, 3])
def test_explanation_reaches_exactly_the_solvers_answers(instance, t):
    reasoned = {(c, h.p1_role) for h in analyse(instance, t) for c in h.criminals}
    assert reasoned == solve(instance, t)


def test_an_open_round_says_what_still_fits():
    text = explain(FIG22, 1)
    assert text.startswith("After round 1.")
    assert "Not settled yet: 2 answers still fit" in text
