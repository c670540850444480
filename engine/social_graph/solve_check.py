"""`parlor maze solve` for Social Graph Analysis: read a file with the kit, its stored answers kept
but not checked (`check_answers=False`: everything else about a record is checked as usual), and
compare each stored answer with our solver's, so a wrong one is a DIFFERS row, not a problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.solve_check import Check, Reading


def read(path: Path, data: bytes) -> Reading:
    """Either format, told apart by the content as the kit does (`dataset.read`)."""
    from engine.social_graph import dataset

    loaded = dataset.read(data, str(path), check_answers=False)
    return Reading(loaded.instances, [str(p) for p in loaded.problems])


def _short(kind: Any, text: str) -> str:
    """An answer as the row shows it: canonical, pair counts as "16 good, 12 bad"."""
    from engine.social_graph.queries import Kind, format_value, read_answer

    value = read_answer(kind, text)
    if value is None:
        return repr(text)
    if kind == Kind.PAIR_COUNT:
        return f"{value[0]} good, {value[1]} bad"
    return format_value(kind, value)


def check(instance: Any, explain: bool) -> Check:
    """Agrees when every stored answer is the one our solver gives."""
    from engine.social_graph.queries import read_answer
    from engine.social_graph.solver import solve, solve_queries

    solved = solve_queries(instance.people, instance.edges, instance.queries)
    rows = [(q, mine, read_answer(q.kind, q.answer) == read_answer(q.kind, mine))
            for q, mine in zip(instance.queries, solved, strict=True)]

    def label(q: Any) -> str:
        return str(q.kind) + ("" if not q.subject else " " + ",".join(q.subject))

    solver = "; ".join(f"{label(q)}: {_short(q.kind, mine)}" for q, mine, _ in rows)
    truth = "; ".join(f"{label(q)}: {_short(q.kind, q.answer)}" for q, _, _ in rows)
    agrees = bool(rows) and all(ok for _, _, ok in rows)
    data: dict[str, Any] = {"id": instance.id, "agrees": agrees, "queries": [
        {"kind": str(q.kind), "subject": list(q.subject), "solver": mine, "file": q.answer,
         "agrees": ok} for q, mine, ok in rows]}
    text = None
    if explain:
        groups = solve(instance.people, instance.edges).groups
        text = "groups: " + " ".join("{" + ", ".join(g) + "}" for g in groups)
        data["groups"] = [list(g) for g in groups]
    return Check(instance.id, solver or "no queries", truth or "no queries", agrees, data,
                 [(str(q.kind), ok) for q, _, ok in rows], text)
