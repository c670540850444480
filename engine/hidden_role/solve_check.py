"""`parlor maze solve` for Hidden Role Deduction: read a file into instances (and the file's
problems, as text), and check one instance's stored answer against our solver.

Imported only when a maze command runs, so `parlor --help` loads no kit. The kit's loaders keep
an instance whose stored answer our solver does not reach (they check the answer only against the
roles dealt), so a disagreement is a row like any other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.solve_check import Check, Reading


def read(path: Path, data: bytes) -> Reading:
    """Either format, told apart by the content as the kit does (`dataset.parse`)."""
    from engine.hidden_role import dataset

    instances, problems = dataset.parse(data, str(path))
    return Reading(instances, [str(p) for p in problems])


def _answer(criminal: int, role: str) -> str:
    return f"criminal {criminal}, Player 1 {role}"


def _answers(found: frozenset[tuple[int, Any]]) -> str:
    if len(found) == 1:
        return _answer(*next(iter(found)))
    if not found:
        return "no answer fits"
    roles = sorted({role for _, role in found})
    each = "; ".join(f"{role} with criminal "
                     f"{' or '.join(str(c) for c in sorted(c for c, r in found if r == role))}"
                     for role in roles)
    return f"not unique: {len(found)} answers ({each})"


def check(instance: Any, explain: bool) -> Check:
    """Agrees when our solver's one answer is the stored one; a stored role "Unknown" (the
    authors' mark for "only the criminal is settled") agrees when every answer our solver finds
    has the stored criminal and Player 1's role is left open."""
    from engine.hidden_role.explain import explain as explanation
    from engine.hidden_role.instance import UNKNOWN
    from engine.hidden_role.solver import solve

    found = solve(instance)
    criminal, role = instance.answer
    if role == UNKNOWN:
        agrees = len(found) > 1 and {c for c, _ in found} == {criminal}
    else:
        agrees = found == {(criminal, role)}
    data = {"id": instance.id, "agrees": agrees,
            "solver": {"unique": len(found) == 1,
                       "answers": [{"criminal": c, "role": str(r)} for c, r in sorted(found)]},
            "file": {"criminal": criminal, "role": role}}
    text = explanation(instance) if explain else None
    if text is not None:
        data["explanation"] = text
    return Check(instance.id, _answers(found), _answer(criminal, role), agrees, data,
                 explanation=text)
