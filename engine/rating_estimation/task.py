"""Rating Estimation from Text (SocialMaze §5, Appendix E): a product's reviews without their
stars; the player estimates the product's true rating, 1 to 5. Our record and the authors'
release format are read here (docs/rules/rating-estimation.md documents both)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from engine.dataset_task.files import read_json_list
from engine.dataset_task.instance import (
    AnswerField,
    Instance,
    Item,
    Stage,
    check_format,
    get,
    ident,
    option,
    provenance,
    release_provenance,
    text,
    texts,
)
from engine.dataset_task.task import DatasetTask
from engine.instance_files import FieldError, Loaded

FORMAT = "parlor.rating-estimation/1"
RATING = AnswerField("rating", "Final Rating", ("1", "2", "3", "4", "5"))
QUESTION = ("Based on the reviews, what is the most likely overall star rating of this product? "
            "Choose one: 1, 2, 3, 4 or 5.")
RULES = """\
You are shown a product and some of its customers' reviews, with their star ratings removed. \
Estimate the product's TRUE quality on a 1 to 5 star scale: the rating a typical, unbiased \
customer would give, rounded to the nearest whole star. Most reviewers are genuine customers \
giving honest feedback, but some may be biased: paid to praise the product without reserve, or \
out to run it down."""
_PRODUCT = ("name", "category", "price", "description")
# A review with no words (the Amazon data has a few): its star rating was the review.
NO_TEXT = "(no text: this reviewer gave only a star rating)"


def _product(value: Any) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FieldError("product", "expected an object with name, category, price, description")
    return {k: text(value[k], f"product.{k}") for k in _PRODUCT if value.get(k) is not None}


def intro(product: Mapping[str, str]) -> str:
    if not product:
        return ""  # the release names no product: its reviews are all there is
    head = product.get("name", "A product")
    details = ", ".join(f"{k}: {product[k]}" for k in ("category", "price") if k in product)
    described = f" {product['description']}" if "description" in product else ""
    return f"The product: {head}" + (f" ({details})" if details else "") + "." + described


def from_record(record: Mapping[str, Any]) -> Instance:
    check_format(record, FORMAT)
    product = _product(record.get("product"))
    reviews = texts(get(record, "reviews"), "reviews", empty=True)
    answer = option(RATING, get(record, "answer"), "answer")
    reviewers = record.get("reviewers")
    if reviewers is not None and (not isinstance(reviewers, list)
                                  or len(reviewers) != len(reviews)):
        raise FieldError("reviewers", "expected a list with one entry per review")
    items = tuple(Item(f"Reviewer #{i}", r.strip() or NO_TEXT) for i, r in enumerate(reviews, 1))
    return Instance(
        task="rating-estimation", id=ident(record), kind="", intro=intro(product),
        question=QUESTION, stages=(Stage("Reviews", items),), answer={"rating": answer},
        record=dict(record), **provenance(record))


def _rounded(value: Any) -> Any:
    """A platform's average rating to the nearest whole star (4.5 -> 5); others as given."""
    if isinstance(value, float) and math.isfinite(value):
        return str(math.floor(value + 0.5))
    return value


def _from_official(item: Any) -> dict[str, Any]:
    """One item of the release (`scenario_id`, `true_rating`, `formatted_reviews` of
    `reviewer_id` and `text`, optionally `source`) as our record."""
    reviews = get(item, "formatted_reviews")
    if not isinstance(reviews, list) or not reviews:
        raise FieldError("formatted_reviews", "expected a non-empty list of reviews")
    return {"format": FORMAT, "id": ident(item, "scenario_id"), **release_provenance(item),
            "reviews": [text(get(r, "text", f"formatted_reviews[{i}]"),
                             f"formatted_reviews[{i}].text", empty=True)
                        for i, r in enumerate(reviews)],
            "answer": option(RATING, _rounded(get(item, "true_rating")), "true_rating")}


def read_official(data: bytes, name: str) -> Loaded:
    return read_json_list(TASK, data, name, _from_official, "scenario_id")


def generate(seed: int, config: Any) -> dict[str, Any]:
    from engine.rating_estimation.synthetic import generate as synthetic

    return synthetic(seed)


def explain(instance: Instance) -> str | None:
    """Who was a shill, for a synthetic instance that records it."""
    reviewers = instance.record.get("reviewers")
    if not isinstance(reviewers, list):
        return None
    shills = {"positive_shill": [], "negative_shill": []}
    honest = []
    for i, r in enumerate(reviewers, 1):
        role = r.get("role") if isinstance(r, dict) else None
        if role in shills:
            shills[role].append(str(i))
        elif isinstance(r, dict) and r.get("implied") is not None:
            honest.append(str(r["implied"]))
    parts = []
    if shills["positive_shill"]:
        parts.append(f"paid to praise: reviewer #{', #'.join(shills['positive_shill'])}")
    if shills["negative_shill"]:
        parts.append(f"out to run it down: reviewer #{', #'.join(shills['negative_shill'])}")
    said = "; ".join(parts) if parts else "no biased reviewers"
    said = said[0].upper() + said[1:]
    return (f"This synthetic product's true rating was {instance.answer['rating']}. {said}. "
            f"The honest reviews implied {', '.join(honest)} stars.")


TASK = DatasetTask(
    id="rating-estimation", title="Rating Estimation from Text", format=FORMAT,
    fields=(RATING,), syntax="Final Rating: 4", rules=RULES, from_record=from_record,
    read_official=read_official, generate=generate, explain=explain)
