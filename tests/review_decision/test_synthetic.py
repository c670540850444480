"""The SYNTHETIC Review Decision Prediction sample: deterministic records of our JSONL format,
the task's 33/67 balance, no score-like numbers or explicit recommendations in any text, and a
text-only lexicon baseline that beats always-Reject once reviews are visible."""

import json
import random
import re
from functools import cache
from pathlib import Path

import pytest

from bots.scripted.review_decision import predict_decision
from engine.review_decision.synthetic import (
    ACCEPT_SHARE,
    FORMAT,
    LEANINGS,
    SOURCE,
    generate,
    sample,
)

KEYS = {"format", "id", "seed", "source", "synthetic", "paper", "reviews", "discussion",
        "answer", "notes"}
SCORE_WORDS = r"(?:score|scores|scored|rating|rated|rate|confidence|grade|marks?|points?)"
SCORE_LIKE = [
    re.compile(rf"\b{SCORE_WORDS}\b\W{{0,3}}(?:\w+\W+){{0,2}}\d", re.IGNORECASE),
    re.compile(rf"\d\W{{0,3}}(?:\w+\W+){{0,2}}{SCORE_WORDS}\b", re.IGNORECASE),
    re.compile(r"\d+(?:\.\d+)?\s*/\s*\d+"),
    re.compile(r"\b(?:out of|of)\s+(?:ten|five|\d+)\b", re.IGNORECASE),
]
RECOMMENDATION = re.compile(r"\b(?:accept\w*|reject\w*|recommend\w*|score\w*|rating\w*)\b",
                            re.IGNORECASE)
REVIEWER_REF = re.compile(r"\bReviewer \d\b")
SENTENCE_END = re.compile(r"[.!?](?:\s|$)")


@cache
def _sample(count: int, first_seed: int = 0) -> tuple[dict, ...]:
    return tuple(sample(count, first_seed))


def _texts(record: dict) -> list[str]:
    paper = record["paper"]
    return [paper["title"], paper["abstract"], *paper["keywords"], *record["reviews"],
            *record["discussion"]]


def _accuracy(records, stage: int) -> float:
    right = sum(predict_decision(stage, r["paper"], r["reviews"], r["discussion"]) == r["answer"]
                for r in records)
    return right / len(records)


def test_generate_is_deterministic_and_ignores_global_randomness():
    random.seed(1)
    first = [generate(seed) for seed in range(20)]
    state = random.getstate()
    random.seed(2)
    second = [generate(seed) for seed in range(20)]
    assert first == second
    random.seed(1)
    assert [generate(seed) for seed in range(20)] == first
    assert random.getstate() == state  # generating draws nothing from the global generator
    assert len({json.dumps(r["reviews"]) for r in first}) == 20
    assert list(_sample(20)) == first
    assert sample(3, first_seed=7) == [generate(7), generate(8), generate(9)]
    assert sample(0) == []


def test_records_have_the_documented_shape_and_types():
    for record in _sample(300):
        seed = record["seed"]
        assert set(record) == KEYS
        assert record["format"] == FORMAT == "parlor.review-decision/1"
        assert record["id"] == f"synthetic-review-{seed}"
        assert record["source"] == SOURCE == "synthetic (parlor generator)"
        assert record["synthetic"] is True
        assert record["answer"] in ("Accept", "Reject")

        paper = record["paper"]
        assert set(paper) == {"title", "keywords", "abstract"}
        assert isinstance(paper["title"], str) and paper["title"]
        assert isinstance(paper["keywords"], list) and 3 <= len(paper["keywords"]) <= 5
        assert all(isinstance(k, str) and k for k in paper["keywords"])
        assert len(set(paper["keywords"])) == len(paper["keywords"])
        assert isinstance(paper["abstract"], str)
        assert 3 <= len(SENTENCE_END.findall(paper["abstract"])) <= 5, paper["abstract"]

        reviews = record["reviews"]
        assert isinstance(reviews, list) and 3 <= len(reviews) <= 4
        for review in reviews:
            assert isinstance(review, str)
            for section in ("Summary:", "Strengths:", "Weaknesses:", "Questions:"):
                assert section in review, review
            assert len(SENTENCE_END.findall(review)) >= 4
        assert len(set(reviews)) == len(reviews)

        discussion = record["discussion"]
        assert isinstance(discussion, list) and 1 <= len(discussion) <= 4
        assert all(isinstance(entry, str) for entry in discussion)
        assert discussion[0].startswith("Authors: ")
        for entry in discussion[1:]:
            match = re.match(r"(?:Authors|Reviewer (\d)): \S", entry)
            assert match, entry
            if match.group(1):
                assert 1 <= int(match.group(1)) <= len(reviews)

        notes = record["notes"]
        assert set(notes) == {"review_leanings", "rebuttal"}
        assert len(notes["review_leanings"]) == len(reviews)
        assert all(lean in LEANINGS for lean in notes["review_leanings"])
        assert notes["rebuttal"] in ("convincing", "unconvincing")
        json.dumps(record)  # plain JSON values only


