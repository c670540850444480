"""Review Decision Prediction baselines: `scripted:majority` (always Reject, the majority class)
and `scripted:heuristic`, a small sentiment lexicon over the reviewers' words.

`predict_decision(stage, paper, reviews, discussion)` reads the texts alone, word by word (it
uses no knowledge of how any instance was written), and answers "Accept" or "Reject":

- Stage 1 (title, keywords, abstract): "Reject", the majority class. A paper's own description
  says nothing reliable about how it will be received.
- Stage 2 (+ reviews): each review's sentences are scored with a lexicon of praise and
  criticism words. Summary sections and questions are skipped; suggestions (sentences with
  would/could/should) are skipped; a negation word shortly before a word in the same clause
  flips it ("not supported", "without new evidence"); softeners ("minor", "a few",
  "slightly") halve the criticism in their clause; faint praise ("readable", "relevant")
  counts half; after "but" or "however" only the last part counts. A review leans (praise -
  criticism) / (praise + criticism) over its sentences, in -1..1, and the paper's signal is the
  reviews' mean.
  Because most papers are rejected, "Accept" needs a clearly positive signal (`THRESHOLD`).
- Stage 3 (+ discussion): each reviewer's last follow-up ("Reviewer 2: ...") has a stance,
  +1 or -1 by the same lexicon, and the mean stance, times `FOLLOW_UP_WEIGHT`, is added to the
  reviews' signal: about as much as one more review, enough to settle a split paper but not to
  overturn clear reviews on one remark. In a follow-up, criticism words in a clause with a
  resolving verb ("addresses my concerns") do not count as criticism. The authors' entries,
  the rebuttal included, are ignored: they are polite and confident whatever the outcome, and
  reading them as evidence is how a reader gets swayed by a well-argued rebuttal.

`THRESHOLD` and `FOLLOW_UP_WEIGHT` are round values chosen on synthetic seeds 10000-11999
(the tests use seeds below 10000).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bots.registry import register_scripted
from bots.scripted.dataset_task import AnswerBot, items, majority

ENV = "review-decision"

THRESHOLD = 0.15
FOLLOW_UP_WEIGHT = 0.25
NEGATION_WINDOW = 6

_POSITIVE = frozenset("""
clear clearly novel new original thorough convincing convinced sound strong strongly
consistent consistently useful principled practical important careful carefully elegant
solid interesting compelling insightful impressive valuable effective rigorous honest enjoyed
enjoy pleasure favourable favourably favorable favorably positive happy significant excellent
good nice well supported justified justify justifies ready meaningful fair helpful
strengthens strengthened satisfied satisfactorily welcome
""".split())
_FAINT_POSITIVE = frozenset("""
readable relevant reasonable worthwhile effort nicely decent acceptable fine
""".split())
_NEGATIVE = frozenset("""
limited weak weakly weakness weaknesses missing lacks lack lacking unclear confusing confused
marginal incremental unsupported overstates overstated overclaims overclaiming insufficient
expensive costly fails fail failure doubt doubts doubtful concern concerns concerned problem
problems problematic questionable unconvincing unconvinced unrealistic narrow flawed unfair
unaddressed unchanged serious reservations objection objections issue issues typos heavy
misleading trivial torn mixed confusion errors vague unlikely
""".split())
_RESOLVING = frozenset("""
address addresses addressed addressing resolve resolves resolved resolving answer answers
answered settle settles settled alleviate alleviates alleviated clarify clarifies clarified
""".split())
_NEGATORS = frozenset("not no never without nor cannot can't don't doesn't isn't aren't".split())
_SOFTENERS = frozenset("minor slightly little few somewhat small".split())
_MODALS = frozenset("would could should".split())
_CONTRAST = re.compile(r"\b(?:but|however)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_CLAUSE = re.compile(r"[,;:()]")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_LABEL = re.compile(r"^\s*([A-Za-z][A-Za-z ]{0,30}):\s*")
_REVIEWER = re.compile(r"^\s*Reviewer\s+(\d+)\s*:\s*(.*)$", re.DOTALL)


def _clause_score(clause: str, follow_up: bool) -> float:
    """Praise minus criticism in one clause; criticism in a softened clause counts half."""
    words = _WORD.findall(clause.lower())
    resolving = follow_up and any(w in _RESOLVING for w in words)
    score = 0.0
    for i, word in enumerate(words):
        if word in _POSITIVE or (follow_up and word in _RESOLVING):
            value = 1.0
        elif word in _FAINT_POSITIVE:
            value = 0.5
        elif word in _NEGATIVE:
            if resolving:
                continue
            value = -1.0
        else:
            continue
        if any(w in _NEGATORS for w in words[max(0, i - NEGATION_WINDOW):i]):
            value = -value
        score += value
    if score < 0 and any(w in _SOFTENERS for w in words):
        score /= 2
    return score


def _sentence_score(sentence: str, follow_up: bool = False) -> float:
    """A sentence's polarity: +1 praise, +0.5 faint praise, -0.5 mild criticism, -1 criticism,
    0 when neutral."""
    parts = _CONTRAST.split(sentence)
    text = parts[-1] if len(parts) > 1 and parts[-1].strip() else sentence
    total = sum(_clause_score(clause, follow_up) for clause in _CLAUSE.split(text))
    if total == 0:
        return 0.0
    return max(-1.0, min(1.0, total))


def _sentences(text: str) -> list[str]:
    """Sentences to score: questions, suggestions and summary sections left out."""
    out: list[str] = []
    section = ""
    for raw in _SENTENCE.split(text):
        sentence = raw.strip()
        label = _LABEL.match(sentence)
        if label:
            section = label.group(1).strip().lower()
            sentence = sentence[label.end():]
        if not sentence or section in ("summary", "questions") or sentence.endswith("?"):
            continue
        if any(w in _MODALS for w in _WORD.findall(sentence.lower())):
            continue
        out.append(sentence)
    return out


def _lean(text: str, follow_up: bool = False) -> float | None:
    """(praise - criticism) / scored sentences, in -1..1; None when nothing is scored."""
    scores = [_sentence_score(s, follow_up) for s in _sentences(text)]
    positive = sum(s for s in scores if s > 0)
    negative = -sum(s for s in scores if s < 0)
    if positive + negative == 0:
        return None
    return (positive - negative) / (positive + negative)


def _follow_ups(discussion: Sequence[str]) -> dict[int, float]:
    """Each reviewer's last follow-up stance (+1 or -1), by reviewer number; authors skipped."""
    stances: dict[int, float] = {}
    for entry in discussion:
        match = _REVIEWER.match(entry)
        if not match:
            continue
        lean = _lean(match.group(2), follow_up=True)
        if lean:
            stances[int(match.group(1))] = 1.0 if lean > 0 else -1.0
    return stances


