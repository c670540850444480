"""A dataset task's table settings: a synthetic instance made from the table's seed, or one
instance from a file, carried whole in the config (one line of our JSONL format) so that the
game replays from its record without the file; and how long a person has for each answer."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

from engine.core import Config, ConfigError
from engine.dataset_task.instance import Instance
from engine.dataset_task.task import DatasetTask
from engine.instance_files import FieldError

MAX_SECONDS = 3600


@dataclass(frozen=True)
class DatasetConfig(Config):
    task: ClassVar[DatasetTask]  # set by each task's subclass
    hidden_fields = ("instance",)  # the instance holds its answer

    instance: str = ""  # an instance from a file, one line of our JSONL format, played as is
    # Seconds a person has for each answer, after which it counts as unanswered (wrong) and the
    # next stage comes; 0: the table's turn timer and timeout policy apply instead.
    seconds_per_answer: int = 0

    def validate(self) -> None:
        if not 0 <= self.seconds_per_answer <= MAX_SECONDS:
            raise ConfigError(f"seconds_per_answer must be between 0 (the table's timer) and "
                              f"{MAX_SECONDS}, got {self.seconds_per_answer}")
        if self.instance:
            self.imported()

    def imported(self) -> Instance:
        """The instance from a file; ConfigError naming the field when the record is bad."""
        try:
            record = json.loads(self.instance)
        except json.JSONDecodeError as e:
            raise ConfigError(f"instance: not valid JSON: {e.msg} at character {e.pos}") \
                from None
        try:
            return self.task.from_record(record)
        except FieldError as e:
            raise ConfigError(f"instance: {e}") from None

    def make(self, seed: int) -> Instance:
        """The instance this table plays: the imported one, or the synthetic one of `seed`."""
        if self.instance:
            return self.imported()
        return self.task.from_record(self.task.generate(seed, self))
