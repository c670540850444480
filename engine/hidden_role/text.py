"""Hidden Role Deduction in words: a seat's view as text (bots' prompts, the generic widget,
the dataset export) and each event for the log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.describe import Naming, describe_generic


def statement(speaker: int, target: int, claim: bool) -> str:
    return f"Player {speaker} says Player {target} {'is' if claim else 'is not'} the criminal."


def render(view: Mapping[str, Any]) -> str:
    pub = view["public"]
    lines = [f"Hidden Role Deduction: {pub['players']} players ({pub['composition_text']}). "
             f"You are Player 1 and you have been told you are the {pub['told']}.",
             f"Round {pub['round']} of {pub['rounds']}."]
    for t in range(1, pub["round"] + 1):  # one statement a line: a table to read down
        lines.append(f"Round {t}:")
        lines += [f"  {statement(v, u, c)}" for r, v, u, c in pub["statements"] if r == t]
    mine = (view.get("private") or {}).get("my_answers") or ()
    for a in mine:
        who = f"Player {a['criminal']}" if a["criminal"] else "nobody named"
        lines.append(f"Your answer after round {a['round']}: {who}; your role "
                     f"{a['role'] or 'not given'}.")
    if pub.get("over"):
        lines.append(f"Game over: {pub['result']['reason']}.")
    return "\n".join(lines)


def describe_event(type_: str, data: Mapping[str, Any], naming: Naming) -> str:
    if type_ == "statements":
        said = " ".join(statement(v, u, c) for v, u, c in data["statements"])
        return f"Round {data['round']}: {said}"
    if type_ == "answer_scored":
        return (f"Answer after round {data['round']}: criminal "
                f"{'right' if data['crim'] else 'wrong'}, own role "
                f"{'right' if data['self'] else 'wrong'}.")
    if type_ == "scores":
        return "Scores by round: " + "; ".join(
            f"round {r['round']}: criminal {'✓' if r['crim'] else '✗'}, role "
            f"{'✓' if r['self'] else '✗'}" for r in data["rounds"])
    return describe_generic(type_, data, naming)
