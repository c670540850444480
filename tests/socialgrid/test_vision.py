"""Field of view: radius, occlusion by walls and closed doors, the ASCII patch."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.socialgrid.board import Board
from engine.socialgrid.mapgen import generate
from engine.socialgrid.vision import HIDDEN, OUTSIDE, ascii_patch, in_sight, line, visible_tiles

# Two rooms side by side, a door at (6, 3) in the wall x = 6.
TWO_ROOMS = """
#############
#.....#.....#
#.....#.....#
#.T...D.....#
#.....#.....#
#.....#.....#
#############
"""


def test_bresenham_lines_include_both_ends():
    assert line((0, 0), (3, 0)) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert line((0, 0), (2, 2)) == [(0, 0), (1, 1), (2, 2)]
    assert line((0, 0), (0, 0)) == [(0, 0)]
    assert len(line((0, 0), (4, 1))) == 5


def test_open_room_everything_within_radius_is_seen():
    board = generate(14, 1, 1, stations=0, rng=random.Random(0))
    seen = visible_tiles(board, (7, 7), set())
    assert seen == {(x, y) for x in range(3, 12) for y in range(3, 12)}
    assert (12, 7) not in seen  # five tiles away


def test_walls_and_closed_doors_hide_what_is_behind():
    board, closed = Board.parse(TWO_ROOMS)
    seen = visible_tiles(board, (4, 3), closed)
    assert (6, 3) in seen and (6, 2) in seen  # the door and the wall themselves
    assert not any(x > 6 for x, _ in seen)
    assert (2, 3) in seen and (2, 2) in seen  # stations do not block sight
    opened = visible_tiles(board, (4, 3), set())
    assert {(7, 3), (8, 3)} <= opened  # straight through the doorway
    assert (7, 1) not in opened and (8, 5) not in opened  # the wall still hides the corners


def test_global_mode_sees_the_whole_map():
    board, closed = Board.parse(TWO_ROOMS)
    assert len(visible_tiles(board, (1, 1), closed, radius=None)) == board.width * board.height


def test_patch_is_nine_by_nine_with_hidden_and_outside_tiles():
    board, closed = Board.parse(TWO_ROOMS)
    overlays = {(4, 3): ">", (8, 3): "P"}
    patch = ascii_patch(board, (4, 3), visible_tiles(board, (4, 3), closed), closed, overlays)
    assert patch == [
        OUTSIDE * 9,
        "#######??",
        "#.....#??",
        "#.....#??",
        "#.T.>.D??",  # the player behind the closed door is not drawn
        "#.....#??",
        "#.....#??",
        "#######??",
        OUTSIDE * 9,
    ]
    assert HIDDEN == "?"
    patch = ascii_patch(board, (4, 3), visible_tiles(board, (4, 3), set()), set(), overlays)
    assert patch[4] == "#.T.>.O.P"


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_sight_is_symmetric(seed, data):
    board = generate(7, 2, 2, stations=6, rng=random.Random(seed))
    closed = {d for d in board.doors if data.draw(st.booleans())}
    ax, ay = data.draw(st.sampled_from(sorted(board.floor)))
    seen = visible_tiles(board, (ax, ay), closed)
    for bx in range(ax - 4, ax + 5):
        for by in range(ay - 4, ay + 5):
            if board.in_bounds((bx, by)):
                there = in_sight(board, (ax, ay), (bx, by), closed)
                assert there == in_sight(board, (bx, by), (ax, ay), closed)
                assert there == ((bx, by) in seen)
