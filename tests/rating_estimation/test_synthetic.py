"""Rating Estimation's synthetic sample (engine/rating_estimation/synthetic.py and its bank
reviews.txt) and the text-only heuristic baseline (bots/scripted/rating_estimation.py)."""

import json
import random
import re
import statistics
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from bots.scripted.rating_estimation import estimate_rating
from engine.rating_estimation import synthetic
from engine.rating_estimation.synthetic import (
    LABEL_WEIGHTS,
    REVIEWS,
    SLOTS,
    bank,
    generate,
    parse_bank,
    sample,
    slots_of,
)

ROLES = {"normal", "positive_shill", "negative_shill"}
# A star count or a number score: any digit at all, the word "star", a number word before
# "stars"/"out of", "out of" a number word, or a "/5"-style score.
SCORE = re.compile(
    r"\d|\bstars?\b|\b(?:zero|one|two|three|four|five|ten)[- ](?:stars?|out of)\b"
    r"|\bout of (?:one|two|three|four|five|ten)\b|/\s*(?:5|10)\b",
    re.IGNORECASE,
)
PRICE = re.compile(r"^\$\d+\.\d\d$")


@cache
def many() -> tuple[dict, ...]:
    return tuple(sample(2000))


def test_determinism_and_seed_range():
    assert generate(7) == generate(7)
    assert generate(7) != generate(8)
    assert len({json.dumps(generate(s), sort_keys=True) for s in range(20)}) == 20
    assert sample(3, first_seed=5) == [generate(5), generate(6), generate(7)]
    assert [r["seed"] for r in sample(4)] == [0, 1, 2, 3]


def test_no_global_randomness():
    state = random.getstate()
    random.seed(1)
    first = generate(42)
    random.seed(2)
    assert generate(42) == first
    random.setstate(state)
    before = random.getstate()
    generate(43)
    assert random.getstate() == before


def test_record_shape_and_types():
    for record in many()[:300]:
        assert list(record) == ["format", "id", "seed", "source", "synthetic", "product",
                                "reviews", "answer", "reviewers"]
        seed = record["seed"]
        assert record["format"] == "parlor.rating-estimation/1"
        assert record["id"] == f"synthetic-rating-{seed}"
        assert record["source"] == "synthetic (parlor generator)"
        assert record["synthetic"] is True
        product = record["product"]
        assert set(product) == {"name", "category", "price", "description"}
        assert all(isinstance(v, str) and v for v in product.values())
        assert PRICE.match(product["price"])
        assert product["description"].endswith(".")
        assert len(record["reviews"]) == REVIEWS == 8
        assert all(isinstance(t, str) and t.strip() for t in record["reviews"])
        assert type(record["answer"]) is int and 1 <= record["answer"] <= 5
        assert len(record["reviewers"]) == REVIEWS
        for reviewer in record["reviewers"]:
            assert set(reviewer) == {"role", "implied"}
            assert reviewer["role"] in ROLES
            assert type(reviewer["implied"]) is int and 1 <= reviewer["implied"] <= 5
            if reviewer["role"] == "positive_shill":
                assert reviewer["implied"] == 5
            if reviewer["role"] == "negative_shill":
                assert reviewer["implied"] == 1
        assert json.loads(json.dumps(record)) == record


def test_label_distribution_matches_the_paper():
    counts = Counter(r["answer"] for r in many())
    share = {k: counts[k] / len(many()) for k in range(1, 6)}
    assert LABEL_WEIGHTS == {1: 1, 2: 3, 3: 10, 4: 73, 5: 13}
    assert share[1] < 0.025
    assert 0.01 < share[2] < 0.05
    assert 0.07 < share[3] < 0.13
    assert 0.68 < share[4] < 0.78
    assert 0.10 < share[5] < 0.16


def test_roles_at_least_five_normal_users_and_some_shills():
    roles = Counter()
    for record in many():
        these = [r["role"] for r in record["reviewers"]]
        assert these.count("normal") >= 5
        roles.update(these)
    total = sum(roles.values())
    assert 0.06 < roles["positive_shill"] / total < 0.13
    assert 0.04 < roles["negative_shill"] / total < 0.10


