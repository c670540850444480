"""What a player of a dataset task reads: a seat's view as text (bots' prompts, the generic
widget) and each event for the log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.describe import Naming, describe_generic


def _answer(values: Mapping[str, Any] | None) -> str:
    given = [str(v) for v in (values or {}).values() if v is not None]
    return ", ".join(given) if given else "no readable answer"


def evidence_lines(stage: Mapping[str, Any]) -> list[str]:
    return [f"{stage['title']}:", *(f"{label}: {text}" for label, text in stage["items"])]


def render(view: Mapping[str, Any]) -> str:
    """The task, where the instance comes from, the evidence shown so far stage by stage, the
    seat's answers so far, the question, and the result once the game is over."""
    pub = view["public"]
    lines = [f"{pub['task']}." + (f" Source: {pub['source']}." if pub.get("source") else "")]
    if pub.get("intro"):
        lines.append(pub["intro"])
    for stage in pub["evidence"]:
        lines += evidence_lines(stage)
    for a in (view.get("private") or {}).get("my_answers") or ():
        lines.append(f"Your answer after stage {a['stage']}: {_answer(a['answer'])}.")
    if pub.get("over"):
        lines.append(f"Game over: {pub['result']['reason']}.")
    else:
        stages = pub["stages"]
        when = f"Stage {pub['stage']} of {stages}. " if stages > 1 else ""
        lines.append(f"{when}Question: {pub['question']}")
    return "\n".join(lines)


def describe_event(type_: str, data: Mapping[str, Any], naming: Naming) -> str:
    if type_ == "instance":
        made = " (a synthetic instance)" if data.get("synthetic") else ""
        return f"{data['intro'] or 'A new instance'}{made} Question: {data['question']}"
    if type_ == "evidence":
        shown = " ".join(f"{label}: {text}" for label, text in data["items"])
        return f"Stage {data['stage']} of {data['of']}, {data['title']}: {shown}"
    if type_ == "answer_scored":
        return (f"Answer after stage {data['stage']}: {_answer(data['answer'])}, "
                f"{'right' if data['right'] else 'wrong'}.")
    if type_ == "scores":
        stages = "; ".join(f"stage {s['stage']} {'✓' if s['right'] else '✗'} "
                           f"({_answer(s['answer'])})" for s in data["stages"])
        return f"Scores: {stages}. The answer: {_answer(data['expected'])}."
    return describe_generic(type_, data, naming)
