"""The reports' statistics against values worked by hand: the permutation test by enumerating
every split, the small-sample rule, the seeded bootstrap and the shared table writer."""

from __future__ import annotations

import itertools
import json

import pytest

from server.reports import stats
from server.reports.tables import render, share, with_interval


def test_a_small_permutation_test_is_exact():
    a, b = [1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]
    pooled = a + b
    observed = sum(a) / 3 - sum(b) / 4
    splits = []
    for picked in itertools.combinations(range(7), 3):
        x = [pooled[i] for i in picked]
        y = [pooled[i] for i in range(7) if i not in picked]
        splits.append(sum(x) / 3 - sum(y) / 4)
    greater = sum(s >= observed - 1e-12 for s in splits) / len(splits)
    less = sum(s <= observed + 1e-12 for s in splits) / len(splits)
    found = stats.compare_ratios((a, [1.0] * 3), (b, [1.0] * 4))
    assert found.p_value == pytest.approx(min(1.0, 2 * min(greater, less)))
    assert found.difference == pytest.approx(observed)
    assert found.effect_name == "Cohen's d"
    assert "too few games" in found.warning


def test_a_ratio_test_permutes_whole_games():
    # the ratio is of sums (3/4 against 1/4): not the mean of per-game shares
    found = stats.compare_ratios(([1.0, 2.0], [2.0, 2.0]), ([0.0, 1.0], [2.0, 2.0]))
    assert found.difference == pytest.approx(0.75 - 0.25)
    assert found.effect is None and found.effect_name == ""


def test_the_small_sample_rule():
    assert stats.small_sample(9, 50) is not None
    assert stats.small_sample(10, 10) is None
    # 10 a side, but 1 success in 20: an expected count of 0.5
    assert "expected count" in stats.small_sample(10, 10, [[1, 9], [0, 10]])
    assert stats.small_sample(20, 20, [[10, 10], [12, 8]]) is None


def test_rates_means_and_their_intervals():
    assert stats.rate(0, 0) == stats.Estimate(None, None, None)
    found = stats.rate(3, 10)
    assert found.value == 0.3 and found.low < 0.3 < found.high
    once = stats.mean([1.0, 2.0, 3.0, 10.0], seed=4)
    assert once == stats.mean([1.0, 2.0, 3.0, 10.0], seed=4)  # seeded
    assert 1.0 <= once.low <= once.value == 4.0 <= once.high <= 10.0
    assert stats.mean([5.0]) == stats.Estimate(5.0, None, None)


def test_one_table_writer_for_every_format():
    columns = {"who": "who", "value": "value"}
    rows = [{"who": "a,b", "value": 0.5}, {"who": "c", "value": None}]
    assert render(columns, rows, "csv") == 'who,value\n"a,b",0.5\nc,'
    assert json.loads(render(columns, rows, "json")) == rows
    assert render(columns, rows, "md").splitlines()[2] == "| a,b | 0.5 |"
    text = render(columns, rows, "table", {"value": share}).splitlines()
    assert text == ["who  value", "a,b  50.0%", "c        —"]
    assert with_interval(0.125, (0.05, 0.3)) == "12.5% [5%-30%]"
    assert with_interval(None, (0.05, 0.3)) == "—"
