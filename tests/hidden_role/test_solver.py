"""The strict solver against a brute force over every deal (itertools.permutations)."""

import itertools
import random

import pytest

from engine.hidden_role.explain import analyse
from engine.hidden_role.instance import Instance, Statement, counts_of
from engine.hidden_role.roles import VARIANTS, Role, composition, could_be, told_role
from engine.hidden_role.solver import consistent, solve, unique_answer, witness


def random_instance(rng: random.Random, n: int, variant: str, rounds: int) -> Instance:
    """Any statements at all (not the generator's habits), so the solver meets odd cases too."""
    counts = composition(variant, n)
    roles = [r for r, k in counts.items() for _ in range(k)]
    rng.shuffle(roles)
    statements = tuple(Statement(t, v, rng.choice([u for u in range(1, n + 1) if u != v]),
                                 rng.random() < 0.4)
                       for t in range(1, rounds + 1) for v in range(1, n + 1))
    return Instance("rand", variant, n, rounds, told_role(roles[0]), counts, tuple(roles),
                    statements, (roles.index(Role.CRIMINAL) + 1, roles[0].value))


def fits(instance: Instance, deal: tuple[Role, ...], t: int) -> bool:
    return all(s.true_if(deal.index(Role.CRIMINAL) + 1) for s in instance.upto(t)
               if deal[s.speaker - 1] is Role.INVESTIGATOR)


def brute_force(instance: Instance, t: int) -> set[tuple[int, Role]]:
    found = set()
    everyone = [r for r, k in instance.composition.items() for _ in range(k)]
    for deal in itertools.permutations(everyone):
        if deal[0] in could_be(instance.told) and fits(instance, deal, t):
            found.add((deal.index(Role.CRIMINAL) + 1, deal[0]))
    return found


CASES = [(seed, n, variant) for seed in range(12) for n in (4, 5, 6) for variant in VARIANTS]


@pytest.mark.parametrize(("seed", "n", "variant"), CASES)
def test_solver_equals_brute_force_on_random_instances(seed, n, variant):
    rng = random.Random(f"{seed}-{n}-{variant}")
    instance = random_instance(rng, n, variant, rounds=rng.choice([1, 2, 3]))
    for t in range(instance.rounds + 1):
        expected = brute_force(instance, t)
        assert solve(instance, t) == expected
        assert {(c, h.p1_role) for h in analyse(instance, t) for c in h.criminals} == expected
        assert (unique_answer(instance, t) is not None) == (len(expected) == 1)


@pytest.mark.parametrize("seed", range(6))
def test_solver_equals_brute_force_with_seven_players(seed):
    instance = random_instance(random.Random(seed), 7, "full", rounds=2)
    assert solve(instance) == brute_force(instance, 2)


@pytest.mark.parametrize("seed", range(20))
def test_witness_is_a_real_deal_for_every_answer_and_none_otherwise(seed):
    rng = random.Random(seed)
    instance = random_instance(rng, rng.choice([5, 6, 8, 10]), rng.choice(VARIANTS), 2)
    answers = solve(instance)
    for p1_role in Role:
        for criminal in range(1, instance.n + 1):
            deal = witness(instance, None, criminal, p1_role)
            if (criminal, p1_role) in answers:
                assert deal is not None and deal[0] is p1_role
                assert deal.index(Role.CRIMINAL) + 1 == criminal
                assert counts_of(deal) == instance.composition
                assert fits(instance, deal, instance.rounds)
            else:
                assert deal is None
                assert not consistent(instance, None, p1_role, criminal)


@pytest.mark.parametrize("told", [Role.INVESTIGATOR, Role.CRIMINAL])
def test_before_any_statement_every_answer_is_open(told):
    rng = random.Random(3)
    instance = random_instance(rng, 6, "full", rounds=1)
    while instance.told is not told:
        instance = random_instance(rng, 6, "full", rounds=1)
    expected = {(c, Role.INVESTIGATOR) for c in range(2, 7)} | \
        {(c, Role.RUMORMONGER) for c in range(2, 7)} if told is Role.INVESTIGATOR else \
        {(1, Role.CRIMINAL)} | {(c, Role.LUNATIC) for c in range(2, 7)}
    assert solve(instance, 0) == expected
