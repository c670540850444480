"""Reading dataset files the same way for every SocialMaze task: a bad record becomes a
`Problem` naming the file, the record and the field, and the other records still load; a file
that cannot be read is one Problem, never an exception; a JSON list cut short still gives every
item before the damage."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple


class FieldError(ValueError):
    """A record is unusable because of one field (named like `queries[2].answer`)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"field '{field}': {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class Problem:
    """Why one record of a file (or the whole file, index None) was not loaded. `index` counts
    the file's records from 1; `line` is the line of a JSONL record."""

    path: str
    index: int | None
    instance_id: str | None
    field: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = [f"line {self.line}"] if self.line is not None else []
        if self.index is not None:
            where.append(f"instance {self.index}")
        if self.instance_id is not None:
            where.append(f"id {self.instance_id!r}")
        place = f" ({', '.join(where)})" if where else ""
        return f"{self.path}{place}: field '{self.field}': {self.message}"


def json_error(error: json.JSONDecodeError) -> str:
    """A Problem message for JSON that does not parse, saying when it looks cut short."""
    cut = error.msg.startswith("Unterminated string") or error.pos >= len(error.doc.rstrip())
    return (f"not valid JSON: {error.msg} at character {error.pos}"
            + (" (the text ends inside it: truncated?)" if cut else ""))


def not_utf8(error: UnicodeDecodeError) -> str:
    """A Problem message for bytes that are not UTF-8 text."""
    return f"not UTF-8 text ({error.reason} at byte {error.start})"


class Loaded(NamedTuple):
    """What a loader returns: the instances it could read, and a problem for each it could not."""

    instances: list[Any]
    problems: list[Problem]


def json_lines(data: bytes, name: str) -> tuple[list[tuple[int, int, Any]], list[Problem]]:
    """The records of JSON Lines as (index from 1, line number, decoded JSON), blank lines
    skipped, and a Problem per line that is not UTF-8 JSON (each line decoded on its own, so
    broken bytes cost only their line)."""
    entries: list[tuple[int, int, Any]] = []
    problems: list[Problem] = []
    index = 0
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        index += 1
        try:
            entries.append((index, number, json.loads(raw.decode("utf-8"))))
        except UnicodeDecodeError as error:
            problems.append(Problem(name, index, None, "<record>", not_utf8(error), number))
        except json.JSONDecodeError as error:
            problems.append(Problem(name, index, None, "<record>", json_error(error), number))
    return entries, problems


def build_each(entries: Iterable[tuple[int, int | None, Any]], name: str,
               read: Callable[[Any], Any], ident: Callable[[Any], str],
               stated: Callable[[Any], Any]) -> Loaded:
    """`read(record)` for each (index, line, record), a FieldError becoming a Problem naming
    the record's `stated` id and the field; a second instance with an id (`ident` of what read
    made) already seen is refused, as records name instances by id."""
    instances: list[Any] = []
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for index, line, record in entries:
        given = stated(record) if isinstance(record, dict) else None
        named = None if given is None else str(given)
        try:
            instance = read(record)
        except FieldError as error:
            problems.append(Problem(name, index, named, error.field, error.message, line))
            continue
        if ident(instance) in seen:
            problems.append(Problem(name, index, named, "id",
                                    f"id already used by instance {seen[ident(instance)]}",
                                    line))
            continue
        seen[ident(instance)] = index
        instances.append(instance)
    return Loaded(instances, problems)


def load_file(path: str | Path, read: Callable[[bytes, str], Loaded]) -> Loaded:
    """`read(content, name)` on a file; a file that cannot be read (missing, a folder, not
    allowed) gives no instances and one Problem for the whole file, never an exception."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        return Loaded([], [Problem(str(path), None, None, "<file>",
                                   f"cannot read: {error.strerror or error}")])
    return read(data, str(path))


def json_list(text: str) -> tuple[list[Any], str | None, str]:
    """The items of a JSON list, reading item by item so that a truncated or damaged file still
    gives the items before the damage; then what the damage is (None if none) and the text from
    the damaged item on."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        pass
    else:
        if isinstance(data, list):
            return data, None, ""
        return [], f"expected a JSON list of instances, got {type(data).__name__}", ""
    decoder, items = json.JSONDecoder(), []
    skip = re.compile(r"\s*")
    i = skip.match(text).end()
    if not text.startswith("[", i):
        return [], "not a JSON list (the file does not start with '[')", text
    i += 1
    while True:
        i = skip.match(text, i).end()
        if i >= len(text):
            return items, "the file ends before the list is closed (truncated?)", ""
        if text[i] == "]" and not items:
            return items, None, ""
        try:
            item, i = decoder.raw_decode(text, i)
        except json.JSONDecodeError as e:
            cut = "" if text.rstrip().endswith("]") else "; the file looks truncated"
            return items, f"not valid JSON at line {e.lineno} column {e.colno}: {e.msg}{cut}", \
                text[i:]
        items.append(item)
        i = skip.match(text, i).end()
        if text.startswith(",", i):
            i += 1
        elif text.startswith("]", i):
            return items, None, ""
        elif i >= len(text):
            return items, "the file ends before the list is closed (truncated?)", ""
        else:
            return items, f"expected ',' or ']' after instance {len(items)}", text[i:]
