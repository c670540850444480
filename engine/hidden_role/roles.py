"""The four roles of Hidden Role Deduction, what each is told, the variants' role counts and the
distributions Player 1's actual role is drawn from (spec socialmaze §3, docs/rules/hidden-role.md).

Two roles are deceived about themselves: a Rumormonger is told "Investigator" and a Lunatic is told
"Criminal". So the role Player 1 is told leaves exactly two candidates for its actual role.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from engine.errors import ConfigError


class Role(StrEnum):
    INVESTIGATOR = "Investigator"
    CRIMINAL = "Criminal"
    RUMORMONGER = "Rumormonger"
    LUNATIC = "Lunatic"


INV, CRIM, RUM, LUN = Role.INVESTIGATOR, Role.CRIMINAL, Role.RUMORMONGER, Role.LUNATIC
ROLE_ORDER: tuple[Role, ...] = (INV, CRIM, RUM, LUN)  # the paper's order (I:C:R:L)

_TOLD = {INV: INV, CRIM: CRIM, RUM: INV, LUN: CRIM}

VARIANTS: tuple[str, ...] = ("original", "rumormonger", "lunatic", "full")
MIN_PLAYERS, MAX_PLAYERS = 4, 12

# Player 1's actual role, as weights I:C:R:L. "released" is the paper's released set and Table 8.
P1_DISTRIBUTIONS: dict[str, dict[Role, float]] = {
    "uniform": {INV: 1, CRIM: 1, RUM: 1, LUN: 1},
    "released": {INV: 3, CRIM: 2, RUM: 60, LUN: 35},
}


def told_role(actual: Role) -> Role:
    """What a player of role `actual` is told they are."""
    return _TOLD[actual]


def could_be(told: Role) -> tuple[Role, Role]:
    """The two actual roles a player told `told` may have: the honest one first."""
    if told is INV:
        return (INV, RUM)
    if told is CRIM:
        return (CRIM, LUN)
    raise ValueError(f"nobody is told they are the {told}")


def parse_role(name: str) -> Role:
    """A role from its name in any casing ("lunatic", "Rumourmonger" is accepted too)."""
    key = name.strip().lower().replace("rumour", "rumor")
    for role in Role:
        if role.value.lower() == key:
            return role
    raise ValueError(f"unknown role {name!r}; roles are {', '.join(ROLE_ORDER)}")


def deceived_count(n: int) -> int:
    """How many Rumormongers (and, separately, Lunatics) a variant that has them seats: one per
    five players, at least one — 1 at n = 6 (the paper) and 2 at n = 10 (the released hard set)."""
    return max(1, n // 5)


def composition(variant: str, n: int) -> dict[Role, int]:
    """Role counts of `variant` for `n` players, in ROLE_ORDER, zero counts included."""
    if variant not in VARIANTS:
        raise ConfigError(f"unknown variant {variant!r}; variants are {', '.join(VARIANTS)}")
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ConfigError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {n}")
    k = deceived_count(n)
    rumormongers = k if variant in ("rumormonger", "full") else 0
    lunatics = k if variant in ("lunatic", "full") else 0
    return {INV: n - 1 - rumormongers - lunatics, CRIM: 1, RUM: rumormongers, LUN: lunatics}


def describe_composition(counts: Mapping[Role, int]) -> str:
    """"3 Investigators, 1 Criminal, 1 Rumormonger, 1 Lunatic" (roles with no player left out)."""
    parts = [f"{counts[r]} {r}{'s' if counts[r] != 1 else ''}" for r in ROLE_ORDER if counts.get(r)]
    return ", ".join(parts)


def p1_weights(distribution: str | Mapping[Role, float], counts: Mapping[Role, int]
               ) -> dict[Role, float]:
    """Weights Player 1's actual role is drawn with: the distribution restricted to the roles the
    game actually has (a 'released' draw in the Original variant can only be I or C), so that
    Player 1's role is always one a seat exists for."""
    if isinstance(distribution, str):
        if distribution not in P1_DISTRIBUTIONS:
            raise ConfigError(f"unknown Player 1 distribution {distribution!r}; choose "
                              f"{', '.join(P1_DISTRIBUTIONS)} or give weights per role")
        distribution = P1_DISTRIBUTIONS[distribution]
    if any(w < 0 for w in distribution.values()):
        raise ConfigError("Player 1 role weights must not be negative")
    weights = {r: float(distribution.get(r, 0)) for r in ROLE_ORDER if counts.get(r, 0) > 0}
    if sum(weights.values()) <= 0:
        raise ConfigError("Player 1's role weights give no chance to any role this game has")
    return weights