def test_accept_share_matches_the_task_balance():
    records = _sample(2000)
    share = sum(r["answer"] == "Accept" for r in records) / len(records)
    assert ACCEPT_SHARE == 0.33
    assert 0.29 <= share <= 0.37, share


def test_reviews_lean_with_the_decision_and_rebuttals_are_often_convincing_anyway():
    records = _sample(2000)
    accepted = [r for r in records if r["answer"] == "Accept"]
    rejected = [r for r in records if r["answer"] == "Reject"]

    def positive_share(rs):
        leanings = [lean for r in rs for lean in r["notes"]["review_leanings"]]
        return leanings.count("positive") / len(leanings)

    assert positive_share(accepted) > 0.6 > 0.2 > positive_share(rejected)
    # Some accepted papers have a critical review, some rejected ones a positive review.
    assert any("negative" in r["notes"]["review_leanings"] for r in accepted)
    assert any("positive" in r["notes"]["review_leanings"] for r in rejected)
    convincing = sum(r["notes"]["rebuttal"] == "convincing" for r in rejected) / len(rejected)
    assert 0.4 < convincing < 0.6


def test_no_text_carries_a_score_like_number_or_an_explicit_recommendation():
    for record in _sample(2000):
        for text in _texts(record):
            for pattern in SCORE_LIKE:
                assert not pattern.search(text), (record["id"], pattern.pattern, text)
            assert not RECOMMENDATION.search(text), (record["id"], text)
            # The only digits anywhere are reviewer numbers in the discussion.
            assert not re.search(r"\d", REVIEWER_REF.sub("", text)), (record["id"], text)
        assert not any(re.search(r"\d", t) for t in [record["paper"]["abstract"],
                                                      *record["reviews"]])


def test_the_baseline_reads_words_not_the_generators_banks():
    source = Path("bots/scripted/review_decision.py").read_text(encoding="utf-8")
    assert "engine.review_decision" not in source


@pytest.mark.parametrize("stage", [1, 2, 3])
def test_the_baseline_answers_accept_or_reject_even_on_empty_input(stage):
    assert predict_decision(stage, {}, [], []) == "Reject"
    record = generate(3)
    answer = predict_decision(stage, record["paper"], record["reviews"], record["discussion"])
    assert answer in ("Accept", "Reject")


def test_the_lexicon_baseline_beats_always_reject_once_reviews_are_visible():
    records = _sample(500)
    always_reject = sum(r["answer"] == "Reject" for r in records) / len(records)
    stage1, stage2, stage3 = (_accuracy(records, stage) for stage in (1, 2, 3))
    # Measured on seeds 0-499: always-Reject 0.652, stage 1 0.652, stage 2 0.870, stage 3 0.904.
    assert stage1 == always_reject
    assert stage2 > always_reject + 0.05
    assert stage3 > always_reject + 0.05


def test_the_baseline_ignores_the_authors_rebuttal():
    record = next(r for r in _sample(200) if r["answer"] == "Reject"
                  and r["notes"]["rebuttal"] == "convincing")
    stripped = [e for e in record["discussion"] if not e.startswith("Authors: ")]
    for stage in (2, 3):
        assert (predict_decision(stage, record["paper"], record["reviews"], record["discussion"])
                == predict_decision(stage, record["paper"], record["reviews"], stripped))
