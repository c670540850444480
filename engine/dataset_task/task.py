"""What a dataset task tells the kit about itself: its answer fields and format, how to read
our record and the official release's, how to make a synthetic instance for a seed, and the
texts a player reads. Answers are read as the paper reads a model's (engine/answers.py): each
field's `Label: value` anywhere in the reply, any casing, markdown bold ignored, the last match
wins; a reply that is just one option ("4", "reject") also counts for a one-field task."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.answers import last_match
from engine.dataset_task.instance import AnswerField, Instance
from engine.instance_files import Loaded


@dataclass(frozen=True)
class DatasetTask:
    id: str  # the env id
    title: str
    format: str  # our JSONL records' "format"
    fields: tuple[AnswerField, ...]
    syntax: str  # a well-formed typed answer, e.g. "Final Rating: 4"
    rules: str  # the task in our words, for people and prompts
    from_record: Callable[[Mapping[str, Any]], Instance]  # FieldError on a bad record
    read_official: Callable[[bytes, str], Loaded]  # the authors' release format
    generate: Callable[[int, Any], dict[str, Any]]  # (seed, config) -> a synthetic record
    kinds: tuple[str, ...] = ("",)  # query kinds, when the task has several
    explain: Callable[[Instance], str | None] = lambda instance: None  # shown after the game

    def read_answer(self, reply: str) -> dict[str, str | None]:
        """Each field's value in a typed reply, None where it gives none."""
        found: dict[str, str | None] = {}
        for field in self.fields:
            match = last_match(field.pattern(), reply)
            found[field.name] = field.canonical(match.group(1)) if match else None
        if len(self.fields) == 1 and found[self.fields[0].name] is None:
            bare = reply.strip().strip("*_.`'\" ")
            found[self.fields[0].name] = self.fields[0].canonical(bare) if bare else None
        return found

    def typed(self, values: Mapping[str, Any]) -> str:
        """A form's values as the typed answer they stand for (a field left out is left out)."""
        return " ".join(f"{f.label}: {values[f.name]}" for f in self.fields
                        if values.get(f.name) not in (None, ""))

    def instructions(self) -> str:
        """The answer format, as the paper asks for it."""
        formats = " ".join(f"{f.label}: <{' | '.join(f.options)}>" for f in self.fields)
        return f"Give your answer exactly in this format: {formats}"
