"""`solo-quiz`: a one-seat test env (no ratings; scored by accuracy).

A few arithmetic questions drawn from the seed, each with four answers to choose from (or "pass",
which counts as wrong and is the default move). The reward is the share of right answers; the
seat "wins" only with every answer right. The answer key is the hidden setup, revealed at the end.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.aggregate import Fold
from engine.attribution import ATTRIBUTION_LABELS, error_attribution
from engine.core import (
    NO_ACTION,
    Action,
    ActionSpace,
    Config,
    ConfigError,
    Env,
    Game,
    GameRecord,
    InvalidMovePolicy,
    Option,
    derive_seed,
)
from engine.policy import DEFAULT, FORMAT

LETTERS = ("a", "b", "c", "d")
PASS = "pass"
RECENT = 10  # answered questions a view holds


@dataclass(frozen=True)
class QuizConfig(Config):
    questions: int = 3
    max_operand: int = 12

    def validate(self) -> None:
        if not 1 <= self.questions <= 50:
            raise ConfigError(f"questions must be between 1 and 50, got {self.questions}")
        if not 2 <= self.max_operand <= 1000:
            raise ConfigError(f"max_operand must be between 2 and 1000, got {self.max_operand}")


def make_questions(config: QuizConfig, seed: int) -> list[dict[str, Any]]:
    """Questions with four distinct answers each and the letter of the right one."""
    rng = random.Random(derive_seed(seed, "questions"))
    out = []
    for _ in range(config.questions):
        a, b = rng.randint(1, config.max_operand), rng.randint(1, config.max_operand)
        op = rng.choice("+*")
        right = a + b if op == "+" else a * b
        answers = {right}
        while len(answers) < 4:
            answers.add(max(right + rng.randint(-5, 5), 0))
        shuffled = sorted(answers)
        rng.shuffle(shuffled)
        out.append({"text": f"{a} {'+' if op == '+' else 'x'} {b}", "answers": shuffled,
                    "key": LETTERS[shuffled.index(right)]})
    return out


def parse_answer(action: Action) -> str | None:
    """The letter (or "pass") in "[b]", "b" or {"choice": "b"}; None when there is none."""
    if isinstance(action, str):
        word = action.strip()
        if word[:1] == "[" and word[-1:] == "]":
            word = word[1:-1].strip()
        word = word.lower()
    else:
        word = action.get("choice")
    return word if word in LETTERS or word == PASS else None


class QuizGame(Game):
    __slots__ = ("questions", "index", "answered")
    config: QuizConfig

    def __init__(self, env: Env, config: QuizConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self.questions = make_questions(config, seed)
        self.index = 0
        self.answered: list[dict[str, Any]] = []
        self.clock = {"question": 1}
        self._waiting = frozenset((0,))

    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return NO_ACTION
        q = self.questions[self.index]
        options = [Option(letter, str(n)) for letter, n in zip(LETTERS, q["answers"],
                                                                strict=True)]
        return ActionSpace(kind="choice", prompt=f"What is {q['text']}?", syntax="[b]",
                           options=(*options, Option(PASS, "Pass (counts as wrong)")))

    def _public_state(self) -> dict[str, Any]:
        last = min(self.index, len(self.questions) - 1)
        q = self.questions[last]
        return {"question": last + 1, "questions": len(self.questions),
                "text": q["text"], "answers": list(q["answers"]),
                "recent": self.answered[-RECENT:],
                "right": sum(a["right"] for a in self.answered)}

    def _private_state(self, seat: int) -> dict[str, Any]:
        return {"last_error": self._last_errors[seat]}

    def default_action(self, seat: int) -> dict[str, str]:
        return {"choice": PASS}

    def hidden_setup(self) -> dict[str, Any]:
        return {"answer_key": [q["key"] for q in self.questions]}

    def _apply(self, seat: int, action: Action) -> str | None:
        answer = parse_answer(action)
        if answer is None:
            return self.reject(seat, "answer with one letter: [a], [b], [c], [d] or [pass]",
                               FORMAT)
        entry = {"question": self.index + 1, "answer": answer,
                 "right": answer == self.questions[self.index]["key"]}
        self.answered.append(entry)
        self.emit("answered", entry)
        self.index += 1
        if self.index < len(self.questions):
            self.clock = {"question": self.index + 1}
            return None
        right = sum(a["right"] for a in self.answered)
        n = len(self.questions)
        self.finish({0: right / n}, (0,) if right == n else (), f"{right} of {n} right")
        return None


class SoloQuizEnv(Env):
    id = "solo-quiz"
    title = "Solo quiz"
    description = "One player answers a few arithmetic questions (a test env without ratings)."
    players = (1,)
    rules_version = "1"
    Config = QuizConfig
    game_class = QuizGame
    presets: ClassVar[Mapping[str, Config]] = {"paper": QuizConfig(), "long": QuizConfig(20)}
    seat_names = ("Solver",)
    rating = "none"
    invalid_moves = InvalidMovePolicy(retries=1, then=DEFAULT)
    metric_labels: ClassVar[Mapping[str, str]] = {
        "accuracy": "Right answers (share)", **ATTRIBUTION_LABELS, "questions": "Questions",
        "right": "Right answers"}

    def render(self, view: Mapping[str, Any]) -> str:
        pub = view["public"]
        head = f"Question {pub['question']} of {pub['questions']} ({pub['right']} right so far)"
        if pub["over"]:
            return f"{head}\nQuiz over: {pub['result']['reason']}."
        answers = ", ".join(f"[{c}] {n}" for c, n in zip(LETTERS, pub["answers"], strict=True))
        return f"{head}\nWhat is {pub['text']}? {answers}"

    def game_metrics(self, record: GameRecord) -> dict[str, Any]:
        right = sum(bool(e.data["right"]) for e in record.events if e.type == "answered")
        n = len(record.setup.get("answer_key", ())) or record.config["questions"]
        return {"game": {"questions": n, "right": right},
                "seats": {"0": {"accuracy": right / n, **error_attribution(record)["0"]}}}

    def aggregate_metrics(self, per_game: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        fold = Fold(1, skip_void=False).add_all(per_game)
        return {"overall": {"games": fold.games,
                            "mean_accuracy": fold.per_counted(fold.seat("0").total("accuracy"))},
                "seats": fold.seat_totals()}
