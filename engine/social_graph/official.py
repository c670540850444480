"""The authors' released data format for Social Graph Analysis, read and written.

The paper does not describe its data files. The authors' public repository (xzx34/SocialMaze,
`relation/data/{easy,hard}/relation_{reasoning,group,cluster,count}.json`) holds, per difficulty
and query kind, one JSON array of records `{"system_prompt", "user_prompt", "answer"}`:
`user_prompt` says "There are N people in total, labeled from A to X.", then the relationship
sentences one a line ("C and H have a bad relationship"), then "Question: ..."; `answer` is the
bare answer ("F, G, H"; their templates also show it as "Final Answer: ..."). Records of the four
files at the same index were made from one graph, but nothing in a record says so.

We read such an array (or the same records one per line, JSONL, with `prompt` accepted for
`user_prompt`). Each record is parsed, solved and checked: its answer must be the one the
sentences determine (unless `check_answers=False`: then it is kept, right or wrong). Records
stating the same people and sentences are merged into one instance with several queries; the id
is the record's `id` if present, else `<dir>/<file stem>-<index>`, the index counting the
file's records from 1.
Difficulty: the record's `difficulty`, else the parent folder name (easy/hard), else n (8-10
easy, 14-16 hard), else "custom". We write the same record shape, one record per query, with our
own rules text and prompt, adding `id` and `difficulty` (the authors' evaluator reads
`difficulty` when present and ignores unknown keys).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from engine.answers import last_match
from engine.instance_files import (
    FieldError,
    Loaded,
    Problem,
    json_error,
    load_file,
    not_utf8,
)
from engine.social_graph.graph import MAX_PEOPLE, Partition, people_labels
from engine.social_graph.instance import (
    Instance,
)
from engine.social_graph.queries import Query, format_value, parse_question, read_answer, truth
from engine.social_graph.solver import solve
from engine.social_graph.statements import Statement, parse_statement
from engine.social_graph.text import RULES, render_prompt

_PEOPLE_COUNT = re.compile(r"\b(\d{1,3})\s+people\b", re.IGNORECASE)
_QUESTION = re.compile(r"^[ \t]*question[ \t]*:[ \t]*([^\n]*\S)", re.IGNORECASE | re.MULTILINE)


def official_records(instance: Instance) -> list[dict[str, Any]]:
    """One released-format record per query of the instance."""
    sentences = [statement.text for statement in instance.statements]
    return [{"system_prompt": RULES,
             "user_prompt": render_prompt(instance.people, sentences, query, rules=False),
             "answer": query.answer, "id": instance.id, "difficulty": instance.difficulty}
            for query in instance.queries]


def save_official(instances: Iterable[Instance], path: str | Path) -> None:
    records = [record for instance in instances for record in official_records(instance)]
    Path(path).write_text(json.dumps(records, indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")


def _difficulty(record: dict[str, Any], path: Path, people: int) -> str:
    stated = record.get("difficulty")
    if stated in ("easy", "hard"):
        return stated
    if path.parent.name in ("easy", "hard"):
        return path.parent.name
    return "easy" if 8 <= people <= 10 else "hard" if 14 <= people <= 16 else "custom"


def _parse_record(record: Any, check_answers: bool = True
                  ) -> tuple[tuple[str, ...], list[Statement], Partition, Query]:
    """People, sentences, groups and the query of one record, its answer checked unless
    `check_answers` is False (it must still be an answer of its kind); FieldError if unusable.
    The query's answer is the record's, written canonically."""
    if not isinstance(record, dict):
        raise FieldError("<record>", "expected a JSON object")
    key = "user_prompt" if "user_prompt" in record or "prompt" not in record else "prompt"
    prompt, answer = record.get(key), record.get("answer")
    if not isinstance(prompt, str):
        raise FieldError(key, "missing or not text")
    if not isinstance(answer, str):
        raise FieldError("answer", "missing or not text")
    statements = []
    for line in prompt.splitlines():
        edge = parse_statement(line)
        if edge is not None:
            statements.append(Statement(edge, line.strip()))
    if not statements:
        raise FieldError(key, "no relationship sentences found")
    mentioned = max(max(s.edge.a, s.edge.b) for s in statements)
    count = _PEOPLE_COUNT.search(prompt)
    people_count = int(count.group(1)) if count else ord(mentioned) - ord("A") + 1
    if not 2 <= people_count <= MAX_PEOPLE or ord(mentioned) - ord("A") >= people_count:
        raise FieldError(key, f"says there are {people_count} people but names {mentioned}")
    people = people_labels(people_count)
    question = last_match(_QUESTION, prompt)
    asked = None if question is None else parse_question(question.group(1))
    if asked is None:
        raise FieldError(key, "no question of a known kind (a line starting 'Question:')")
    kind, subject = asked
    if any(name not in people for name in subject):
        raise FieldError(key, f"the question is about someone who is not there: {subject}")
    try:
        partition = solve(people, [s.edge for s in statements])
    except ValueError as error:
        raise FieldError(key, str(error)) from None
    stated = read_answer(kind, answer)
    if stated is None:
        raise FieldError("answer", f"{answer!r} is not a {kind} answer")
    right = truth(kind, subject, partition)
    if check_answers and format_value(kind, stated) != right:
        raise FieldError("answer", f"{answer!r} is wrong; the sentences give {right!r}")
    return people, statements, partition, Query(kind, subject, question.group(1).strip(),
                                                format_value(kind, stated))


def _records(data: bytes) -> Iterator[tuple[int | None, int | None, Any]]:
    """(index from 1, line, record) for a JSON array or for JSON lines; in place of a record
    that does not parse, the message saying why. JSON lines are decoded one by one, so bad
    bytes cost only their line; an array that is not UTF-8 is one message for the whole file
    (index None). Reading an array stops at the first broken record: nothing after it can be
    found reliably."""
    if not data.lstrip().startswith(b"["):
        lines = [(n, line) for n, line in enumerate(data.split(b"\n"), 1) if line.strip()]
        for index, (number, line) in enumerate(lines, 1):
            try:
                yield index, number, json.loads(line.decode("utf-8"))
            except UnicodeDecodeError as error:
                yield index, number, _Unreadable(not_utf8(error))
            except json.JSONDecodeError as error:
                yield index, number, _Unreadable(json_error(error))
        return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        yield None, None, _Unreadable(not_utf8(error))
        return
    stripped = text.lstrip()
    decoder = json.JSONDecoder()
    pos, index = len(text) - len(stripped) + 1, 1
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text):
            yield index, None, _Unreadable("the file ends before the list is closed (truncated?)")
            return
        if text[pos] == "]":
            return
        try:
            record, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as error:
            yield index, None, _Unreadable(json_error(error))
            return
        yield index, None, record
        index += 1


class _Unreadable(str):
    """Why a record could not be read as JSON (kept apart from records that are strings)."""


def load_official(path: str | Path, *, check_answers: bool = True) -> Loaded:
    """Instances from a released-format file (see read_official). A file that cannot be read
    (missing, a folder) is one Problem, as is an array that is not UTF-8."""
    return load_file(path, partial(read_official, check_answers=check_answers))


def read_official(text: str | bytes, name: str = "<official>", *,
                  check_answers: bool = True) -> Loaded:
    """Instances from released-format text (or its UTF-8 bytes), plus a Problem per record that
    could not be used. `name` is the file's path: problems name it, and ids and difficulty come
    from it. With `check_answers=False` a record's wrong answer is kept, not a Problem."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    path = Path(name)
    merged: dict[tuple[str, ...], Instance] = {}
    problems: list[Problem] = []
    prefix = f"{path.parent.name}/" if path.parent.name in ("easy", "hard") else ""
    for index, line, record in _records(data):
        if index is None:  # the whole file
            problems.append(Problem(name, None, None, "<file>", str(record)))
            continue
        stated_id = record.get("id") if isinstance(record, dict) else None
        instance_id = stated_id if isinstance(stated_id, str) and stated_id else \
            f"{prefix}{path.stem}-{index}"
        if isinstance(record, _Unreadable):
            problems.append(Problem(name, index, None, "<record>", str(record), line))
            continue
        try:
            people, statements, partition, query = _parse_record(record, check_answers)
        except FieldError as error:
            problems.append(Problem(name, index, instance_id, error.field, error.message,
                                    line))
            continue
        key = (*people, "\n", *(s.text for s in statements))
        if key in merged:  # another question about a graph seen before
            merged[key] = replace(merged[key], queries=(*merged[key].queries, query))
        else:
            merged[key] = Instance(instance_id, _difficulty(record, path, len(people)), people,
                                   tuple(statements), partition, (query,), None,
                                   f"official:{path.name}")
    return Loaded(list(merged.values()), problems)