def test_normal_users_stay_near_the_true_rating():
    gaps = [abs(r["implied"] - record["answer"]) for record in many()
            for r in record["reviewers"] if r["role"] == "normal"]
    assert statistics.mean(gaps) < 1
    assert sum(g <= 2 for g in gaps) / len(gaps) > 0.98
    assert sum(g == 0 for g in gaps) / len(gaps) > 0.4


def test_no_review_states_a_star_count_or_a_score():
    for record in many():
        for text in record["reviews"]:
            assert not SCORE.search(text), text
            assert "{" not in text and "}" not in text, text


def test_the_score_pattern_catches_scores():
    for bad in ("Four stars from me.", "I give it 4/5.", "A solid 10/10.", "five-star stuff",
                "three out of five", "out of ten, a seven", "rated it 4 stars"):
        assert SCORE.search(bad), bad
    assert not SCORE.search("A good kettle, I like it. Would buy again.")


def test_the_bank():
    b = bank()
    assert len(b.products) >= 40
    assert len({p.category for p in b.products}) >= 8
    assert len({p.name for p in b.products}) == len(b.products)
    for p in b.products:
        assert not re.search(r"\d", p.name), p.name
        assert PRICE.match(p.price), p.price
        assert len(set(p.aspects)) >= 2
    for level in range(1, 6):
        assert len(set(b.levels[level])) >= 15, level
        assert b.closers[level]
    assert len(set(b.shills["positive"])) >= 12
    assert len(set(b.shills["negative"])) >= 12
    templates = [t for bank_ in (b.levels, b.closers, b.shills) for ts in bank_.values()
                 for t in ts]
    for t in templates:
        assert slots_of(t) <= SLOTS, t
        assert not SCORE.search(re.sub(r"\{\w+\}", "", t)), t


def test_the_bank_ships_beside_the_module():
    assert (Path(synthetic.__file__).parent / synthetic.BANK_FILE).is_file()


def test_malformed_banks_are_refused():
    with pytest.raises(ValueError):
        parse_bank("@level 6\nA line.\n")
    with pytest.raises(ValueError):
        parse_bank("A line outside a section.\n")
    with pytest.raises(ValueError):
        parse_bank("@level 1\nThe {colour} is bad.\n")
    with pytest.raises(ValueError):
        parse_bank("@category Things\nkind: thing\naspects: a; b\nOnly | three | fields\n")


def test_heuristic_small_cases():
    assert estimate_rating([]) == 4
    glowing = ["I love it, excellent and flawless.", "Superb quality, absolutely wonderful.",
               "Fantastic, the best one I have owned.", "Outstanding and perfect."] * 2
    assert estimate_rating(glowing) == 5
    awful = ["Terrible, it broke at once.", "Awful and useless.", "A complete waste, junk.",
             "Horrible, defective, returned it."] * 2
    assert estimate_rating(awful) == 1
    fair = ["Good kettle, works well, though the lid is a bit stiff.",
            "Solid and reliable, I am happy with it.",
            "Nice design and good value, with a minor gripe about the handle.",
            "Pretty good overall, glad I bought it.",
            "Good quality for the money.",
            "Decent enough, I like it."]
    shills = ["AVOID!!! This brand is a scam, everyone stay away!!",
              "Garbage from a garbage company, do not buy, total fraud!!!"]
    assert estimate_rating(fair) == 4
    assert estimate_rating(fair + shills) == 4


def test_the_heuristic_bot_reads_words_not_the_generator():
    source = (Path(__file__).parents[2] / "bots" / "scripted" / "rating_estimation.py").read_text()
    assert "engine.rating_estimation" not in source
    assert "reviews.txt" not in source


def test_heuristic_beats_always_four():
    records = sample(500)
    heuristic = sum(estimate_rating(r["reviews"]) == r["answer"] for r in records) / len(records)
    always_four = sum(r["answer"] == 4 for r in records) / len(records)
    print(f"\nrating estimation on 500 synthetic instances (seeds 0..499): "
          f"heuristic {heuristic:.3f}, always-4 {always_four:.3f}")
    assert heuristic > always_four + 0.03
