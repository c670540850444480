"""What a player reads: the rules in our words and the prompt for one query of an instance, and
for the `social-graph` env a seat's view as text (bots' prompts, the generic widget) and each
event for the log.

The prompt keeps the shape of the paper's (a head count, the relationship sentences one a line,
a `Question:` line, the answer format), so the official-format writer can reuse it and the
official-format reader can read it back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.describe import Naming, describe_generic
from engine.social_graph.queries import Query, answer_instructions

RULES = """\
You are told how some people get along. Every two of them are either on good terms or on bad \
terms, and a relationship is the same both ways.
- Friends of friends are friends: if X is on good terms with Y, and Y with Z, then X is on good \
terms with Z.
- A quarrel covers the whole circle: if X is on bad terms with Y, and X is on good terms with Z, \
then Y and Z are on bad terms too.
- A group is a largest set of people who are all on good terms with one another. Everyone belongs \
to exactly one group (someone on bad terms with everybody is a group of one), and two people are \
on good terms exactly when they are in the same group.
The sentences are all true, and together they settle every relationship."""


def head(people: Sequence[str]) -> str:
    return f"There are {len(people)} people, named {people[0]} to {people[-1]}."


def render_prompt(people: Sequence[str], sentences: Sequence[str], query: Query,
                  rules: bool = True) -> str:
    """The full text for one query: rules (unless given separately), people, sentences,
    question and answer format."""
    parts = [RULES] if rules else []
    parts += [head(people),
              "What is known:\n" + "\n".join(sentences),
              f"Question: {query.question}",
              answer_instructions(query.kind)]
    return "\n\n".join(parts)


def render(view: Mapping[str, Any]) -> str:
    """The seat's (or a spectator's) view: the people, the sentences one a line, the seat's
    answers so far, the question asked now, and the result once the game is over."""
    pub = view["public"]
    lines = [f"Social Graph Analysis ({pub['difficulty']}). {head(pub['people'])}",
             "What is known:", *pub["statements"]]
    for a in (view.get("private") or {}).get("my_answers") or ():
        said = a["answer"] if a["answer"] is not None else "no readable answer"
        lines.append(f"Your answer to question {a['number']} ({a['question']}): {said}.")
    question = pub.get("question")
    if question:
        lines.append(f"Question {question['number']} of {pub['questions']}: {question['text']}")
    if pub.get("over"):
        lines.append(f"Game over: {pub['result']['reason']}.")
    return "\n".join(lines)


def _said(answer: str | None) -> str:
    return f"“{answer}”" if answer is not None else "no readable answer"


def describe_event(type_: str, data: Mapping[str, Any], naming: Naming) -> str:
    if type_ == "puzzle":
        return f"{head(data['people'])} What is known: {' '.join(data['statements'])}"
    if type_ == "question":
        return f"Question {data['number']} of {data['of']}: {data['question']}"
    if type_ == "answer_scored":
        return (f"Answer to question {data['number']}: {_said(data['answer'])}, "
                f"{'right' if data['right'] else 'wrong'}.")
    if type_ == "scores":
        return "Scores: " + "; ".join(
            f"question {q['number']} ({q['kind'].replace('_', ' ')}) "
            f"{'✓' if q['right'] else '✗'}: you said {_said(q['answer'])}, "
            f"the answer is “{q['expected']}”" for q in data["questions"])
    return describe_generic(type_, data, naming)
