"""Rating Estimation baselines: `scripted:majority` (always 4, blind to the reviews) and
`scripted:heuristic`, which reads only the review texts (never the product's true rating, the
reviewers' roles or the synthetic generator's banks):

`estimate_rating(reviews)` reads each review with a small general-purpose sentiment lexicon
written for this module: positive and negative words weighted by strength; an intensifier such
as "very" strengthens the next sentiment word and a softener such as "slightly" weakens it; a
negation ("not", "never", ...) within three words before a sentiment word turns it over at
reduced strength ("not perfect" is a mild complaint), and so does a wish ("could", "wanted",
...) before a positive word ("could be better"); the clause after the last "but"/"though"/
"although"/"however" counts more than those before it. The positive and negative mass give an
implied rating: unreserved strong praise 5, praise outweighing complaint 4, a balance or hardly
any sentiment 3, complaint clearly outweighing praise 2, unreserved strong condemnation 1.

A review is a likely shill when it implies 1 or 5 and reads like an advertisement or a tirade
(exclamation marks, shouted words, a word said twice in a row, the vocabulary of sales pitches
and campaigns: buy, order, everyone, brand, company, scam, ...). Likely shills are dropped
(unless fewer than three reviews would be left) and the mean of the rest is rounded half up.
(Trimming the extremes as well, or taking the median, did worse on our synthetic sample: the
normal users' spread around the true rating is symmetric, so the mean of their reviews is the
better estimate once the shills are out.) With no review at all it answers 4, the majority
class of the benchmark's labels.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from bots.registry import register_scripted
from bots.scripted.dataset_task import AnswerBot, items, majority

ENV = "rating-estimation"

_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?(?:-[a-z]+)*|[!?]")
_FALLBACK = 4

_POSITIVE = {
    # strong praise
    "love": 3, "loved": 3, "loves": 3, "adore": 3, "excellent": 3, "outstanding": 3,
    "superb": 3, "perfect": 3, "perfectly": 3, "perfection": 3, "flawless": 3, "flawlessly": 3,
    "fantastic": 3, "amazing": 3, "amazed": 3, "wonderful": 3, "brilliant": 3, "exceptional": 3,
    "delighted": 3, "best": 2.5, "incredible": 3, "masterpiece": 3, "thrilled": 3, "superior": 2.5,
    "stunning": 3, "spectacular": 3, "gem": 3, "beautifully": 2.5, "premium": 2, "exceeded": 3,
    "joy": 3, "lovely": 2.5, "happily": 2, "awesome": 3, "impressive": 2.5, "magnificent": 3,
    "top-notch": 3, "notch": 1.5, "unbeatable": 3, "miracle": 3, "greatest": 3, "wow": 2.5,
    "obsessed": 2, "must-have": 2.5, "terrific": 3, "favourite": 2.5,
    # plain approval
    "great": 2, "good": 1.5, "nice": 1.5, "solid": 1.5, "reliable": 1.5, "dependable": 1.5,
    "happy": 1.5, "pleased": 1.5, "glad": 1.5, "like": 1, "likes": 1, "enjoy": 1.5,
    "sturdy": 1.5, "recommend": 1.5, "recommended": 1.5, "impressed": 2, "comfortable": 1.5,
    "pleasant": 1.5, "worth": 1.5, "well": 1, "works": 0.7, "better": 1, "value": 0.5,
    "quality": 0.3, "useful": 1.5, "handy": 1.5, "smooth": 1, "quiet": 0.5, "easy": 1,
    # lukewarm approval
    "decent": 0.7, "fine": 0.6, "okay": 0.4, "ok": 0.4, "acceptable": 0.4, "adequate": 0.3,
    "serviceable": 0.3, "usable": 0.3,
}
_NEGATIVE = {
    # strong condemnation
    "terrible": 3, "terribly": 2.5, "awful": 3, "horrible": 3, "useless": 3, "worst": 3, "junk": 3,
    "rubbish": 3, "garbage": 3, "trash": 3, "broken": 2.5, "broke": 2.5, "defective": 3,
    "faulty": 3, "dreadful": 3, "appalling": 3, "waste": 2.5, "scam": 3, "fraud": 3,
    "frauds": 3, "avoid": 2.5, "hate": 3, "dangerous": 2.5, "damaged": 2, "failed": 2.5,
    "failure": 2.5, "unusable": 3, "disaster": 3, "pathetic": 3, "ripoff": 3, "disgusting": 3,
    "disgraceful": 3, "cracked": 2, "returned": 1.5, "returning": 1.5, "refund": 2,
    "thieves": 3, "liars": 3, "crooks": 3, "bin": 1.5,
    # plain complaint
    "bad": 2, "poor": 2, "poorly": 2, "disappointing": 2, "disappointed": 2,
    "disappointment": 2, "disappoints": 2, "disappoint": 2, "letdown": 2, "flimsy": 2, "frustrating": 2, "unreliable": 2,
    "regret": 2, "unhappy": 2, "weak": 1.5, "weakness": 1.5, "problems": 1.5, "problem": 1.5,
    "overpriced": 1.5, "cheap": 1, "cheaply": 1.5, "clumsy": 1.5, "awkward": 1, "annoying": 1.5,
    "annoyance": 1.5, "annoyances": 1, "underwhelming": 1.5, "mediocre": 1.2, "lacking": 1.2,
    "worse": 2, "fiddly": 0.5, "wear": 0.5, "stopped": 1.5, "issue": 1, "issues": 1,
    # lukewarm complaint
    "average": 0.6, "meh": 1, "so-so": 0.8, "ordinary": 0.6, "plain": 0.4, "inconsistent": 1,
    "barely": 1, "flaws": 0.8, "flaw": 0.8, "gripe": 0.5, "quirk": 0.3, "caveats": 0.3,
    "unsure": 0.3, "mixed": 1,
}
_INTENSIFIERS = {"very": 1.5, "really": 1.4, "extremely": 1.8, "absolutely": 1.6,
                 "completely": 1.6, "totally": 1.6, "truly": 1.4, "so": 1.3, "incredibly": 1.7,
                 "highly": 1.5, "deeply": 1.6, "super": 1.5, "utterly": 1.8, "downright": 1.6,
                 "genuinely": 1.3, "simply": 1.2, "total": 1.5, "complete": 1.5, "pure": 1.5}
_SOFTENERS = {"slightly": 0.5, "bit": 0.5, "little": 0.6, "somewhat": 0.6, "fairly": 0.7,
              "pretty": 0.8, "merely": 0.5, "mostly": 0.8, "rather": 0.7, "just": 0.8,
              "only": 0.7, "kind": 0.6, "sort": 0.6, "less": 0.4,
              "small": 0.6, "minor": 0.5, "occasional": 0.7}
_NEGATIONS = {"not", "no", "never", "nothing", "hardly", "neither", "nor", "without", "don't",
              "doesn't", "didn't", "isn't", "wasn't", "won't", "wouldn't", "can't", "cannot",
              "couldn't", "aren't"}
_CONTRASTS = {"but", "though", "although", "however", "yet", "except"}
_WISHES = {"could", "should", "wish", "wished", "expected", "hoped", "wanted"}
_REACH = 3  # a negation or a wish reaches this many words ahead
_NEGATED_CAP = 1.5  # "not perfect" is a mild complaint, not a strong one
_NEGATED_SHARE = 0.6
_AFTER_CONTRAST = 1.2
_BEFORE_CONTRAST = 0.8

# Words of advertisements and tirades (not of sentiment): a likely shill's vocabulary.
_SHILL_WORDS = {"buy", "order", "cart", "everyone", "everybody", "friends", "followers",
                "deal", "must", "must-have", "brand", "company", "companies", "seller",
                "sellers", "makers", "competitor", "competitor's", "boycott", "scam", "fraud",
                "frauds", "fake", "reporting", "banned", "hype", "trust", "obsessed", "ever",
                "history", "planet", "market", "life", "immediately", "today", "now",
                "thieves", "liars", "crooks", "shady", "stay", "away", "get", "yours", "grab",
                "household", "everyone's", "sells"}

# Polarity -> implied rating (see `_implied`).
_WEAK = 1.0  # less sentiment than this in all reads as neutral
_STRONG = 2.5  # the strongest word must reach this for a 5 (or a 1)
_UNRESERVED = 0.8  # balance (pos - neg) / (pos + neg) at least this for a 5 (at most minus it for a 1)
_PRAISE = 0.5  # balance at least this, and praise of at least _PLAIN, for a 4
_PLAIN = 1.5
_COMPLAINT = -0.6  # balance at most this for a 2 (complaints weigh more in mixed reviews)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower().replace("\u2019", "'"))


def _polarity(text: str) -> tuple[float, float, float, float]:
    """(positive mass, negative mass, strongest positive word, strongest negative word) of one
    review, after intensifiers, softeners, negations, wishes and contrast."""
    words = _tokens(text)
    clauses: list[list[float]] = [[]]
    scale = 1.0
    last_negation = last_wish = -10
    for i, word in enumerate(words):
        if word in _CONTRASTS:
            clauses.append([])
            continue
        if word in _NEGATIONS:
            last_negation = i
            continue
        if word in _WISHES:
            last_wish = i
            continue
        if word in _INTENSIFIERS:
            scale *= _INTENSIFIERS[word]
            continue
        if word in _SOFTENERS:
            scale *= _SOFTENERS[word]
            continue
        weight = _POSITIVE.get(word, 0.0) - _NEGATIVE.get(word, 0.0)
        if not weight:
            continue
        weight *= scale
        scale = 1.0
        negated = i - last_negation <= _REACH
        if weight > 0 and i - last_wish <= _REACH:
            negated = not negated
        if negated:
            weight = -math.copysign(min(abs(weight), _NEGATED_CAP), weight) * _NEGATED_SHARE
        clauses[-1].append(weight)
    if len(clauses) > 1:
        clauses = [[w * _BEFORE_CONTRAST for w in c] for c in clauses[:-1]] + [
            [w * _AFTER_CONTRAST for w in clauses[-1]]]
    weights = [w for c in clauses for w in c]
    positive = [w for w in weights if w > 0]
    negative = [-w for w in weights if w < 0]
    return sum(positive), sum(negative), max(positive, default=0.0), max(negative, default=0.0)


def _implied(text: str) -> int:
    """The rating 1..5 a review's text implies: unreserved strong praise 5, praise that
    outweighs complaint 4, a balance (or almost no sentiment) 3, complaint that outweighs praise
    2, unreserved strong condemnation 1."""
    pos, neg, top_pos, top_neg = _polarity(text)
    if pos + neg < _WEAK:
        return 3
    balance = (pos - neg) / (pos + neg)
    if balance >= _UNRESERVED and top_pos >= _STRONG:
        return 5
    if balance <= -_UNRESERVED and top_neg >= _STRONG:
        return 1
    if balance >= _PRAISE and pos >= _PLAIN:
        return 4
    if balance <= _COMPLAINT:
        return 2
    return 3


def _shill_like(text: str) -> bool:
    """True when the review reads like an advertisement or a tirade: exclamation marks,
    shouted words, a word said again at once, and the vocabulary of sales pitches and
    campaigns add up to three or more."""
    words = _tokens(text)
    marks = words.count("!")
    shouted = len(re.findall(r"\b[A-Z]{3,}\b", text))
    plain = [w for w in words if w not in ("!", "?")]
    repeats = sum(1 for a, b in zip(plain, plain[1:], strict=False) if a == b)
    promo = sum(1 for w in plain if w in _SHILL_WORDS)
    return marks + shouted + repeats + promo >= 3


def estimate_rating(reviews: Sequence[str]) -> int:
    """The product's likely true rating 1..5 from its reviews' texts alone."""
    if not reviews:
        return _FALLBACK
    scored = [(_implied(text), _shill_like(text)) for text in reviews]
    kept = [r for r, shill in scored if not (shill and r in (1, 5))]
    if len(kept) < 3:
        kept = [r for r, _ in scored]
    mean = sum(kept) / len(kept)
    return max(1, min(5, math.floor(mean + 0.5)))


def _heuristic(public: Mapping[str, Any]) -> dict[str, str]:
    return {"rating": str(estimate_rating([text for _, text in items(public)]))}


register_scripted(ENV, "heuristic", "a sentiment lexicon per review, likely shills dropped, "
                                    "the mean of the rest")(lambda seed: AnswerBot(_heuristic))
register_scripted(ENV, "majority", "always 4, the majority class of the paper's labels "
                                   "(1:3:10:73:13), blind to the reviews")(
    majority({"rating": "4"}))
