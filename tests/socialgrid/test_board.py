"""The static board: parsing, rendering, room labels and what blocks."""

import pytest

from engine.socialgrid.board import DOOR, DOWN, LEFT, RIGHT, UP, Board

SMALL = """
#####
#.T.#
#.D.#
#B.O#
#####
"""


def test_facing_constants_are_the_papers():
    assert (RIGHT, DOWN, LEFT, UP) == (100, 101, 102, 103)


def test_parse_and_render_round_trip():
    board, closed = Board.parse(SMALL)
    assert (board.width, board.height) == (5, 5)
    assert board.stations == ((2, 1),)
    assert board.button == (1, 3)
    assert board.doors == ((2, 2), (3, 3))
    assert closed == {(2, 2)}
    assert board.tile((2, 2)) == DOOR  # the board keeps no door state
    assert board.render(closed) == SMALL.strip()
    assert board.render(set()).splitlines()[2] == "#.O.#"
    assert board.render(closed, {(1, 1): "P", (3, 1): "C"}).splitlines()[1] == "#PTC#"


def test_walkable_and_opaque_depend_on_the_closed_doors():
    board, closed = Board.parse(SMALL)
    assert board.is_walkable((1, 1), closed)
    assert not board.is_walkable((0, 0), closed)  # wall
    assert not board.is_walkable((2, 1), closed)  # station
    assert not board.is_walkable((1, 3), closed)  # button
    assert not board.is_walkable((2, 2), closed) and board.is_walkable((2, 2), set())
    assert board.is_walkable((3, 3), closed)  # open door
    assert not board.is_walkable((-1, 2), closed)  # off the map
    assert board.is_opaque((0, 0), closed) and board.is_opaque((2, 2), closed)
    assert not board.is_opaque((2, 2), set()) and not board.is_opaque((2, 1), closed)


def test_floor_is_plain_floor_only():
    board, _ = Board.parse(SMALL)
    assert board.floor == {(1, 1), (3, 1), (1, 2), (3, 2), (2, 3)}


def test_labels_name_the_room_column_then_row():
    # Two rows of three 4x4 rooms: walls at x = 0, 5, 10, 15 and y = 0, 5, 10.
    tiles = tuple("#" * 16 if y % 5 == 0 else "".join("#" if x % 5 == 0 else "."
                                                      for x in range(16)) for y in range(11))
    board = Board(4, 2, 3, tiles, (), (), None)
    assert board.label((1, 1)) == "R00(1,1)"
    assert board.label((13, 2)) == "R20(13,2)"  # column 2, row 0
    assert board.label((7, 9)) == "R11(7,9)"
    assert board.room_of((5, 2)) == (0, 0)  # a wall between rooms belongs to the left one
    assert board.room_of((0, 0)) == (0, 0) and board.room_of((15, 10)) == (1, 2)


def test_inconsistent_boards_are_rejected():
    with pytest.raises(ValueError, match="rectangle"):
        Board(3, 1, 1, ("###", "##"), (), (), None)
    with pytest.raises(ValueError, match="listed as"):
        Board(3, 1, 1, ("###", "#.#", "###"), (), ((1, 1),), None)
    with pytest.raises(ValueError, match="unknown tile"):
        Board.parse("#x#")
