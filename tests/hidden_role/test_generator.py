"""Generated puzzles: unique answers, the composition, honest Investigators, determinism and
Player 1's role distribution."""

from collections import Counter

import pytest

from engine.errors import ConfigError
from engine.hidden_role.generator import NoUniqueInstanceError, generate, suspicion_weights
from engine.hidden_role.instance import Statement, counts_of
from engine.hidden_role.roles import VARIANTS, Role, composition, told_role
from engine.hidden_role.solver import solve, unique_answer

SEEDS = range(300)


@pytest.mark.parametrize("n", [6, 10])
@pytest.mark.parametrize("variant", VARIANTS)
def test_generated_instances_are_sound(variant, n):
    lied_as_rumormonger = 0
    for seed in SEEDS:
        inst = generate(variant, n, 3, "uniform", seed)
        truth = (inst.criminal, inst.roles[0])
        assert solve(inst, 3) == {truth}
        assert unique_answer(inst, 3) == truth
        assert inst.answer == (truth[0], truth[1].value)
        assert counts_of(inst.roles) == composition(variant, n) == inst.composition
        assert inst.told is told_role(inst.roles[0])
        for t in range(1, 4):
            said = inst.round_statements(t)
            assert sorted(s.speaker for s in said) == list(range(1, n + 1))
            assert all(s.target != s.speaker and 1 <= s.target <= n for s in said)
        for s in inst.statements:
            if inst.role_of(s.speaker) is Role.INVESTIGATOR:  # Player 1 included
                assert s.true_if(inst.criminal)
        if inst.roles[0] is Role.RUMORMONGER:
            lied_as_rumormonger += any(not s.true_if(inst.criminal)
                                       for s in inst.statements if s.speaker == 1)
    if "rumormonger" in variant or variant == "full":
        assert lied_as_rumormonger > 0  # Player 1's statements come from its actual role


def test_the_same_seed_gives_the_same_instance():
    for seed in (0, 7, "table-3"):
        assert generate("full", 10, 3, "released", seed) == generate("full", 10, 3, "released", seed)
    different = {generate("full", 6, 3, "uniform", s).statements for s in range(20)}
    assert len(different) == 20


def test_rounds_and_id_are_honoured():
    inst = generate("lunatic", 6, rounds=5, seed=4, instance_id="mine")
    assert inst.rounds == 5 and inst.id == "mine"
    assert {s.round for s in inst.statements} == {1, 2, 3, 4, 5}
    assert generate("full", 6, seed=4).id == "hr-full-6p-4"


def _p1_shares(variant, distribution, n=6, seeds=range(400)):
    counted = Counter(generate(variant, n, 3, distribution, s).roles[0] for s in seeds)
    return {r: counted[r] / len(seeds) for r in Role}


def test_p1_roles_follow_the_released_distribution():
    shares = _p1_shares("full", "released")
    assert 0.50 < shares[Role.RUMORMONGER] < 0.70
    assert 0.25 < shares[Role.LUNATIC] < 0.45
    assert shares[Role.INVESTIGATOR] < 0.08 and shares[Role.CRIMINAL] < 0.06


def test_p1_roles_follow_the_uniform_distribution():
    for share in _p1_shares("full", "uniform", n=10).values():
        assert 0.17 < share < 0.33


def test_p1_draws_only_roles_the_variant_has():
    shares = _p1_shares("original", "released", seeds=range(300))
    assert shares[Role.RUMORMONGER] == shares[Role.LUNATIC] == 0
    assert 0.48 < shares[Role.INVESTIGATOR] < 0.72  # 3 : 2 between I and C
    shares = _p1_shares("rumormonger", "uniform", seeds=range(300))
    assert shares[Role.LUNATIC] == 0 and all(shares[r] > 0.2 for r in
                                             (Role.INVESTIGATOR, Role.CRIMINAL, Role.RUMORMONGER))


def test_a_game_that_can_never_be_settled_raises_a_clear_error():
    # Four players, one round: a Rumormonger Player 1 makes one statement, which always fits some
    # criminal with Player 1 as the (sole) Investigator, so "Investigator" is never ruled out.
    with pytest.raises(NoUniqueInstanceError, match="unique answer in 50 attempts"):
        generate("full", 4, 1, {Role.RUMORMONGER: 1}, seed=1, max_attempts=50)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"variant": "chaos"}, "unknown variant"),
    ({"n": 3}, "players must be 4 to 12"),
    ({"rounds": 0}, "rounds must be"),
    ({"p1_distribution": "skewed"}, "unknown Player 1 distribution"),
    ({"p1_distribution": {Role.LUNATIC: 1}, "variant": "original"}, "no chance"),
    ({"max_attempts": 0}, "max_attempts"),
])
def test_bad_settings_are_config_errors(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        generate(**kwargs)


def test_suspicion_weights_follow_the_formula():
    history = [Statement(1, 2, 3, True), Statement(1, 4, 3, True), Statement(1, 5, 2, False),
               Statement(1, 6, 2, False), Statement(1, 2, 5, True), Statement(1, 3, 1, False)]
    weights = suspicion_weights(history, 6)
    assert weights[3] == 1 + 2 * 1.0          # accused twice
    assert weights[2] == 1 + 1.5 - 2 * 0.5    # accused two players, cleared by two
    assert weights[1] == 1 - 0.5              # cleared once
    assert weights[4] == 1
    assert suspicion_weights([Statement(1, v, 4, False) for v in (1, 2, 3, 5, 6)], 6)[4] == 0.1
