"""A synthetic sample for Rating Estimation from Text (spec §5; paper Appendix E, scenario A),
generated offline from our own word bank (reviews.txt, beside this module) instead of an LLM.

One instance, all drawn from `random.Random(seed)` (never the global generator):

- the true rating, an integer 1..5 drawn with the paper's label distribution
  1:3:10:73:13 (`LABEL_WEIGHTS`), so answering 4 every time scores about 73%;
- a fictional product (name, category, price, one-sentence description) from the bank's pool;
- `REVIEWS` = 8 reviewers. Each is independently a positive shill with probability
  `POSITIVE_SHILL` = 0.10, a negative shill with probability `NEGATIVE_SHILL` = 0.07, and a
  normal user otherwise; a draw with fewer than `MIN_NORMAL` = 5 normal users is drawn again
  (so at most 3 shills; about 1.3 on average). A positive shill's review implies 5 stars and
  is gushing and promotional; a negative shill's implies 1 star and is hostile (attacks the
  brand, urges everyone to stay away). A normal user's review implies
  round(N(true, SIGMA)) clipped to 1..5, with `SIGMA` = 0.8: for a true 4, about 47% of normal
  users write a 4-star review, 27% a 5, 23% a 3 and 3% a 2 (mean absolute gap about 0.6).
- Each review is one sentence from the bank of its implied level (or its shill bank), its slots
  filled with the product's name, noun, category and two different aspects of its category,
  and for normal users with probability `CLOSER` = 0.35 a short second sentence of the same
  level. Within an instance a template is not repeated while its bank has unused ones.

No review states a star count or a number score (the bank holds no digits and no "star").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Formatter
from typing import Any

FORMAT = "parlor.rating-estimation/1"
SOURCE = "synthetic (parlor generator)"
LABEL_WEIGHTS = {1: 1, 2: 3, 3: 10, 4: 73, 5: 13}
REVIEWS = 8
SIGMA = 0.8
POSITIVE_SHILL = 0.10
NEGATIVE_SHILL = 0.07
MIN_NORMAL = 5
CLOSER = 0.35
ROLES = ("normal", "positive_shill", "negative_shill")
SLOTS = frozenset({"product", "noun", "kind", "category", "aspect", "aspect2"})
BANK_FILE = "reviews.txt"


@dataclass(frozen=True)
class Product:
    name: str
    noun: str
    price: str
    description: str
    category: str
    kind: str
    aspects: tuple[str, ...]


@dataclass(frozen=True)
class Bank:
    products: tuple[Product, ...]
    levels: dict[int, tuple[str, ...]]  # implied rating -> normal users' templates
    closers: dict[int, tuple[str, ...]]  # implied rating -> optional second sentences
    shills: dict[str, tuple[str, ...]]  # "positive" | "negative" -> templates


def slots_of(template: str) -> set[str]:
    """The slot names a template uses."""
    return {name for _, name, _, _ in Formatter().parse(template) if name is not None}


def parse_bank(text: str) -> Bank:
    """Read the bank's text (format in reviews.txt's header); ValueError on a malformed line."""
    products: list[Product] = []
    lists: dict[tuple[str, str], list[str]] = {}
    category: dict[str, Any] | None = None
    section: tuple[str, str] | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            head, _, arg = line[1:].partition(" ")
            arg = arg.strip()
            category, section = None, None
            if head == "category" and arg:
                category = {"name": arg, "kind": "", "aspects": ()}
            elif head in ("level", "closers") and arg in {"1", "2", "3", "4", "5"}:
                section = (head, arg)
            elif head == "shill" and arg in ("positive", "negative"):
                section = (head, arg)
            else:
                raise ValueError(f"{BANK_FILE} line {n}: unknown section {line!r}")
            if section is not None:
                lists.setdefault(section, [])
            continue
        if category is not None:
            key, sep, value = line.partition(":")
            if sep and key in ("kind", "aspects"):
                if key == "kind":
                    category["kind"] = value.strip()
                else:
                    category["aspects"] = tuple(a.strip() for a in value.split(";") if a.strip())
                continue
            fields = [f.strip() for f in line.split("|")]
            if len(fields) != 4 or not all(fields):
                raise ValueError(f"{BANK_FILE} line {n}: expected 'name | noun | price | description'")
            if not category["kind"] or len(category["aspects"]) < 2:
                raise ValueError(f"{BANK_FILE} line {n}: category needs 'kind:' and two 'aspects:'")
            products.append(Product(*fields, category["name"], category["kind"], category["aspects"]))
            continue
        if section is None:
            raise ValueError(f"{BANK_FILE} line {n}: text outside any section")
        unknown = slots_of(line) - SLOTS
        if unknown:
            raise ValueError(f"{BANK_FILE} line {n}: unknown slots {sorted(unknown)}")
        lists[section].append(line)
    levels = {r: tuple(lists.get(("level", str(r)), ())) for r in range(1, 6)}
    closers = {r: tuple(lists.get(("closers", str(r)), ())) for r in range(1, 6)}
    shills = {s: tuple(lists.get(("shill", s), ())) for s in ("positive", "negative")}
    if not products or not all(levels.values()) or not all(shills.values()):
        raise ValueError(f"{BANK_FILE}: needs products, every level 1..5 and both shill banks")
    return Bank(tuple(products), levels, closers, shills)


@cache
def bank() -> Bank:
    """The shipped bank (read once)."""
    return parse_bank(resources.files(__package__).joinpath(BANK_FILE).read_text("utf-8"))


def draw_label(rng: random.Random) -> int:
    """A true rating with the paper's label distribution."""
    return rng.choices(list(LABEL_WEIGHTS), weights=list(LABEL_WEIGHTS.values()))[0]


