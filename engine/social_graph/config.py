"""Social Graph Analysis's table settings: a generated puzzle (difficulty) or an imported one,
carried whole in the config so that the game replays from its record without the file it came
from, which query types the game asks, in turn (all four by default, one question each), and
how long a person has for each question."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from engine.core import Config, ConfigError
from engine.social_graph.instance import Instance, instance_from_dict
from engine.social_graph.queries import KINDS, Kind, Query

MAX_SECONDS = 3600


@dataclass(frozen=True)
class SocialGraphConfig(Config):
    hidden_fields = ("instance",)  # the puzzle holds its groups, the answers
    difficulty: Literal["easy", "hard"] = "hard"
    # The query types asked, in this order: one question each about a generated puzzle; every
    # question of these types an imported puzzle carries.
    queries: tuple[str, ...] = tuple(KINDS)
    instance: str = ""  # an imported puzzle, one line of our JSONL format, played as is
    # Seconds a person has for each question, after which it counts as unanswered (wrong) and the
    # next one comes; 0: the table's turn timer and timeout policy apply instead.
    seconds_per_question: int = 0

    def validate(self) -> None:
        if not 0 <= self.seconds_per_question <= MAX_SECONDS:
            raise ConfigError(f"seconds_per_question must be between 0 (the table's timer) and "
                              f"{MAX_SECONDS}, got {self.seconds_per_question}")
        valid = ", ".join(KINDS)
        if not self.queries:
            raise ConfigError(f"queries: ask at least one query type ({valid})")
        for kind in self.queries:
            if kind not in KINDS:
                raise ConfigError(f"queries: unknown query type {kind!r}; valid: {valid}")
        if len(set(self.queries)) != len(self.queries):
            raise ConfigError(f"queries: a query type is listed twice in {list(self.queries)}")
        if self.instance and not self.asked(self.puzzle()):
            raise ConfigError(f"instance: it has no question of the types asked "
                              f"(queries: {', '.join(self.queries)})")

    def puzzle(self) -> Instance:
        """The imported puzzle; ConfigError naming the field when the record is bad."""
        try:
            return instance_from_dict(json.loads(self.instance))
        except ValueError as e:  # json.JSONDecodeError and the kit's FieldError are ValueErrors
            raise ConfigError(f"instance: {e}") from None

    def asked(self, puzzle: Instance) -> tuple[Query, ...]:
        """The puzzle's questions this game asks: by query type in the order of `queries`, and
        within a type in the puzzle's order."""
        return tuple(q for kind in self.queries for q in puzzle.queries if q.kind is Kind(kind))


PRESETS = {
    "paper": SocialGraphConfig(),  # the headline setting: hard, the four query types in turn
    "easy": SocialGraphConfig(difficulty="easy"),
    "hard": SocialGraphConfig(difficulty="hard"),
}
