"""Folding per-game metrics (engine/aggregate.py): order-independent sums, means that skip
missing values, medians from value counts, and env aggregates that read a generator once."""

from __future__ import annotations

import statistics

from hypothesis import given
from hypothesis import strategies as st

from engine.aggregate import Fold, Sum, Totals
from engine.conformance import play_random
from engine.registry import get

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(st.lists(st.one_of(finite, st.integers(-1000, 1000)), max_size=30), st.randoms())
def test_a_sum_does_not_depend_on_the_order_of_its_values(values, rng):
    forward, shuffled = Sum(), Sum()
    for v in values:
        forward.add(v)
    mixed = list(values)
    rng.shuffle(mixed)
    for v in mixed:
        shuffled.add(v)
    assert forward.total == shuffled.total
    assert forward.n == len(values)


@given(st.lists(st.one_of(finite, st.integers(-1000, 1000)), max_size=30), st.integers(0, 3),
       st.randoms())
def test_sums_merged_from_shares_equal_one_sum_of_every_value(values, parts, rng):
    whole, merged = Sum(), Sum()
    for v in values:
        whole.add(v)
    shares = [Sum() for _ in range(parts + 1)]  # as `parlor sim --workers` splits games
    for v in values:
        rng.choice(shares).add(v)
    for share in shares:
        merged.merge(share)
    assert (merged.total, merged.n) == (whole.total, whole.n)
    assert type(merged.total) is type(whole.total)


def test_totals_merge_by_name():
    a, b, both = Totals(), Totals(), Totals()
    for totals, values in ((a, {"x": 0.1, "y": 1}), (b, {"x": 0.2, "z": 2.5}),
                           (b, {"y": None})):
        totals.add(values)
        both.add(values)
    a.merge(b)
    assert a.to_dict() == both.to_dict() == {"x": 0.1 + 0.2, "y": 1, "z": 2.5}
    assert a.added == both.added == 3
    assert a.mean("x") == both.mean("x")


def test_a_sum_of_ints_stays_an_int_and_floats_are_correctly_rounded():
    ints, floats = Sum(), Sum()
    for v in (1, 2, 3):
        ints.add(v)
    for v in (0.1,) * 10:
        floats.add(v)
    assert ints.total == 6 and isinstance(ints.total, int)
    assert floats.total == 1.0  # a plain left-to-right sum gives 0.9999999999999999


@given(st.lists(st.sampled_from([0.25, 0.5, 0.75, 1.0]), min_size=1, max_size=25))
def test_medians_from_value_counts_match_statistics_median(depths):
    fold = Fold(1, medians=("depth",))
    for d in depths:
        fold.add({"game": {"depth": d}, "seats": {}})
    assert fold.median("depth") == statistics.median(depths)


def test_means_skip_missing_values_and_void_games_are_seen_not_counted():
    fold = Fold(1).add_all(iter([
        {"game": {"rate": 0.5}, "seats": {"0": {"x": 1, "flag": True, "usage": {"a": 1}}}},
        {"game": {"rate": None}, "seats": {"0": {"x": 2}}},
        {"game": {"void": 1, "rate": 1.0}, "seats": {"0": {"x": 100}}},
    ]))
    assert (fold.games, fold.counted, fold.void) == (3, 2, 1)
    assert fold.game.mean("rate") == 0.5 and fold.seat("0").total("x") == 3
    assert fold.seat_totals() == {"0": {"x": 3}}  # bools and nested dicts are not summed
    assert fold.per_counted(3) == 1.5 and Fold(1).per_counted(3) is None


def test_env_aggregates_read_a_generator_of_per_game_metrics_once():
    for env_id, players in (("colonel-blotto", 2), ("three-player-ipd", 3)):
        env = get(env_id)
        records = [play_random(env, env.default_preset, players, seed).record()
                   for seed in range(6)]
        per_game = [env.game_metrics(r) for r in records]
        reads: list[int] = []
        agg = env.aggregate_metrics(_counted(per_game, reads))
        assert len(reads) == len(records)
        assert agg == env.aggregate_metrics(list(reversed(per_game)))  # order does not matter
        assert agg["overall"]["games"] == 6


def _counted(items, reads):
    """Yields `items`, noting each read in `reads` (a generator can be read only once)."""
    for item in items:
        reads.append(1)
        yield item
