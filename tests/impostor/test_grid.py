"""The Impostor paper's experiment grid (spec impostor §2.4, §6): the counts, ordered cross-play
pairs and unordered team pairs, the counterbalanced impostor seats and teams, each experiment's
seeded pair shuffle cycled, and a grid that depends on its inputs alone."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations

import pytest

from engine.impostor.config import (
    CROSS_PLAY,
    HOMOGENEOUS,
    MODES,
    TEAM_AWARE,
    TEAM_MODES,
    ImpostorConfig,
)
from engine.impostor.grid import build_grid, grid_games
from engine.impostor.words import TIERS, experiment_pairs
from tests.impostor.helpers import ENV

NINE = [f"model-{i}" for i in range(9)]
THREE = ["alpha", "beta", "gamma"]


def test_nine_models_make_the_papers_756_experiments_and_90720_games():
    grid = build_grid(NINE, 1, games=1)
    assert len(grid) == 756
    per_tier = Counter(e.tier for e in grid)
    assert per_tier == dict.fromkeys(TIERS, 189)
    per_mode = Counter(e.mode for e in grid if e.tier == "easy")
    assert per_mode == {HOMOGENEOUS: 9, CROSS_PLAY: 72, **dict.fromkeys(TEAM_MODES, 36)}
    # one tier at 120 games: a quarter of the paper's 90,720, each model the impostor in a
    # quarter of its 10,080 games
    tier = build_grid(NINE, 1, tiers=["hard"])
    games = list(grid_games(tier))
    assert len(games) * len(TIERS) == 90_720
    assert Counter(g.impostor_model for g in games) == dict.fromkeys(NINE, 10_080 // 4)


def test_three_models_make_18_experiments_per_tier():
    grid = build_grid(THREE, 1, games=4)
    assert len(grid) == 4 * (3 + 6 + 3 * 3)
    assert sum(len(e.games) for e in grid) == 72 * 4


def test_cross_play_pairs_are_ordered_and_team_pairs_unordered():
    grid = build_grid(THREE, 1, games=4, tiers=["easy"])
    by_mode = {m: [e.models for e in grid if e.mode == m] for m in MODES}
    assert by_mode[HOMOGENEOUS] == [(m,) for m in THREE]
    assert by_mode[CROSS_PLAY] == list(permutations(THREE, 2))
    for mode in TEAM_MODES:
        assert by_mode[mode] == list(combinations(THREE, 2))
    assert len({e.id for e in grid}) == len(grid)


def test_cross_play_blocks_of_four_cover_every_seat_once():
    (e,) = build_grid(["imp", "maj"], 5, modes=[CROSS_PLAY], tiers=["easy"])[:1]
    assert e.models == ("imp", "maj")
    seats = [g.config.impostor_seat for g in e.games]
    blocks = [tuple(seats[i:i + 4]) for i in range(0, 120, 4)]
    assert all(sorted(b) == [0, 1, 2, 3] for b in blocks)
    assert len(set(blocks)) > 1  # shuffled, not one fixed order
    for g in e.games:
        assert g.seat_models == tuple("imp" if s == g.config.impostor_seat else "maj"
                                      for s in range(4))
        assert g.config.teams == ()


def test_homogeneous_rotates_the_impostor_seat():
    (e,) = build_grid(["solo"], 5, games=9, modes=[HOMOGENEOUS], tiers=["easy"])
    assert [g.config.impostor_seat for g in e.games] == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert all(g.seat_models == ("solo",) * 4 for g in e.games)


@pytest.mark.parametrize("mode", TEAM_MODES)
def test_team_blocks_of_eight_put_the_impostor_on_each_team_in_every_seat(mode):
    (e,) = build_grid(["a", "b"], 3, modes=[mode], tiers=["medium"])
    assert e.models == ("a", "b")
    for start in range(0, 120, 8):
        block = e.games[start:start + 8]
        for half, team in ((block[:4], "A"), (block[4:], "B")):
            assert sorted(g.config.impostor_seat for g in half) == [0, 1, 2, 3]
            assert all(g.config.teams[g.config.impostor_seat] == team for g in half)
    teammates = Counter()
    for g in e.games:
        teams, odd = g.config.teams, g.config.impostor_seat
        assert sorted(teams) == ["A", "A", "B", "B"] and g.config.mode == mode
        assert g.seat_models == tuple("a" if t == "A" else "b" for t in teams)
        mate = next(s for s in range(4) if s != odd and teams[s] == teams[odd])
        teammates[odd, mate] += 1
    # every seat is the impostor's teammate equally often, from every impostor seat
    assert teammates == {(s, m): 10 for s in range(4) for m in range(4) if s != m}
    assert Counter(g.impostor_model for g in e.games) == {"a": 60, "b": 60}
    for seat in range(4):  # each model holds each seat in half the games
        assert sum(g.seat_models[seat] == "a" for g in e.games) == 60


def test_each_experiment_cycles_a_seeded_shuffle_of_its_tiers_pairs():
    grid = build_grid(["a", "b"], 11, tiers=["expert"], modes=[CROSS_PLAY])
    for e in grid:
        order = experiment_pairs("expert", e.seed)
        played = [g.config.pair_index for g in e.games]
        assert played == [order[g % 75] for g in range(120)]
        assert all(g.tier == "expert" for g in e.games)
    # each experiment its own shuffle
    assert experiment_pairs("expert", grid[0].seed) != experiment_pairs("expert", grid[1].seed)


def test_the_same_inputs_give_the_same_grid_whatever_the_global_random():
    random.seed(1)
    first = build_grid(THREE, 42, games=8)
    state = random.getstate()
    random.seed(2)
    second = build_grid(THREE, 42, games=8)
    assert first == second
    random.setstate(state)
    build_grid(THREE, 42, games=8)
    assert random.getstate() == state  # the grid never draws from the global generator


def test_a_different_run_seed_deals_differently_under_the_same_ids():
    a, b = build_grid(THREE, 1, games=8), build_grid(THREE, 2, games=8)
    assert [e.id for e in a] == [e.id for e in b]
    deal = lambda grid: [(g.seed, g.config.pair_index, g.config.impostor_seat)  # noqa: E731
                         for g in grid_games(grid)]
    assert deal(a) != deal(b)
    assert len({g.seed for g in grid_games(a)}) == len(list(grid_games(a)))


def test_table_seeds_are_distinct_even_when_two_draw_the_same(monkeypatch):
    from engine.impostor import grid as module
    monkeypatch.setattr(module, "table_seed", lambda seed, label: 5)  # every draw collides
    seeds = [g.seed for g in grid_games(module.build_grid(["a", "b"], 1, games=3))]
    assert seeds == list(range(5, 5 + len(seeds)))


def test_a_run_resumes_a_shorter_or_smaller_one():
    short = build_grid(["a", "b"], 9, games=8)
    long = build_grid(["a", "b"], 9, games=20)
    assert all(a.games == b.games[:8] for a, b in zip(short, long, strict=True))
    more = {e.id: e for e in build_grid(["a", "b", "c"], 9, games=8)}
    assert all(more[e.id] == e for e in short)  # adding a model keeps every experiment


def test_subsets_of_tiers_and_modes():
    grid = build_grid(THREE, 1, games=2, tiers=["hard", "easy"], modes=[TEAM_AWARE])
    assert [(e.tier, e.mode) for e in grid] == [("easy", TEAM_AWARE)] * 3 + \
        [("hard", TEAM_AWARE)] * 3


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="twice"):
        build_grid(["a", "a"], 1)
    with pytest.raises(ValueError, match="tier"):
        build_grid(["a"], 1, tiers=["trivial"])
    with pytest.raises(ValueError, match="mode"):
        build_grid(["a"], 1, modes=["free_for_all"])
    with pytest.raises(ValueError, match="at least 1"):
        build_grid(["a"], 1, games=0)
    with pytest.raises(ValueError, match="at least one model"):
        build_grid([], 1)


def test_a_grid_game_is_a_table_the_engine_deals_as_scheduled():
    grid = build_grid(["a", "b"], 4, games=8, tiers=["medium"])
    for g in grid_games(grid):
        assert ImpostorConfig.from_json(g.overrides()) == g.config
        assert 0 <= g.seed < 2**48
        game = ENV.new_game(g.config, g.seed, 4)
        setup = game.record().setup
        assert setup["impostor"] == g.config.impostor_seat
        assert (setup["tier"], setup["pair_index"]) == ("medium", g.config.pair_index)
        assert list(setup.get("teams") or ()) == list(g.config.teams)
