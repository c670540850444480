"""The synthetic User Profile Inference sample: same instance for the same seed and query, the
record's shape, 8-12 comments of 2-4 sentences, a strictly dominant audience for item queries
and one author for user queries, class shares near the documented weights, cues that are
present but imperfect, and the cue-counting baseline beating the majority class."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

import pytest

from bots.scripted import user_profile as bot
from bots.scripted.user_profile import infer_profile
from engine.user_profile.synthetic import (
    AGE_CUES,
    AGE_GROUPS,
    AGE_WEIGHTS,
    FORMAT,
    GENDER_CUES,
    GENDER_WEIGHTS,
    GENDERS,
    ITEMS,
    MAJORITY,
    SOURCE,
    generate,
    sample,
)

KEYS = {"format", "id", "seed", "source", "synthetic", "query", "item", "comments", "answer",
        "notes"}
ITEM_NAMES = {item.name for item in ITEMS}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
QUERIES = ("user", "item")


@cache
def _sample() -> tuple[dict, ...]:
    return tuple(sample(2000))


def _of(query: str) -> list[dict]:
    return [r for r in _sample() if r["query"] == query]


def _answer(record: dict) -> tuple[str, str]:
    return record["answer"]["age_group"], record["answer"]["gender"]


def _profiles(record: dict) -> list[tuple[str, str]]:
    return [(p["age_group"], p["gender"]) for p in record["notes"]["profiles"]]


@pytest.mark.parametrize("query", QUERIES)
def test_same_seed_same_instance(query):
    for seed in range(20):
        assert generate(seed, query) == generate(seed, query)
    texts = {tuple(c["text"] for c in generate(seed, query)["comments"]) for seed in range(20)}
    assert len(texts) == 20
    assert generate(5, "user")["comments"] != generate(5, "item")["comments"]


def test_sample_alternates_queries_over_seeds():
    records = sample(6, first_seed=10)
    assert [r["query"] for r in records] == ["user", "item"] * 3
    assert [r["seed"] for r in records] == list(range(10, 16))
    assert records[3] == generate(13, "item")


def test_unknown_query_is_refused():
    with pytest.raises(ValueError):
        generate(0, "group")


def test_record_shape_and_types():
    for record in _sample()[:400]:
        query, seed = record["query"], record["seed"]
        assert set(record) == KEYS
        assert record["format"] == FORMAT == "parlor.user-profile/1"
        assert record["id"] == f"synthetic-profile-{query}-{seed}"
        assert isinstance(seed, int)
        assert record["source"] == SOURCE
        assert record["synthetic"] is True
        assert query in QUERIES
        assert set(record["answer"]) == {"age_group", "gender"}
        assert record["answer"]["age_group"] in AGE_GROUPS
        assert record["answer"]["gender"] in GENDERS
        assert set(record["notes"]) == {"profiles"}
        comments = record["comments"]
        assert 8 <= len(comments) <= 12
        assert len(record["notes"]["profiles"]) == len(comments)
        for comment, profile in zip(comments, record["notes"]["profiles"], strict=True):
            assert set(comment) == {"item", "text"}
            assert comment["item"] in ITEM_NAMES
            assert isinstance(comment["text"], str)
            sentences = [s for s in SENTENCE_END.split(comment["text"].strip()) if s]
            assert 2 <= len(sentences) <= 4, comment["text"]
            assert set(profile) == {"age_group", "gender"}
            assert profile["age_group"] in AGE_GROUPS and profile["gender"] in GENDERS


def test_item_pool():
    assert len(ITEMS) >= 30
    assert len(ITEM_NAMES) == len(ITEMS)
    assert {item.type for item in ITEMS} >= {"product", "show", "game", "app", "service", "book"}
    assert all(item.description and item.kind for item in ITEMS)


def test_item_queries_have_one_item_and_a_strictly_dominant_audience():
    shares = []
    for record in _of("item"):
        assert record["item"] in ITEM_NAMES
        assert {c["item"] for c in record["comments"]} == {record["item"]}
        counts = Counter(_profiles(record)).most_common()
        top, top_count = counts[0]
        assert top == _answer(record)
        assert all(count < top_count for _, count in counts[1:])
        shares.append(top_count / len(record["comments"]))
    assert min(shares) >= 0.4 and max(shares) <= 0.7


def test_user_queries_have_one_author_and_distinct_items():
    for record in _of("user"):
        assert record["item"] is None
        assert set(_profiles(record)) == {_answer(record)}
        items = [c["item"] for c in record["comments"]]
        assert len(set(items)) == len(items)


@pytest.mark.parametrize("query", QUERIES)
def test_class_shares(query):
    answers = [_answer(r) for r in _of(query)]
    n = len(answers)
    assert n == 1000
    ages = Counter(a for a, _ in answers)
    genders = Counter(g for _, g in answers)
    for age, weight in AGE_WEIGHTS.items():
        assert abs(ages[age] / n - weight) < 0.05, (age, ages[age] / n)
    for gender, weight in GENDER_WEIGHTS.items():
        assert abs(genders[gender] / n - weight) < 0.05, (gender, genders[gender] / n)
    assert 0.08 <= genders["Non-binary"] / n <= 0.17
    assert Counter(answers).most_common(1)[0][0] == MAJORITY
    assert abs(sum(AGE_WEIGHTS.values()) - 1) < 1e-9
    assert abs(sum(GENDER_WEIGHTS.values()) - 1) < 1e-9


def _cue_of(text: str, banks: dict[str, tuple[str, ...]]) -> list[str]:
    low = text.lower()
    return [value for value, cues in banks.items() for cue in cues if cue.lower() in low]


@pytest.mark.parametrize("banks, field", [(AGE_CUES, 0), (GENDER_CUES, 1)])
def test_cues_are_present_but_imperfect(banks, field):
    with_cue = right = total = 0
    for record in _sample()[:1000]:
        for comment, profile in zip(record["comments"], _profiles(record), strict=True):
            total += 1
            cues = _cue_of(comment["text"], banks)
            if cues:
                with_cue += 1
                right += cues[0] == profile[field]
    assert 0.15 < with_cue / total < 0.6  # many comments carry no cue
    assert 0.7 < right / with_cue < 0.95  # a few cues mislead


@cache
def _scores(query: str) -> dict[str, float]:
    records = _of(query)[:500]
    both = age = gender = majority = 0
    for record in records:
        truth = _answer(record)
        guess = infer_profile([c["text"] for c in record["comments"]])
        both += guess == truth
        age += guess[0] == truth[0]
        gender += guess[1] == truth[1]
        majority += truth == MAJORITY
    n = len(records)
    return {"both": both / n, "age": age / n, "gender": gender / n, "majority": majority / n}


@pytest.mark.parametrize("query", QUERIES)
def test_heuristic_beats_the_majority_class(query, record_property):
    scores = _scores(query)
    records = _of(query)[:500]
    majority_age = sum(r["answer"]["age_group"] == MAJORITY[0] for r in records) / len(records)
    majority_gender = sum(r["answer"]["gender"] == MAJORITY[1] for r in records) / len(records)
    for name, value in scores.items():
        record_property(name, value)
    print(f"\n{query}: both {scores['both']:.3f} age {scores['age']:.3f} "
          f"gender {scores['gender']:.3f} | always {MAJORITY}: both {scores['majority']:.3f} "
          f"age {majority_age:.3f} gender {majority_gender:.3f}")
    assert scores["both"] >= scores["majority"] + 0.05
    assert scores["age"] > majority_age
    assert scores["gender"] > majority_gender


def test_heuristic_reads_cues_and_falls_back_to_the_majority():
    assert infer_profile([]) == MAJORITY
    assert infer_profile(["Nice kettle. Works as described."]) == MAJORITY
    assert infer_profile(["Since I retired my grandkids visit more. My wife likes it."]) == (
        "55+", "Male")
    assert infer_profile(["The kids love it. As a non-binary parent I liked the pronouns."]) == (
        "35-54", "Non-binary")
    assert infer_profile(["my roommate says it slaps. my husband agrees."]) == (
        "18-34", "Female")
    assert bot.MAJORITY == MAJORITY


def test_heuristic_does_not_read_the_generator():
    from pathlib import Path

    source = Path(bot.__file__).read_text()
    assert "engine.user_profile" not in source
