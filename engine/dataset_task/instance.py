"""One dataset-task instance: the evidence, stage by stage, the question, and the true answer
(one value per answer field); the record it was read from (our JSONL format) travels with it, so
a table carries it whole and a game replays without the file. Its content hash leaves out the
id and where it came from, so the same instance under another name hashes the same."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.instance_files import FieldError


def _key(value: str) -> str:
    """How answers compare: case, spaces and punctuation other than + ignored."""
    return re.sub(r"[^0-9a-z+]", "", value.lower())


@dataclass(frozen=True)
class AnswerField:
    """One part of the answer (a rating, a decision, an age group), its options in the paper's
    spelling, and the label in the paper's answer format ("Final Rating", "Gender")."""

    name: str
    label: str
    options: tuple[str, ...]

    def canonical(self, value: Any) -> str | None:
        """The option `value` names (any casing, spacing or "non binary" for "Non-binary");
        None when it names none."""
        wanted = _key(str(value))
        return next((o for o in self.options if _key(o) == wanted), None)

    def pattern(self) -> re.Pattern[str]:
        """`Label: value` with any option; the value is read by `canonical`."""
        words = "|".join(sorted((re.escape(o).replace(r"\-", r"\s*-?\s*")
                                 .replace(r"\+", r"\s*\+") for o in self.options),
                                key=len, reverse=True))
        # not followed by "/" or "|": "<Accept/Reject>" lists the options, it picks none
        return re.compile(rf"{re.escape(self.label)}\s*[:：]\s*\W{{0,3}}\s*({words})"
                          rf"(?![\w-])(?!\s*[/|])", re.IGNORECASE)


@dataclass(frozen=True)
class Item:
    """One piece of evidence: who or what it is ("Reviewer #2") and its text."""

    label: str
    text: str


@dataclass(frozen=True)
class Stage:
    """What one stage reveals; a task with one stage shows everything at once."""

    title: str
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Instance:
    task: str
    id: str
    kind: str  # the query kind ("" when the task has one)
    intro: str  # what the evidence is about, shown above it
    question: str
    stages: tuple[Stage, ...]
    answer: Mapping[str, str]  # field name -> the true option
    record: Mapping[str, Any]  # our JSONL record of the whole instance
    source: str = ""
    synthetic: bool = False

    def content_hash(self) -> str:
        content = {k: v for k, v in self.record.items()
                   if k not in ("id", "seed", "source", "sha256")}
        canonical = json.dumps(content, sort_keys=True, separators=(",", ":"),
                               ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def label(self) -> str:
        """The answer as one class label ("4", "35-54 / Male"), for the majority baseline."""
        return " / ".join(self.answer.values())


# -- reading records ---------------------------------------------------------------------------

def get(record: Any, key: str, where: str = "") -> Any:
    """record[key]; FieldError naming `where.key` when the record is not an object or lacks
    it."""
    field = f"{where}.{key}" if where else key
    if not isinstance(record, dict):
        raise FieldError(where or "<record>", f"expected an object, got {type(record).__name__}")
    if key not in record:
        raise FieldError(field, "missing")
    return record[key]


def text(value: Any, field: str, *, empty: bool = False) -> str:
    if not isinstance(value, str) or not (empty or value.strip()):
        raise FieldError(field, f"expected {'a' if empty else 'a non-empty'} string, got "
                                f"{json.dumps(value)[:60]}")
    return value


def texts(value: Any, field: str, least: int = 1, *, empty: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) < least:
        raise FieldError(field, f"expected a list of at least {least} string"
                                f"{'s' if least != 1 else ''}, got {json.dumps(value)[:60]}")
    return tuple(text(v, f"{field}[{i}]", empty=empty) for i, v in enumerate(value))


def option(answer_field: AnswerField, value: Any, field: str) -> str:
    found = answer_field.canonical(value) if isinstance(value, (str, int)) else None
    if found is None:
        raise FieldError(field, f"expected one of {', '.join(answer_field.options)}, got "
                                f"{json.dumps(value)[:60]}")
    return found


def check_format(record: Any, expected: str) -> None:
    if get(record, "format") != expected:
        raise FieldError("format", f"expected {expected!r}, got {record['format']!r}")


def provenance(record: Mapping[str, Any]) -> dict[str, Any]:
    """An Instance's `source` and `synthetic` from our record."""
    source = record.get("source")
    return {"source": source if isinstance(source, str) else "",
            "synthetic": record.get("synthetic") is True}


def release_provenance(item: Mapping[str, Any]) -> dict[str, Any]:
    """Our record's `source` and `synthetic` for an item of the authors' release (its own
    `source` when it names one; the release's examples call themselves synthetic)."""
    source = item.get("source") if isinstance(item.get("source"), str) else "SocialMaze release"
    return {"source": source, "synthetic": "synthetic" in source.lower()}


def ident(record: Any, key: str = "id") -> str:
    """The record's id: a non-empty string, or a whole number written as one."""
    value = get(record, key)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return text(value, key)
