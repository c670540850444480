"""Review Decision Prediction (SocialMaze §7, Appendix G): a conference submission's review
process in three stages — the paper's title, keywords and abstract; the reviews with every score
removed; the authors' rebuttal and the discussion after it — and a prediction of the decision,
Accept or Reject, after each. Our record and the authors' release format are read here
(docs/rules/review-decision.md documents both)."""

from __future__ import annotations

import re
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

FORMAT = "parlor.review-decision/1"
DECISION = AnswerField("decision", "Final Decision", ("Accept", "Reject"))
QUESTION = ("Will this paper be accepted or rejected at a highly selective, top-tier "
            "conference? Answer Accept or Reject.")
RULES = """\
You follow one submission to a highly selective, top-tier conference through its review, and \
predict the final decision: Accept or Reject. Weigh the paper's strengths, weaknesses, novelty, \
significance and clarity; how serious the reviewers' concerns are; and whether the authors' \
response actually answers them. The reviews come without their scores or recommendations."""
STAGES = ("Paper information", "Reviews (scores removed)", "Rebuttal and discussion")
_SPEAKER = re.compile(r"^\s*((?:Reviewer|Author|Authors|Area chair|AC|Meta-reviewer)"
                      r"[^:\n]{0,20}):\s*", re.IGNORECASE)


def _paper(value: Any) -> tuple[Item, ...]:
    if not isinstance(value, dict):
        raise FieldError("paper", "expected an object with title, keywords and abstract")
    title = text(get(value, "title", "paper"), "paper.title")
    keywords = value.get("keywords") or []
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise FieldError("paper.keywords", "expected a list of strings")
    abstract = text(get(value, "abstract", "paper"), "paper.abstract")
    shown = [Item("Title", title)]
    if keywords:
        shown.append(Item("Keywords", ", ".join(keywords)))
    return (*shown, Item("Abstract", abstract))


def _spoken(entries: tuple[str, ...], first: str) -> tuple[Item, ...]:
    """Discussion entries labelled by their speaker ("Reviewer 2: ..." keeps its prefix as the
    label); an unlabelled first entry is the authors' response."""
    found = []
    for i, entry in enumerate(entries):
        match = _SPEAKER.match(entry)
        if match:
            found.append(Item(match.group(1).strip(), entry[match.end():].strip() or entry))
        else:
            found.append(Item(first if i == 0 else f"Discussion {i + 1}", entry))
    return tuple(found)


def from_record(record: Mapping[str, Any]) -> Instance:
    check_format(record, FORMAT)
    paper = _paper(get(record, "paper"))
    reviews = texts(get(record, "reviews"), "reviews")
    discussion = texts(get(record, "discussion"), "discussion")
    answer = option(DECISION, get(record, "answer"), "answer")
    text(record.get("answer_label", answer), "answer_label")
    stages = (Stage(STAGES[0], paper),
              Stage(STAGES[1], tuple(Item(f"Reviewer {i}", r) for i, r in enumerate(reviews, 1))),
              Stage(STAGES[2], _spoken(discussion, "Authors")))
    return Instance(
        task="review-decision", id=ident(record), kind="", intro="", question=QUESTION,
        stages=stages, answer={"decision": answer}, record=dict(record),
        **provenance(record))


_FIELD = re.compile(r"^\s*(Title|Keywords|Abstract)\s*:\s*", re.IGNORECASE | re.MULTILINE)


def _paper_from_text(value: str) -> dict[str, Any]:
    """The release's first round ("Title: ...\\nKeywords: ...\\nAbstract: ...") as our paper;
    text without those labels becomes the abstract of an untitled paper."""
    parts: dict[str, str] = {}
    marks = list(_FIELD.finditer(value))
    for mark, after in zip(marks, [*marks[1:], None], strict=True):
        parts[mark.group(1).lower()] = value[mark.end():after.start() if after else None].strip()
    keywords = [k.strip() for k in re.split(r"[,;]", parts.get("keywords", "")) if k.strip()]
    return {"title": parts.get("title") or "(untitled)", "keywords": keywords,
            "abstract": parts.get("abstract") or value.strip()}


def _reviews_from_text(value: str) -> list[str]:
    """The release's second round, one review per "Reviewer N:" block (the whole text as one
    review when it names none)."""
    blocks = re.split(r"\n(?=\s*Reviewer\s*\S*\s*:)", value.strip())
    return [re.sub(r"^\s*Reviewer\s*\S*\s*:\s*", "", b).strip() or b for b in blocks if b.strip()]


_DECISION = re.compile(r"\s*(accept|reject)(?![a-z])", re.IGNORECASE)


def decision(value: Any) -> dict[str, str]:
    """The release's decision as our `answer` ("Accept (Poster)", "Accept: poster", "accept
    (oral)" are Accept), and as written (`answer_label`) when that says more."""
    found = _DECISION.match(value) if isinstance(value, str) else None
    if found is None:
        return {"answer": option(DECISION, value, "decision")}
    answer = found.group(1).capitalize()
    label = " ".join(value.split())
    return {"answer": answer, **({"answer_label": label} if label.lower() != answer.lower() else {})}


def _from_official(item: Any) -> dict[str, Any]:
    """One item of the release (`id`, `decision`, `statements` as `[{"round1": ...},
    {"round2": ...}, {"round3": ...}]`, optionally `source`) as our record."""
    statements = get(item, "statements")
    rounds: dict[str, Any] = {}
    if isinstance(statements, list):
        for entry in statements:
            if isinstance(entry, dict):
                rounds.update(entry)
    elif isinstance(statements, dict):
        rounds = statements
    for n in (1, 2, 3):
        text(rounds.get(f"round{n}"), f"statements.round{n}")
    return {"format": FORMAT, "id": ident(item), **release_provenance(item),
            "paper": _paper_from_text(rounds["round1"]),
            "reviews": _reviews_from_text(rounds["round2"]),
            "discussion": [rounds["round3"].strip()],
            **decision(get(item, "decision"))}


def read_official(data: bytes, name: str) -> Loaded:
    return read_json_list(TASK, data, name, _from_official, "id")


def generate(seed: int, config: Any) -> dict[str, Any]:
    from engine.review_decision.synthetic import generate as synthetic

    return synthetic(seed)


def explain(instance: Instance) -> str | None:
    notes = instance.record.get("notes")
    if not isinstance(notes, dict) or not instance.synthetic:
        return None
    leanings = notes.get("review_leanings") or []
    said = ", ".join(f"reviewer {i} {lean}" for i, lean in enumerate(leanings, 1))
    rebuttal = notes.get("rebuttal")
    return (f"This synthetic paper was {instance.answer['decision'].lower()}ed"
            + (f"; the reviews leaned: {said}" if said else "")
            + (f"; the rebuttal was {rebuttal}" if rebuttal else "") + ".")


TASK = DatasetTask(
    id="review-decision", title="Review Decision Prediction", format=FORMAT,
    fields=(DECISION,), syntax="Final Decision: Reject", rules=RULES, from_record=from_record,
    read_official=read_official, generate=generate, explain=explain)
