"""One Social Graph instance, its dictionary form, its content hash, and the checks that a
loaded instance is sound (sentences say what their edges say, the groups follow from the
sentences, every stored answer is right). Errors name the field, so a bad record in a file can be
reported precisely and skipped while the others load. With `check_answers=False` the stored
answers are kept as they are, right or wrong (they must still be answers of their kind), so a
tool can compare them with the solver's (`parlor maze solve`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from engine.instance_files import (
    FieldError,
)
from engine.social_graph.graph import Edge, Partition, people_labels
from engine.social_graph.queries import (
    SUBJECT_SIZE,
    Kind,
    Query,
    format_value,
    read_answer,
    truth_value,
)
from engine.social_graph.solver import solve
from engine.social_graph.statements import Statement, parse_statement

FORMAT = "parlor.social_graph/1"
DIFFICULTIES = ("easy", "hard", "custom")


@dataclass(frozen=True, slots=True)
class Instance:
    """A puzzle: the people, the sentences shown (with the edges they state), the groups those
    sentences determine, and the questions with their canonical answers. `seed` and `source`
    record where it came from; they are not part of its content."""

    id: str
    difficulty: str
    people: tuple[str, ...]
    statements: tuple[Statement, ...]
    partition: Partition
    queries: tuple[Query, ...]
    seed: int | None = None
    source: str = ""

    @property
    def edges(self) -> tuple[Edge, ...]:
        return tuple(statement.edge for statement in self.statements)

    def content(self) -> dict[str, Any]:
        """Everything a player sees and is scored on, as plain JSON values."""
        return {
            "difficulty": self.difficulty,
            "people": list(self.people),
            "statements": [{"a": s.edge.a, "b": s.edge.b, "relation": s.edge.relation,
                            "text": s.text} for s in self.statements],
            "groups": [list(group) for group in self.partition.groups],
            "queries": [{"kind": str(q.kind), "subject": list(q.subject), "question": q.question,
                         "answer": q.answer} for q in self.queries],
        }

    def content_hash(self) -> str:
        """sha256 of the canonical JSON of `content()`: equal for the same puzzle whatever its
        id or provenance, different after any change a player could notice."""
        canonical = json.dumps(self.content(), sort_keys=True, separators=(",", ":"),
                               ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def to_dict(self) -> dict[str, Any]:
        """The record of our JSONL format (see docs/rules/social-graph.md)."""
        return {"format": FORMAT, "id": self.id, "seed": self.seed, "source": self.source,
                **self.content(), "sha256": self.content_hash()}


def _typed(record: dict[str, Any], key: str, kind: type, what: str, prefix: str = "") -> Any:
    """record[key] if it is of `kind` (never a bool standing in for a number or a string)."""
    if key not in record:
        raise FieldError(prefix + key, "missing")
    value = record[key]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise FieldError(prefix + key, f"expected {what}, got {json.dumps(value)[:60]}")
    return value


def _names(value: Any, field: str, people: tuple[str, ...] | None = None) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise FieldError(field, f"expected a list of names, got {json.dumps(value)[:60]}")
    for name in value if people is not None else ():
        if name not in people:
            raise FieldError(field, f"{name!r} is not one of the people")
    return tuple(value)


def _statement(value: Any, field: str, people: tuple[str, ...]) -> Statement:
    if not isinstance(value, dict):
        raise FieldError(field, "expected an object with a, b, relation and text")
    prefix = f"{field}."
    a, b = (_typed(value, key, str, "a name", prefix) for key in ("a", "b"))
    for key, name in (("a", a), ("b", b)):
        if name not in people:
            raise FieldError(prefix + key, f"{name!r} is not one of the people")
    if a == b:
        raise FieldError(field, f"a relationship needs two different people, got {a} twice")
    relation = _typed(value, "relation", str, "'good' or 'bad'", prefix)
    if relation not in ("good", "bad"):
        raise FieldError(prefix + "relation", f"expected 'good' or 'bad', got {relation!r}")
    return Statement(Edge(a, b, relation == "good"), _typed(value, "text", str, "a sentence",
                                                             prefix))


def _query(value: Any, field: str, people: tuple[str, ...]) -> Query:
    if not isinstance(value, dict):
        raise FieldError(field, "expected an object with kind, subject, question and answer")
    prefix = f"{field}."
    kind_name = _typed(value, "kind", str, "a query kind", prefix)
    if kind_name not in tuple(Kind):
        raise FieldError(f"{field}.kind", f"expected one of {', '.join(Kind)}, got {kind_name!r}")
    kind = Kind(kind_name)
    subject = _names(value.get("subject"), f"{field}.subject", people)
    if len(subject) != SUBJECT_SIZE[kind] or len(set(subject)) != len(subject):
        raise FieldError(f"{field}.subject",
                         f"a {kind} query is about {SUBJECT_SIZE[kind]} different people")
    return Query(kind, subject, _typed(value, "question", str, "text", prefix),
                 _typed(value, "answer", str, "text", prefix))


def instance_from_dict(record: Any, *, check_answers: bool = True) -> Instance:
    """An Instance from a record of our JSONL format, fully checked (raises FieldError). With
    `check_answers=False` a wrong stored answer is kept (see `validate`), and the stored hash may
    also be the one of the record with the right answers (an edit of the answers alone)."""
    if not isinstance(record, dict):
        raise FieldError("<record>", "expected a JSON object")
    if record.get("format") != FORMAT:
        raise FieldError("format", f"expected {FORMAT!r}, got {json.dumps(record.get('format'))}")
    instance_id = _typed(record, "id", str, "a non-empty string")
    if not instance_id:
        raise FieldError("id", "must not be empty")
    difficulty = _typed(record, "difficulty", str, "a difficulty")
    if difficulty not in DIFFICULTIES:
        raise FieldError("difficulty", f"expected one of {', '.join(DIFFICULTIES)}, "
                                       f"got {difficulty!r}")
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise FieldError("seed", f"expected an integer or null, got {json.dumps(seed)[:60]}")
    people = _names(record.get("people"), "people")
    if not people or len(people) > 26 or people != people_labels(len(people)):
        raise FieldError("people", "expected the first n capital letters in order: A, B, C, ...")
    statements = tuple(_statement(item, f"statements[{i}]", people)
                       for i, item in enumerate(_typed(record, "statements", list, "a list")))
    groups = _typed(record, "groups", list, "a list of groups")
    try:
        partition = Partition.of(_names(group, f"groups[{i}]", people)
                                 for i, group in enumerate(groups))
    except ValueError as error:
        raise FieldError("groups", str(error)) from None
    queries = tuple(_query(item, f"queries[{i}]", people)
                    for i, item in enumerate(_typed(record, "queries", list, "a list")))
    source = record.get("source") or ""
    if not isinstance(source, str):
        raise FieldError("source", "expected a string")
    instance = Instance(instance_id, difficulty, people, statements, partition, queries, seed,
                        source)
    validate(instance, check_answers=check_answers)
    stored_hash = record.get("sha256")
    if stored_hash is not None and stored_hash != instance.content_hash() and (
            check_answers or stored_hash != _with_right_answers(instance).content_hash()):
        raise FieldError("sha256", f"the content hashes to {instance.content_hash()}, the record "
                                   f"says {stored_hash}")
    return instance


def validate(instance: Instance, *, check_answers: bool = True) -> None:
    """Raise FieldError unless the instance is sound: every sentence states its edge, the groups
    are the ones the sentences determine, and every stored answer is an answer of its kind and
    (unless `check_answers` is False) the right one."""
    for i, statement in enumerate(instance.statements):
        said = parse_statement(statement.text)
        if said is None or (said.pair, said.good) != (statement.edge.pair, statement.edge.good):
            raise FieldError(f"statements[{i}].text",
                             f"{statement.text!r} does not state {statement.edge.relation} "
                             f"{statement.edge.a}–{statement.edge.b}")
    try:
        solved = solve(instance.people, instance.edges)
    except ValueError as error:
        raise FieldError("statements", str(error)) from None
    if solved != instance.partition:
        raise FieldError("groups", f"the statements give {_show(solved)}, the record says "
                                   f"{_show(instance.partition)}")
    for i, query in enumerate(instance.queries):
        stated = read_answer(query.kind, query.answer)
        right = truth_value(query.kind, query.subject, solved)
        if stated is None:
            raise FieldError(f"queries[{i}].answer",
                             f"{query.answer!r} is not a {query.kind} answer")
        if check_answers and stated != right:
            raise FieldError(f"queries[{i}].answer",
                             f"{query.answer!r} is wrong; the statements give "
                             f"{format_value(query.kind, right)!r}")


def _with_right_answers(instance: Instance) -> Instance:
    """The instance with each wrong stored answer replaced by the canonical right one."""
    queries = []
    for query in instance.queries:
        right = truth_value(query.kind, query.subject, instance.partition)
        if read_answer(query.kind, query.answer) != right:
            query = replace(query, answer=format_value(query.kind, right))
        queries.append(query)
    return replace(instance, queries=tuple(queries))


def _show(partition: Partition) -> str:
    return " ".join("{" + ", ".join(group) + "}" for group in partition.groups)
