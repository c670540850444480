"""The social-deduction kit: alive sets, speaking orders, ballots and plurality with its tie
and skip policies."""

import random

import pytest

from engine.deduction import (
    SKIP,
    SequentialBallot,
    SimultaneousBallot,
    drawn_order,
    living,
    living_of,
    plurality,
    seat_order,
)


def test_alive_sets_and_orders():
    alive = [True, False, True, True]
    assert living(alive) == seat_order(alive) == [0, 2, 3]
    assert living_of(alive, {1, 3}) == [3]
    a, b = drawn_order(random.Random(4), [0, 2, 3]), drawn_order(random.Random(4), [0, 2, 3])
    assert a == b and sorted(a) == [0, 2, 3]


def test_plurality_with_a_unique_leader():
    t = plurality([1, 2, 1, None], {0, 1, 2}, ties="nobody")
    assert (t.chosen, t.tied) == (1, ())
    assert dict(t.counts) == {1: 2, 2: 1}


def test_votes_for_the_ineligible_and_abstentions_do_not_count():
    assert plurality([3, 3, 1], {0, 1, 2}, ties="nobody").chosen == 1
    assert plurality([None, None], {0, 1}, ties="nobody").chosen is None


def test_ties_eject_nobody_or_are_drawn_by_lot():
    t = plurality([0, 1], {0, 1}, ties="nobody")
    assert (t.chosen, t.tied) == (None, (0, 1))
    drawn = {plurality([0, 1], {0, 1}, ties="lot", rng=random.Random(s)).chosen
             for s in range(30)}
    assert drawn == {0, 1}
    with pytest.raises(ValueError):
        plurality([0, 1], {0, 1}, ties="lot")


def test_skips_compete_when_they_count():
    assert plurality([SKIP, SKIP, 1], {0, 1}, ties="nobody", skips_count=True).chosen is None
    assert plurality([SKIP, 1], {0, 1}, ties="nobody", skips_count=True).chosen is None  # tie
    assert plurality([SKIP, 1, 1], {0, 1}, ties="nobody", skips_count=True).chosen == 1
    assert plurality([SKIP, SKIP, 1], {0, 1}, ties="nobody").chosen == 1  # skips ignored


def test_a_sequential_ballot_goes_in_order():
    ballot = SequentialBallot([2, 0, 1])
    assert ballot.voter == 2
    ballot.cast(2, 0)
    with pytest.raises(ValueError):
        ballot.cast(1, 0)
    ballot.drop(0)
    ballot.cast(1, SKIP)
    assert ballot.complete and ballot.choices() == [0, SKIP]


def test_a_simultaneous_ballot_is_secret_until_complete():
    ballot = SimultaneousBallot(frozenset({0, 1}))
    ballot.cast(1, 0)
    with pytest.raises(ValueError):
        ballot.choices()
    with pytest.raises(ValueError):
        ballot.cast(1, 0)
    ballot.cast(0, 1)
    assert ballot.complete and ballot.choices() == [1, 0]
