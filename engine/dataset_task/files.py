"""Dataset-task files: our JSONL (one record a line, `"format": "parlor.<task>/1"`, documented
in each task's rules doc) and the authors' release format (the task's `read_official`), told
apart by the content. A bad record becomes a Problem naming the file, the line or instance, its
id and the field; the others still load; an id seen twice is refused (records name instances by
id)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine.dataset_task.instance import Instance
from engine.dataset_task.task import DatasetTask
from engine.instance_files import (
    Loaded,
    Problem,
    build_each,
    json_lines,
    json_list,
    load_file,
    not_utf8,
)


def dumps(record: Any) -> str:
    """One line of our JSONL format (no newline)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def save_jsonl(instances: Iterable[Instance], path: str | Path) -> None:
    Path(path).write_text("".join(dumps(dict(i.record)) + "\n" for i in instances),
                          encoding="utf-8")


def build(task: DatasetTask, entries: Iterable[tuple[int, int | None, Any]], name: str,
          convert: Callable[[Any], Any] | None = None, id_key: str = "id") -> Loaded:
    """Instances from (index, line, record) triples, each record first turned into ours by
    `convert` (an official item, say); each failure a Problem."""
    return build_each(entries, name,
                      lambda record: task.from_record(convert(record) if convert else record),
                      lambda instance: instance.id, lambda record: record.get(id_key))


def read_jsonl(task: DatasetTask, data: bytes, name: str = "<jsonl>") -> Loaded:
    """Our JSONL (engine.instance_files.json_lines): broken lines cost only themselves."""
    entries, problems = json_lines(data, name)
    loaded = build(task, entries, name)
    return Loaded(loaded.instances, sorted(problems + loaded.problems,
                                           key=lambda p: p.index or 0))


def is_ours(task: DatasetTask, data: bytes) -> bool:
    head = data[:4096].lstrip()
    return head.startswith(b"{") and f'"format":"{task.format}"'.encode() in \
        head.replace(b" ", b"")


def read(task: DatasetTask, data: bytes, name: str = "<data>") -> Loaded:
    """Either format: ours when the first record carries our `format`, else the authors'."""
    return read_jsonl(task, data, name) if is_ours(task, data) else task.read_official(data, name)


def load(task: DatasetTask, path: str | Path) -> Loaded:
    """Either format from a file; a file that cannot be read is one Problem."""
    return load_file(path, lambda data, name: read(task, data, name))


def read_json_list(task: DatasetTask, data: bytes, name: str, convert: Callable[[Any], Any],
                   id_key: str) -> Loaded:
    """An official file that is one JSON list of items, each made ours by `convert`; a list cut
    short still gives every item before the damage, and the damage is one more Problem."""
    try:
        content = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return Loaded([], [Problem(name, None, None, "<file>", not_utf8(error))])
    items, damage, _ = json_list(content)
    loaded = build(task, ((i, None, item) for i, item in enumerate(items, 1)), name, convert,
                   id_key)
    if damage:
        loaded.problems.append(Problem(name, len(items) + 1, None, "<record>", damage))
    return loaded
