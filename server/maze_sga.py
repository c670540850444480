"""`parlor maze solve` for Social Graph Analysis: read a file with the kit, check each instance's
stored answers against our solver.

The kit's loaders refuse a record whose stored answer is not the one the statements give (a
Problem "... is wrong; the statements give ..."). Such a record is readable, only its ground
truth differs, so it is taken back here and shown as DIFFERS instead: a line of our JSON Lines is
read again without its answers checked; a record of the authors' format (one query a record) is
rebuilt from the Problem, which states both answers (its subject is then unknown).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from server.maze_tasks import Check, Reading


@dataclass
class Differing:
    """A query whose stored answer the kit refused as wrong (subject unknown when rebuilt from
    a Problem)."""

    kind: str
    subject: tuple[str, ...] | None
    solver: str
    stated: str


@dataclass
class Graph:
    """One Social Graph item: a loaded instance, and queries of its id known only to differ."""

    id: str
    instance: Any | None
    differing: list[Differing] = field(default_factory=list)


_QUOTED = r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""  # the repr of a string
_WRONG = re.compile(rf"(?P<stated>{_QUOTED}) is wrong; the (?:statements|sentences) give "
                    rf"(?P<right>{_QUOTED})")
_JSONL_ANSWER = re.compile(r"queries\[\d+\]\.answer")


def read_social_graph(path: Path, data: bytes) -> Reading:
    from engine.social_graph import dataset

    try:
        loaded = dataset.load(path)
    except (OSError, UnicodeDecodeError) as e:
        return Reading([], [f"{path}: cannot read: {e}"])
    items = [(position, Graph(i.id, i)) for position, i in _positions(loaded)]
    by_id = {graph.id: graph for _, graph in items}
    lines = data.split(b"\n")
    problems = []
    for p in loaded.problems:
        wrong = _WRONG.fullmatch(p.message)
        if wrong and _JSONL_ANSWER.fullmatch(p.field) and p.line is not None:
            instance = _unchecked(lines[p.line - 1])
            if instance is not None:
                items.append((p.index, Graph(instance.id, instance)))
                continue
        elif wrong and p.field == "answer":
            differing = _differing(ast.literal_eval(wrong["stated"]),
                                   ast.literal_eval(wrong["right"]))
            name = p.instance_id or f"instance {p.index}"
            graph = by_id.get(name) or by_id.setdefault(name, Graph(name, None))
            if not graph.differing and graph.instance is None:  # after the loaded ones
                items.append((len(data) + p.index, graph))
            graph.differing.append(differing)
            continue
        problems.append(str(p))
    return Reading([graph for _, graph in sorted(items, key=lambda item: item[0])], problems)


def _positions(loaded: Any) -> list[tuple[int, Any]]:
    """The loaded instances with the index of their record, so that a line of our JSON Lines
    taken back from a problem falls into file order: every line is an instance or a problem.
    (Official records of one graph merge into one instance; those taken back follow the
    loaded instances.)"""
    bad = {p.index for p in loaded.problems}
    total = len(loaded.instances) + len(loaded.problems)
    slots = (i for i in range(total + len(bad)) if i not in bad)
    return list(zip(slots, loaded.instances, strict=False))


def _unchecked(line: bytes) -> Any | None:
    """An instance of our JSON Lines record with its stored answers kept but not checked (the
    rest of the record is checked as usual); None if anything else is wrong with it."""
    from engine.social_graph.dataset import instance_from_dict
    from engine.social_graph.queries import Kind, Query

    try:
        record = json.loads(line)
        base = instance_from_dict({**record, "queries": [], "sha256": None})
        queries = tuple(Query(Kind(q["kind"]), tuple(q["subject"]), q["question"], q["answer"])
                        for q in record["queries"])
    except (ValueError, KeyError, TypeError):
        return None
    return replace(base, queries=queries)


def _differing(stated: str, right: str) -> Differing:
    """A wrong answer of the authors' format; its kind is the one `right` (our canonical
    answer) is written in."""
    from engine.social_graph.queries import KINDS, format_value, read_answer

    kind = next((k for k in KINDS if (v := read_answer(k, right)) is not None
                 and format_value(k, v) == right), "?")
    return Differing(str(kind), None, right, stated)


def _short(kind: str, text: str) -> str:
    """An answer as the row shows it: canonical, pair counts as "16 good, 12 bad"."""
    from engine.social_graph.queries import Kind, format_value, read_answer

    if kind not in tuple(Kind):
        return repr(text)
    value = read_answer(Kind(kind), text)
    if value is None:
        return repr(text)
    if kind == Kind.PAIR_COUNT:
        return f"{value[0]} good, {value[1]} bad"
    return format_value(Kind(kind), value)


def check_social_graph(graph: Graph, explain: bool) -> Check:
    from engine.social_graph.queries import Kind, read_answer
    from engine.social_graph.solver import solve, solve_queries

    rows: list[tuple[str, tuple[str, ...] | None, str, str, bool]] = []
    groups = None
    if graph.instance is not None:
        inst = graph.instance
        try:
            solved = solve_queries(inst.people, inst.edges, inst.queries)
            groups = solve(inst.people, inst.edges).groups
        except ValueError as e:  # the kit checks this on loading; kept for safety
            solved = (f"no answer: {e}",) * len(inst.queries)
        for q, mine in zip(inst.queries, solved, strict=True):
            value = read_answer(Kind(q.kind), q.answer)
            rows.append((str(q.kind), q.subject, mine, q.answer,
                         value is not None and value == read_answer(Kind(q.kind), mine)))
    rows += [(d.kind, d.subject, d.solver, d.stated, False) for d in graph.differing]

    def label(kind: str, subject: tuple[str, ...] | None) -> str:
        return kind + ("" if not subject else " " + ",".join(subject))

    solver = "; ".join(f"{label(k, s)}: {_short(k, mine)}" for k, s, mine, _, _ in rows)
    truth = "; ".join(f"{label(k, s)}: {_short(k, stated)}" for k, s, _, stated, _ in rows)
    differ = sorted({k for k, _, _, _, ok in rows if not ok})
    agrees = bool(rows) and not differ
    data: dict[str, Any] = {"id": graph.id, "agrees": agrees, "queries": [
        {"kind": k, "subject": None if s is None else list(s), "solver": mine, "file": stated,
         "agrees": ok} for k, s, mine, stated, ok in rows]}
    text = None
    if explain and groups is not None:
        text = "groups: " + " ".join("{" + ", ".join(g) + "}" for g in groups)
        data["groups"] = [list(g) for g in groups]
    return Check(graph.id, solver or "no queries", truth or "no queries", agrees, data,
                 [(k, ok) for k, _, _, _, ok in rows], text)
