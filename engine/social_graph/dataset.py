"""Instance files: our JSONL format and the authors' released format, loaded leniently.

Our format (`parlor.social_graph/1`, documented in docs/rules/social-graph.md) is one JSON
object per line, the `Instance.to_dict()` record: format, id, seed, source, difficulty, people,
statements (a, b, relation, text), groups, queries (kind, subject, question, answer) and sha256.
Loading checks every record in full (see instance.validate); `check_answers=False` keeps the
stored answers unchecked (for comparing them with the solver's), everything else still checked.
A broken record — bad JSON, bad bytes, a missing or wrong field, a truncated last line — becomes
a `Problem` naming the file, the line, the instance (counting records from 1) and id, and the
field; the other records still load. A file that cannot be read is one Problem, not an error.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import partial
from pathlib import Path

from engine.instance_files import (
    FieldError,
    Loaded,
    Problem,
    json_lines,
    load_file,
)
from engine.social_graph.instance import (
    FORMAT,
    Instance,
    instance_from_dict,
    validate,
)
from engine.social_graph.official import (
    load_official,
    official_records,
    read_official,
    save_official,
)

__all__ = ["FORMAT", "FieldError", "Instance", "Loaded", "Problem", "dumps", "instance_from_dict",
           "load", "load_jsonl", "load_official", "official_records", "read", "read_jsonl",
           "read_official", "save_jsonl", "save_official", "validate"]


def dumps(instance: Instance) -> str:
    """One line of our JSONL format (no newline)."""
    return json.dumps(instance.to_dict(), ensure_ascii=False, separators=(",", ":"))


def save_jsonl(instances: Iterable[Instance], path: str | Path) -> None:
    Path(path).write_text("".join(dumps(instance) + "\n" for instance in instances),
                          encoding="utf-8")


def load_jsonl(path: str | Path, *, check_answers: bool = True) -> Loaded:
    """Instances from a file in our JSONL format (see read_jsonl); a file that cannot be read
    is one Problem."""
    return load_file(path, partial(read_jsonl, check_answers=check_answers))


def read_jsonl(data: bytes, name: str = "<jsonl>", *, check_answers: bool = True) -> Loaded:
    """Instances from our JSONL format, plus a Problem (naming `name`) per line that could not be
    used. Blank lines are skipped. Each line is decoded on its own, so one line of broken bytes
    costs only that instance. `check_answers`: see instance_from_dict."""
    entries, problems = json_lines(data, name)
    instances: list[Instance] = []
    for index, number, record in entries:
        try:
            instances.append(instance_from_dict(record, check_answers=check_answers))
        except FieldError as error:
            stated = record.get("id") if isinstance(record, dict) else None
            problems.append(Problem(name, index, stated if isinstance(stated, str) else None,
                                    error.field, error.message, number))
    return Loaded(instances, sorted(problems, key=lambda p: p.index or 0))


def read(data: bytes, name: str = "<data>", *, check_answers: bool = True) -> Loaded:
    """Either format, told apart by the content: ours when the first record carries our
    `"format"`, else the authors' (a JSON array, or their records one a line)."""
    head = data[:4096].lstrip()
    if head.startswith(b"{") and f'"format":"{FORMAT}"'.encode() in head.replace(b" ", b""):
        return read_jsonl(data, name, check_answers=check_answers)
    return read_official(data, name, check_answers=check_answers)


def load(path: str | Path, *, check_answers: bool = True) -> Loaded:
    """Either format (see read); a file that cannot be read is one Problem."""
    return load_file(path, partial(read, check_answers=check_answers))
