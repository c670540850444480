"""Hidden Role Deduction baselines, reading only the seat's view (the statements so far, the
role counts and the role it was told):

- `scripted:solver`: the strict solver (engine/hidden_role/solver.py) on what has been said: the
  answer once it is unique; before that the criminal most answers still allow (ties to the
  lowest seat) and its own role when every answer agrees on it, else Unknown. Perfect at the
  last round of every puzzle our generator keeps.
- `scripted:deceived`: the paper's "always the deceived role" baseline: it names the deceived
  role its told role allows (Rumormonger or Lunatic, when the game has one) and the player most
  often accused as the criminal (ties to the lowest seat).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted
from engine.hidden_role.instance import UNKNOWN, Instance, Statement
from engine.hidden_role.roles import Role, could_be, parse_role
from engine.hidden_role.solver import solve

ENV = "hidden-role"


def puzzle_of(view: Mapping[str, Any]) -> Instance:
    """The puzzle as the seat knows it: the deal unknown (a placeholder), the rest as seen."""
    pub = view["public"]
    counts = {parse_role(name): count for name, count in pub["composition"].items()}
    return Instance(id="seen", variant="", n=pub["players"], rounds=pub["rounds"],
                    told=parse_role(pub["told"]), composition=counts,
                    roles=(), statements=tuple(Statement(*s) for s in pub["statements"]),
                    answer=(0, UNKNOWN))


def _answer(criminal: int, role: str) -> dict[str, str]:
    return {"criminal": str(criminal), "role": role}


class SolverBot(Bot):
    never_awaits = True

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        puzzle = puzzle_of(view)
        answers = solve(puzzle, view["public"]["round"])
        if not answers:  # cannot happen with our puzzles; imported data may be inconsistent
            return Decision(action=_answer(1, UNKNOWN))
        votes = Counter(c for c, _ in answers)
        criminal = min(votes, key=lambda c: (-votes[c], c))
        roles = {r for c, r in answers if c == criminal}
        role = next(iter(roles)).value if len(roles) == 1 else UNKNOWN
        return Decision(action=_answer(criminal, role))


class DeceivedBot(Bot):
    never_awaits = True

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        pub = view["public"]
        told = parse_role(pub["told"])
        deceived = could_be(told)[1]
        has = pub["composition"].get(deceived.value, 0) > 0
        role: Role = deceived if has else told
        accused = Counter(target for _, _, target, claim in pub["statements"] if claim)
        criminal = min(range(1, pub["players"] + 1), key=lambda p: (-accused[p], p))
        return Decision(action=_answer(criminal, role.value))


register_scripted(ENV, "solver", "the strict solver on what has been said: perfect once the "
                                 "answer is unique")(lambda seed: SolverBot())
register_scripted(ENV, "deceived", "the paper's baseline: always the deceived role, the most "
                                   "accused player as the criminal")(lambda seed: DeceivedBot())
