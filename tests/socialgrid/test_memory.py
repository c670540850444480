"""What a SocialGrid game keeps is bounded by bytes, not by how long it runs or how many places
its players visit; configs that would make one table too costly are refused. (Figures:
benchmarks/socialgrid_memory.py.)"""

from __future__ import annotations

import pytest

from engine.core import ConfigError
from engine.registry import get
from engine.socialgrid import rules
from engine.socialgrid.board import FLOOR, RIGHT
from engine.socialgrid.config import MAX_TILES, SocialGridConfig
from engine.socialgrid.moves import Pose
from engine.socialgrid.oracle import Oracle

ENV = get("socialgrid")


def test_the_sight_and_patch_caches_keep_to_their_byte_budgets(monkeypatch):
    monkeypatch.setattr(rules, "SIGHT_BYTES", 60_000)
    monkeypatch.setattr(rules, "PATCH_BYTES", 20_000)
    g = ENV.new_game(ENV.config("navigation", {"impostors": 0}), 1, 3)
    floor = [(x, y) for y in range(g.board.height) for x in range(g.board.width)
             if g.board.tile((x, y)) == FLOOR]
    for x, y in floor:  # seat 0 visits every floor tile of the map
        g.poses[0] = Pose(x, y, RIGHT)
        g.changed()
        g.view(0)
    assert len(floor) > 300
    assert 0 < g._sight.currsize <= 60_000 and len(g._sight) < len(floor)
    assert 0 < g._patches.currsize <= 20_000 and len(g._patches) < len(floor)


def test_a_global_view_keeps_one_set_of_tiles_for_every_place():
    # Before: one whole-map set (~0.8 MB on 77 x 77) per place visited, 4,096 of them.
    g = ENV.new_game(ENV.config("navigation", {"observation": "global"}), 1, 7)
    assert g.sight(0) is g.sight(6)
    assert len(g.sight(0)) == g.board.width * g.board.height
    assert len(g._sight) == 0


def test_the_oracles_fields_keep_to_their_byte_budget():
    g = ENV.new_game(ENV.config("navigation"), 1, 7)
    size = g.oracle.field(g.board.stations[0], g.closed).nbytes
    oracle = Oracle(g.board, max_bytes=5 * size)
    for station in g.board.stations:
        oracle.field(station, g.closed)
    assert len(oracle._fields) == 5 and oracle._fields.currsize <= 5 * size


def test_a_map_larger_than_the_cap_is_refused_with_what_to_do():
    with pytest.raises(ConfigError, match=r"77 x 77 = 5929 tiles; at most 2500.*4x4 rooms of"):
        SocialGridConfig(room_size=18, rows=4, cols=4).validate()
    for preset in ENV.presets.values():  # every paper preset stays within it
        preset.validate()
    assert SocialGridConfig(room_size=10, rows=4, cols=4).validate() is None
    assert 45 * 45 <= MAX_TILES