def _signal(reviews: Sequence[str], stances: Mapping[int, float]) -> float:
    """The reviews' mean lean, moved by `FOLLOW_UP_WEIGHT` times the follow-ups' mean stance."""
    leans = [lean for lean in map(_lean, reviews) if lean is not None]
    signal = sum(leans) / len(leans) if leans else 0.0
    if stances:
        signal += FOLLOW_UP_WEIGHT * sum(stances.values()) / len(stances)
    return signal


def predict_decision(stage: int, paper: Mapping[str, Any], reviews: Sequence[str],
                     discussion: Sequence[str]) -> str:
    """'Accept' or 'Reject' from what is visible at `stage` (1, 2 or 3)."""
    if stage <= 1:
        return "Reject"
    stances = _follow_ups(discussion) if stage >= 3 else {}
    return "Accept" if _signal(reviews, stances) > THRESHOLD else "Reject"


def _heuristic(public: Mapping[str, Any]) -> dict[str, str]:
    stage = public["stage"]
    paper = {label.lower(): text for label, text in items(public, 1)}
    reviews = [text for _, text in items(public, 2)] if stage >= 2 else []
    # the discussion as written: "Reviewer 2: ..." (the game shows the speaker as a label)
    discussion = [f"{label}: {text}" for label, text in items(public, 3)] if stage >= 3 else []
    return {"decision": predict_decision(stage, paper, reviews, discussion)}


register_scripted(ENV, "heuristic", "praise against criticism in the reviews, then the "
                                    "reviewers' follow-ups; Reject before the reviews")(
    lambda seed: AnswerBot(_heuristic))
register_scripted(ENV, "majority", "always Reject, the majority class (67% in the paper's "
                                   "data), blind to the paper")(majority({"decision": "Reject"}))
