"""Instance files: our JSONL format and the authors' released format, loaded leniently.

Our format (`parlor.social_graph/1`, documented in docs/rules/social-graph.md) is one JSON
object per line, the `Instance.to_dict()` record: format, id, seed, source, difficulty, people,
statements (a, b, relation, text), groups, queries (kind, subject, question, answer) and sha256.
Loading checks every record in full (see instance.validate). A broken record — bad JSON, a
missing or wrong field, a truncated last line — becomes a `Problem` naming the file, the line,
the instance index and id, and the field; the other records still load.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from engine.social_graph.instance import (
    FORMAT,
    FieldError,
    Instance,
    Loaded,
    Problem,
    instance_from_dict,
    json_error,
    validate,
)
from engine.social_graph.official import (
    load_official,
    official_records,
    read_official,
    save_official,
)

__all__ = ["FORMAT", "FieldError", "Instance", "Loaded", "Problem", "dumps", "instance_from_dict",
           "load", "load_jsonl", "load_official", "official_records", "read_jsonl",
           "read_official", "save_jsonl", "save_official", "validate"]


def dumps(instance: Instance) -> str:
    """One line of our JSONL format (no newline)."""
    return json.dumps(instance.to_dict(), ensure_ascii=False, separators=(",", ":"))


def save_jsonl(path: str | Path, instances: Iterable[Instance]) -> None:
    Path(path).write_text("".join(dumps(instance) + "\n" for instance in instances),
                          encoding="utf-8")


def load_jsonl(path: str | Path) -> Loaded:
    """Instances from a file in our JSONL format (see read_jsonl); a missing file raises OSError."""
    return read_jsonl(Path(path).read_bytes(), str(path))


def read_jsonl(data: bytes, name: str = "<jsonl>") -> Loaded:
    """Instances from our JSONL format, plus a Problem (naming `name`) per line that could not be
    used. Blank lines are skipped. Each line is decoded on its own, so one line of broken bytes
    costs only that instance."""
    instances: list[Instance] = []
    problems: list[Problem] = []
    index = 0
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        record = None
        try:
            record = json.loads(raw.decode("utf-8"))
            instances.append(instance_from_dict(record))
        except UnicodeDecodeError as error:
            problems.append(Problem(name, index, None, "<record>",
                                    f"not UTF-8 text ({error.reason} at byte {error.start})",
                                    number))
        except json.JSONDecodeError as error:
            problems.append(Problem(name, index, None, "<record>", json_error(error),
                                    number))
        except FieldError as error:
            stated = record.get("id") if isinstance(record, dict) else None
            problems.append(Problem(name, index, stated if isinstance(stated, str) else None,
                                    error.field, error.message, number))
        index += 1
    return Loaded(instances, problems)


def load(path: str | Path) -> Loaded:
    """Either format, told apart by the first record: ours carries `"format"`."""
    path = Path(path)
    with path.open("rb") as handle:
        head = handle.read(4096).lstrip()
    if head.startswith(b"{") and f'"format":"{FORMAT}"'.encode() in head.replace(b" ", b""):
        return load_jsonl(path)
    return load_official(path)
