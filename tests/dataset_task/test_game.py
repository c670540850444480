"""The dataset tasks as games: evidence a stage at a time with an answer after each, nothing
about the truth in any view before the end, the truth and how the instance was made after it,
instances from a file played as they are, and the metrics (accuracy per stage, per field, per
kind, the majority-class baseline) worked by hand."""

import json

import pytest

from engine.core import ConfigError
from engine.registry import get

REVIEW = get("review-decision")
RATING = get("rating-estimation")
PROFILE = get("user-profile")

PAPER = {"format": "parlor.review-decision/1", "id": "demo-1", "source": "hand-written",
         "paper": {"title": "Counting Sheep Faster", "keywords": ["sleep", "counting"],
                   "abstract": "We count sheep with fewer steps."},
         "reviews": ["The idea is neat; experiments are thin.", "Clear writing, modest gain."],
         "discussion": ["We added two datasets.", "Reviewer 1: My concerns remain."],
         "answer": "Reject"}


def play(env, config, answers, seed=0):
    game = env.new_game(config, seed, 1)
    for answer in answers:
        game.act(0, answer)
    return game


def test_review_stages_and_scores():
    config = REVIEW.config(overrides={"instance": json.dumps(PAPER)})
    game = REVIEW.new_game(config, 0, 1)
    seen = []
    for answer in ("Final Decision: Accept", {"decision": "Reject"}, "no idea"):
        view = game.view(0)
        seen.append([s["title"] for s in view["public"]["evidence"]])
        assert "Reject" not in json.dumps(view["public"]["evidence"])
        assert "setup" not in view["public"]
        game.act(0, answer)
    assert seen == [["Paper information"],
                    ["Paper information", "Reviews (scores removed)"],
                    ["Paper information", "Reviews (scores removed)",
                     "Rebuttal and discussion"]]
    rebuttal = game.view(0)["public"]["evidence"][2]["items"]
    assert rebuttal == [["Authors", "We added two datasets."], ["Reviewer 1", "My concerns remain."]]
    assert game.over and game.result.rewards == {0: -1.0}
    assert game.result.reason == "wrong: the answer was decision Reject"
    setup = game.view(None)["public"]["setup"]
    assert setup["answer"] == {"decision": "Reject"} and setup["instance_id"] == "demo-1"
    record = game.record()
    metrics = REVIEW.game_metrics(record)
    assert metrics["seats"]["0"]["right_stage1"] == 0
    assert metrics["seats"]["0"]["right_stage2"] == 1
    assert metrics["seats"]["0"]["right_stage3"] == 0 and metrics["seats"]["0"]["right"] == 0
    assert metrics["game"]["label"] == "Reject"


def test_views_never_show_how_a_synthetic_instance_was_made():
    for env in (RATING, REVIEW, PROFILE):
        for seed in range(6):
            game = env.new_game(env.presets["paper"], seed, 1)
            while not game.over:
                text = json.dumps(game.view(0)) + json.dumps(game.view(None))
                for secret in ('"notes"', '"reviewers"', '"review_leanings"', '"profiles"',
                               '"implied"', '_shill"'):
                    assert secret not in text, (env.id, seed, secret)
                game.act(0, "")
            assert game.view(0)["public"]["setup"]["content_hash"]


def test_a_synthetic_rating_game_explains_itself():
    game = play(RATING, RATING.presets["paper"], ["Final Rating: 4"], seed=3)
    setup = game.view(0)["public"]["setup"]
    assert setup["source"] == "synthetic (parlor generator)"
    assert setup["explanation"].startswith("This synthetic product's true rating was")


def test_bad_imported_instance_is_a_config_error():
    with pytest.raises(ConfigError, match="instance: field 'answer'"):
        REVIEW.config(overrides={"instance": json.dumps({**PAPER, "answer": "Maybe"})})
    with pytest.raises(ConfigError, match="instance: not valid JSON"):
        REVIEW.config(overrides={"instance": '{"format": '})
    with pytest.raises(ConfigError, match="seconds_per_answer"):
        REVIEW.config(overrides={"seconds_per_answer": -1})


def test_a_person_timer_and_the_default_answer():
    game = REVIEW.new_game(REVIEW.config(overrides={"seconds_per_answer": 30}), 1, 1)
    assert game.pace(0) == 30.0
    game.act_default(0, "timeout")
    assert game.view(0)["private"]["my_answers"] == [{"stage": 1, "answer": {"decision": None}}]


def test_profile_query_kinds_by_seed_and_preset():
    kinds = [PROFILE.new_game(PROFILE.presets["paper"], s, 1).instance.kind for s in range(4)]
    assert kinds == ["user", "item", "user", "item"]
    assert PROFILE.new_game(PROFILE.presets["item"], 2, 1).instance.kind == "item"


def _games(env, preset, answers_by_seed):
    per_game = []
    for seed, answers in answers_by_seed.items():
        game = play(env, env.presets[preset], answers, seed)
        per_game.append(env.game_metrics(game.record()))
    return per_game


def test_profile_metrics_by_field_and_kind_with_the_majority_baseline():
    truths = {s: PROFILE.new_game(PROFILE.presets["paper"], s, 1).instance.answer
              for s in range(8)}
    # right on seeds 0-3, gender only on 4-5, nothing on 6-7
    answers = {}
    for s, t in truths.items():
        wrong_age = next(a for a in ("18-34", "35-54", "55+") if a != t["age_group"])
        wrong_gender = next(g for g in ("Male", "Female", "Non-binary") if g != t["gender"])
        age = t["age_group"] if s < 4 else wrong_age
        gender = t["gender"] if s < 6 else wrong_gender
        answers[s] = [{"age_group": age, "gender": gender}]
    aggregate = PROFILE.aggregate_metrics(_games(PROFILE, "paper", answers))
    overall = aggregate["overall"]
    assert overall["accuracy"] == 0.5
    assert overall["age_group_right"] == 0.5 and overall["gender_right"] == 0.75
    labels = [" / ".join(t.values()) for t in truths.values()]
    top = max(labels.count(label) for label in labels)
    assert overall["majority_baseline"] == top / 8
    users = aggregate["kinds"]["user"]  # seeds 0, 2, 4, 6: right, right, wrong, wrong
    items = aggregate["kinds"]["item"]  # seeds 1, 3, 5, 7: right, right, wrong, wrong
    assert users["accuracy"] == items["accuracy"] == 0.5 and users["games"] == 4
    assert overall["mean_accuracy"] == 0.5
    low, high = overall["accuracy_low"], overall["accuracy_high"]
    assert 0.2 < low < 0.5 < high < 0.8


def test_rating_majority_baseline_is_the_most_common_true_rating():
    truths = {s: RATING.new_game(RATING.presets["paper"], s, 1).instance.answer["rating"]
              for s in range(30)}
    aggregate = RATING.aggregate_metrics(_games(RATING, "paper",
                                                {s: ["Final Rating: 4"] for s in truths}))
    overall = aggregate["overall"]
    fours = sum(r == "4" for r in truths.values()) / 30
    assert overall["accuracy"] == pytest.approx(fours)
    assert overall["majority_label"] == "4" and overall["majority_baseline"] == overall["accuracy"]
    assert overall["mean_accuracy"] == overall["accuracy"] and aggregate["kinds"] == {}
