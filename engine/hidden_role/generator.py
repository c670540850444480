"""Generating Hidden Role Deduction puzzles (spec socialmaze §3 "Generation").

Roles are dealt (Player 1 gets a role drawn from the chosen distribution), then every player makes
one statement per round, chosen by their actual role — Player 1 too, so a Rumormonger Player 1 may
contradict itself, which is often the clue that gives it away. A deal is kept only when the strict
solver finds exactly one (criminal, Player 1 role) after the last round; otherwise the same random
stream deals again. The paper names the targeting functions F_I and F_C but not their formulas; the
constants below are the spec's suggested ones (docs/rules/hidden-role.md).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from engine.errors import ConfigError
from engine.hidden_role.instance import Instance, Statement
from engine.hidden_role.roles import (
    CRIM,
    INV,
    ROLE_ORDER,
    RUM,
    Role,
    composition,
    p1_weights,
    told_role,
)
from engine.hidden_role.solver import unique_answer

# F_I, the suspicion an Investigator or Rumormonger aims by: w_u = max(EPSILON, 1 + ALPHA *
# accusations(u) + BETA * [u contradicted itself or accused two or more players]
# - GAMMA * distinct players who cleared u).
ALPHA, BETA, GAMMA, EPSILON = 1.0, 1.5, 0.5, 0.1
# F_C, the Criminal's and Lunatic's aim: players who accused the speaker weigh ACCUSER_WEIGHT,
# others 1; they call their target the criminal with P_IS_ACCUSER if it accused them, else P_IS.
ACCUSER_WEIGHT, P_IS_ACCUSER, P_IS = 3.0, 0.8, 0.5
RUMOR_TRUTH = 0.5  # a Rumormonger's statement is true this often, whatever its aim
MAX_ATTEMPTS = 2000
MAX_ROUNDS = 10


class NoUniqueInstanceError(ConfigError):
    """No deal with a unique answer came out within the attempts allowed."""


def suspicion_weights(history: Sequence[Statement], n: int) -> dict[int, float]:
    """F_I's weight of every seat after `history` (the rounds before the current one)."""
    accusations: Counter[int] = Counter()
    clearers: dict[int, set[int]] = defaultdict(set)
    accused_by: dict[int, set[int]] = defaultdict(set)   # speaker -> players it accused
    cleared_by: dict[int, set[int]] = defaultdict(set)   # speaker -> players it cleared
    for s in history:
        if s.claim:
            accusations[s.target] += 1
            accused_by[s.speaker].add(s.target)
        else:
            clearers[s.target].add(s.speaker)
            cleared_by[s.speaker].add(s.target)
    weights = {}
    for u in range(1, n + 1):
        dubious = bool(accused_by[u] & cleared_by[u]) or len(accused_by[u]) >= 2
        w = 1 + ALPHA * accusations[u] + BETA * dubious - GAMMA * len(clearers[u])
        weights[u] = max(EPSILON, w)
    return weights


def accusers(history: Sequence[Statement], seat: int) -> set[int]:
    """Players who have called `seat` the criminal."""
    return {s.speaker for s in history if s.claim and s.target == seat}


def _statement(rng: random.Random, roles: Sequence[Role], history: Sequence[Statement],
               suspicion: Mapping[int, float], t: int, v: int) -> Statement:
    others = [u for u in range(1, len(roles) + 1) if u != v]
    role = roles[v - 1]
    criminal = roles.index(CRIM) + 1
    if role in (INV, RUM):
        u = rng.choices(others, weights=[suspicion[u] for u in others])[0]
        truth = u == criminal
        claim = truth if role is INV or rng.random() < RUMOR_TRUTH else not truth
    else:  # Criminal or Lunatic: F_C
        mine = accusers(history, v)
        u = rng.choices(others, weights=[ACCUSER_WEIGHT if u in mine else 1 for u in others])[0]
        claim = rng.random() < (P_IS_ACCUSER if u in mine else P_IS)
    return Statement(t, v, u, claim)


def play(rng: random.Random, roles: Sequence[Role], rounds: int) -> tuple[Statement, ...]:
    """Every statement of a game with this deal (seat 1 first). A round's statements are made
    together, so each sees only the rounds before it."""
    history: list[Statement] = []
    for t in range(1, rounds + 1):
        suspicion = suspicion_weights(history, len(roles))
        history += [_statement(rng, roles, history, suspicion, t, v)
                    for v in range(1, len(roles) + 1)]
    return tuple(history)


def deal(rng: random.Random, counts: Mapping[Role, int], p1_role: Role) -> tuple[Role, ...]:
    """Player 1 gets `p1_role`; the other roles of the composition are shuffled over seats 2..n."""
    rest = [r for r in ROLE_ORDER for _ in range(counts[r] - (r is p1_role))]
    rng.shuffle(rest)
    return (p1_role, *rest)


def generate(variant: str = "full", n: int = 6, rounds: int = 3,
             p1_distribution: str | Mapping[Role, float] = "uniform", seed: int | str = 0, *,
             instance_id: str | None = None, max_attempts: int = MAX_ATTEMPTS) -> Instance:
    """A puzzle whose answer is unique after the last round; the same arguments always give the
    same puzzle. Player 1's role is drawn once, before any retry, so retries never bend the
    distribution towards roles that are easier to make unique."""
    counts = composition(variant, n)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ConfigError(f"rounds must be 1 to {MAX_ROUNDS}, not {rounds}")
    if max_attempts < 1:
        raise ConfigError("max_attempts must be at least 1")
    weights = p1_weights(p1_distribution, counts)
    rng = random.Random(seed)
    p1_role = rng.choices(list(weights), weights=list(weights.values()))[0]
    for _ in range(max_attempts):
        roles = deal(rng, counts, p1_role)
        instance = Instance(
            id=instance_id or f"hr-{variant}-{n}p-{seed}", variant=variant, n=n, rounds=rounds,
            told=told_role(p1_role), composition=counts, roles=roles,
            statements=play(rng, roles, rounds),
            answer=(roles.index(CRIM) + 1, p1_role.value))
        if unique_answer(instance, rounds) is not None:
            return instance
    raise NoUniqueInstanceError(
        f"no deal of the {variant} variant with {n} players, {rounds} rounds and Player 1 as "
        f"{p1_role} had a unique answer in {max_attempts} attempts (seed {seed!r}); such a game "
        f"may never be solvable — try more rounds, another variant or more attempts")
