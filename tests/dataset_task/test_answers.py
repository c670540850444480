"""Answers of the dataset tasks read as the paper reads a model's: each field's `Label: value`
anywhere, any casing, bold ignored, the last match wins; a bare option for a one-field task;
nothing readable is None (scored wrong), never an error."""

import pytest

from engine.rating_estimation.task import TASK as RATING
from engine.review_decision.task import TASK as REVIEW
from engine.user_profile.task import TASK as PROFILE


@pytest.mark.parametrize(("reply", "expected"), [
    ("Final Rating: 4", "4"),
    ("final rating:5", "5"),
    ("Reasoning... **Final Rating: 3**", "3"),
    ("**Final Rating:** 2", "2"),
    ("Final Rating: 5 at first, but on reflection Final Rating: 4", "4"),
    ("4", "4"),
    ("  3. ", "3"),
    ("Final Rating: 6", None),
    ("Final Rating: 45", None),
    ("I would say four stars", None),
    ("", None),
])
def test_rating(reply, expected):
    assert RATING.read_answer(reply) == {"rating": expected}


@pytest.mark.parametrize(("reply", "expected"), [
    ("Final Decision: Accept", "Accept"),
    ("final decision: **reject**", "Reject"),
    ("Final Decision: <Accept/Reject>", None),  # the template copied, not an answer
    ("Final Decision: Reject ... Final Decision: Accept", "Accept"),
    ("reject", "Reject"),
    ("Final Decision: Accepted", None),
    ("The paper should be accepted.", None),
])
def test_decision(reply, expected):
    assert REVIEW.read_answer(reply) == {"decision": expected}


@pytest.mark.parametrize(("reply", "age", "gender"), [
    ("Age Group: 35-54 Gender: Female", "35-54", "Female"),
    ("age group: 18 - 34, gender: non binary", "18-34", "Non-binary"),
    ("**Age Group:** 55+\n**Gender:** Male", "55+", "Male"),
    ("Age Group: 55 + Gender: nonbinary", "55+", "Non-binary"),
    ("Age Group: 35-54", "35-54", None),
    ("Gender: Female. Hmm, Age Group: 18-34 Gender: Male", "18-34", "Male"),
    ("Age Group: 18-34-ish Gender: Male", None, "Male"),
    ("Female", None, None),  # a bare option counts only for a one-field task
])
def test_profile(reply, age, gender):
    assert PROFILE.read_answer(reply) == {"age_group": age, "gender": gender}


def test_form_values_are_typed_like_a_reply():
    assert PROFILE.typed({"age_group": "55+", "gender": "Male"}) == \
        "Age Group: 55+ Gender: Male"
    assert PROFILE.read_answer(PROFILE.typed({"gender": "Female"})) == \
        {"age_group": None, "gender": "Female"}
    assert RATING.instructions() == "Give your answer exactly in this format: " \
                                    "Final Rating: <1 | 2 | 3 | 4 | 5>"