def draw_roles(rng: random.Random) -> list[str]:
    """Each reviewer's role, independently, redrawn until at least MIN_NORMAL are normal."""
    while True:
        roles = []
        for _ in range(REVIEWS):
            u = rng.random()
            roles.append("positive_shill" if u < POSITIVE_SHILL
                         else "negative_shill" if u < POSITIVE_SHILL + NEGATIVE_SHILL
                         else "normal")
        if roles.count("normal") >= MIN_NORMAL:
            return roles


def implied_rating(rng: random.Random, role: str, true: int) -> int:
    if role == "positive_shill":
        return 5
    if role == "negative_shill":
        return 1
    return max(1, min(5, round(rng.normalvariate(true, SIGMA))))


def _pick(rng: random.Random, options: tuple[str, ...], used: set[str]) -> str:
    fresh = [o for o in options if o not in used]
    choice = rng.choice(fresh or list(options))
    used.add(choice)
    return choice


def write_review(rng: random.Random, product: Product, role: str, implied: int,
                 used: set[str]) -> str:
    """One review text of `role` implying `implied` stars about `product`."""
    b = bank()
    if role == "normal":
        template = _pick(rng, b.levels[implied], used)
    else:
        template = _pick(rng, b.shills["positive" if role == "positive_shill" else "negative"], used)
    aspect, aspect2 = rng.sample(product.aspects, 2)
    text = template.format(product=product.name, noun=product.noun, kind=product.kind,
                           category=product.category, aspect=aspect, aspect2=aspect2)
    if role == "normal" and b.closers[implied] and rng.random() < CLOSER:
        text = f"{text} {_pick(rng, b.closers[implied], used)}"
    return text


def generate(seed: int) -> dict[str, Any]:
    """One synthetic instance, a pure function of `seed`, in our JSONL record format."""
    rng = random.Random(seed)
    answer = draw_label(rng)
    product = rng.choice(bank().products)
    roles = draw_roles(rng)
    implied = [implied_rating(rng, role, answer) for role in roles]
    used: set[str] = set()
    reviews = [write_review(rng, product, role, r, used) for role, r in zip(roles, implied, strict=True)]
    return {
        "format": FORMAT,
        "id": f"synthetic-rating-{seed}",
        "seed": seed,
        "source": SOURCE,
        "synthetic": True,
        "product": {"name": product.name, "category": product.category,
                    "price": product.price, "description": product.description},
        "reviews": reviews,
        "answer": answer,
        "reviewers": [{"role": role, "implied": r} for role, r in zip(roles, implied, strict=True)],
    }


def sample(count: int, first_seed: int = 0) -> list[dict[str, Any]]:
    """`count` instances, seeds first_seed .. first_seed + count - 1."""
    return [generate(seed) for seed in range(first_seed, first_seed + count)]
