"""Social Graph Analysis as a one-seat game: every sentence is shown from the start, then the
questions come one at a time (by default the four query types in turn, one question each, about
the same people). Nothing about an answer's worth is shown until the end, when every question's
score, the right answers and the groups are revealed.

Answers are read as the paper reads a model's (engine/social_graph/queries.py): a typed reply's
last `Final Answer: ...` (or a bare one-line answer), any casing, markdown bold ignored; the
form's fields are the same answer for people. A reply with no readable answer is not an invalid
move: it is an answer, scored wrong, as in the paper.
"""

from __future__ import annotations

from math import comb
from typing import Any

from engine.core import NO_ACTION, Action, ActionSpace, Env, Field, Game, Option
from engine.social_graph.config import SocialGraphConfig
from engine.social_graph.generator import generate
from engine.social_graph.instance import Instance
from engine.social_graph.queries import Kind, Query, format_value, read_answer, score

# What a typed answer looks like, per query type (the paper's formats).
SYNTAX = {
    Kind.PAIRWISE: "Final Answer: Yes",
    Kind.MEMBERSHIP: "Final Answer: B, D, F",
    Kind.GROUP_COUNT: "Final Answer: 3",
    Kind.PAIR_COUNT: "Final Answer: 16 pairs have good relationships, 12 pairs have bad "
                     "relationships",
}


def groups_text(puzzle: Instance) -> str:
    """The groups as a person reads them: "{A, B, C} {D, E}"."""
    return " ".join("{" + ", ".join(group) + "}" for group in puzzle.partition.groups)


def form_text(kind: Kind, action: dict[str, Any]) -> str:
    """A form's answer as the typed answer it stands for (read like any reply: fields left out
    or of the wrong kind make an unreadable answer, scored wrong)."""
    if kind is Kind.PAIR_COUNT:
        good, bad = action.get("good"), action.get("bad")
        if good is None or bad is None:
            return ""
        return f"{good} pairs have good relationships, {bad} pairs have bad relationships"
    value = action.get({Kind.PAIRWISE: "answer", Kind.MEMBERSHIP: "names",
                        Kind.GROUP_COUNT: "groups"}[kind])
    return "" if value is None else str(value)


class SocialGraphGame(Game):
    __slots__ = ("puzzle", "questions", "answers")
    config: SocialGraphConfig

    def __init__(self, env: Env, config: SocialGraphConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        # The table's seed is the generator's: seed S plays instance sga-DIFFICULTY-S, the one
        # `parlor maze generate --task social-graph --seed S` writes first.
        self.puzzle: Instance = config.puzzle() if config.instance else generate(
            seed, config.difficulty)
        self.questions: tuple[Query, ...] = config.asked(self.puzzle)
        self.answers: list[dict[str, Any]] = []  # per question: what the seat said, its score
        self._waiting = frozenset((0,))
        p = self.puzzle
        self.emit("puzzle", {"difficulty": p.difficulty, "people": list(p.people),
                             "statements": [s.text for s in p.statements]})
        self._ask()

    @property
    def current(self) -> Query:
        return self.questions[len(self.answers)]

    def _ask(self) -> None:
        number = len(self.answers) + 1
        self.clock = {"question": number}
        q = self.current
        self.emit("question", {"number": number, "of": len(self.questions), "kind": str(q.kind),
                               "subject": list(q.subject), "question": q.question})

    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return NO_ACTION
        q, n = self.current, len(self.puzzle.people)
        return ActionSpace(kind="form", prompt=f"Question {len(self.answers) + 1} of "
                                               f"{len(self.questions)}: {q.question}",
                           syntax=SYNTAX[q.kind], fields=self._fields(q.kind, q.subject, n))

    @staticmethod
    def _fields(kind: Kind, subject: tuple[str, ...], n: int) -> tuple[Field, ...]:
        if kind is Kind.PAIRWISE:
            return (Field("answer", f"Are {subject[0]} and {subject[1]} on good terms?",
                          "choice", options=(Option("Yes", "Yes"), Option("No", "No"))),)
        if kind is Kind.MEMBERSHIP:
            return (Field("names", f"On good terms with {subject[0]} (like A, C, F, or No one)",
                          "text", max_chars=200),)
        if kind is Kind.GROUP_COUNT:
            return (Field("groups", "Number of groups", "int", min=1, max=n),)
        pairs = comb(n, 2)
        return (Field("good", "Pairs on good terms", "int", min=0, max=pairs),
                Field("bad", "Pairs on bad terms", "int", min=0, max=pairs))

    def _public_state(self) -> dict[str, Any]:
        p = self.puzzle
        state: dict[str, Any] = {
            "difficulty": p.difficulty, "people": list(p.people),
            "statements": [s.text for s in p.statements], "questions": len(self.questions),
            "answered": len(self.answers), "question": None}
        if len(self.answers) < len(self.questions):
            q = self.current
            state["question"] = {"number": len(self.answers) + 1, "kind": str(q.kind),
                                 "subject": list(q.subject), "text": q.question}
        return state

    def _private_state(self, seat: int) -> dict[str, Any]:
        mine = [{"number": a["number"], "question": a["question"], "answer": a["answer"]}
                for a in self.answers]
        return {"last_error": self._last_errors[seat], "my_answers": mine}

    def default_action(self, seat: int) -> str:
        return ""  # no answer: scored wrong, as an unreadable reply

    def pace(self, seat: int) -> float | None:
        """A person's time for each question when the config sets one (`seconds_per_question`):
        then an overdue question is answered with nothing and the next one comes."""
        seconds = self.config.seconds_per_question
        return float(seconds) if seconds else None

    def hidden_setup(self) -> dict[str, Any]:
        p = self.puzzle
        return {"groups": groups_text(p),
                "answers": {str(i): f"{q.question} {q.answer}"
                            for i, q in enumerate(self.questions, 1)},
                "instance_id": p.id, "content_hash": p.content_hash()}

    def _apply(self, seat: int, action: Action) -> str | None:
        q = self.current
        text = action if isinstance(action, str) else form_text(q.kind, dict(action))
        value = read_answer(q.kind, text)
        entry = {"number": len(self.answers) + 1, "kind": str(q.kind), "question": q.question,
                 "answer": None if value is None else format_value(q.kind, value),
                 "right": score(q, text)}
        self.answers.append(entry)
        self.emit("answer_scored", entry, visible_to=())  # for the record and metrics only
        if len(self.answers) < len(self.questions):
            self._ask()
            return None
        self.emit("scores", {"questions": [{**a, "expected": q.answer}
                                           for a, q in zip(self.answers, self.questions,
                                                           strict=True)]})
        right, asked = sum(a["right"] for a in self.answers), len(self.answers)
        # Linear in the share right, on the -1..+1 scale: +1 all right, -1 none; a win only
        # when every question is right.
        self.finish({0: 2.0 * right / asked - 1.0}, (0,) if right == asked else (),
                    f"{right} of {asked} question{'s' if asked > 1 else ''} right")
        return None
