"""Movement: each action's effect on a pose and what stops a step."""

import pytest

from engine.socialgrid.board import DOWN, LEFT, RIGHT, UP, Board
from engine.socialgrid.moves import (
    MOVE_BACKWARD,
    MOVE_FORWARD,
    STRAFE_LEFT,
    STRAFE_RIGHT,
    TURN_BACK,
    TURN_LEFT,
    TURN_RIGHT,
    Pose,
    apply_move,
    facing_towards,
    front,
    outcomes,
    turned,
)

ROOM = """
#######
#.....#
#.....#
#.....#
#######
"""

BUSY = """
#######
#..T..#
#.B.D.#
#..O..#
#######
"""


@pytest.mark.parametrize(("facing", "action", "expected"), [
    (RIGHT, MOVE_FORWARD, (4, 2, RIGHT)),
    (RIGHT, MOVE_BACKWARD, (2, 2, RIGHT)),
    (RIGHT, STRAFE_RIGHT, (3, 3, RIGHT)),  # right of facing right is down (y grows down)
    (RIGHT, STRAFE_LEFT, (3, 1, RIGHT)),
    (UP, MOVE_FORWARD, (3, 1, UP)),
    (UP, STRAFE_RIGHT, (4, 2, UP)),
    (UP, STRAFE_LEFT, (2, 2, UP)),
    (DOWN, STRAFE_RIGHT, (2, 2, DOWN)),
    (LEFT, MOVE_BACKWARD, (4, 2, LEFT)),
    (RIGHT, TURN_LEFT, (3, 2, UP)),
    (RIGHT, TURN_RIGHT, (3, 2, DOWN)),
    (RIGHT, TURN_BACK, (3, 2, LEFT)),
    (UP, TURN_LEFT, (3, 2, LEFT)),
    (UP, TURN_RIGHT, (3, 2, RIGHT)),
    (DOWN, TURN_BACK, (3, 2, UP)),
])
def test_each_action(facing, action, expected):
    board, closed = Board.parse(ROOM)
    assert apply_move(board, Pose(3, 2, facing), action, closed) == Pose(*expected)


def test_turns_and_front():
    assert [turned(RIGHT, q) for q in range(4)] == [RIGHT, DOWN, LEFT, UP]
    assert turned(RIGHT, -1) == UP
    assert front(Pose(3, 2, UP)) == (3, 1) and front(Pose(3, 2, LEFT)) == (2, 2)
    assert facing_towards((3, 2), (3, 3)) == DOWN and facing_towards((3, 2), (4, 3)) is None


def test_steps_are_blocked_by_walls_stations_buttons_closed_doors_and_occupants():
    board, closed = Board.parse(BUSY)
    assert apply_move(board, Pose(1, 1, UP), MOVE_FORWARD, closed) is None  # wall
    assert apply_move(board, Pose(2, 1, RIGHT), MOVE_FORWARD, closed) is None  # station
    assert apply_move(board, Pose(2, 1, UP), MOVE_BACKWARD, closed) is None  # button
    assert apply_move(board, Pose(3, 2, RIGHT), MOVE_FORWARD, closed) is None  # closed door
    assert apply_move(board, Pose(3, 2, RIGHT), MOVE_FORWARD, set()) == Pose(4, 2, RIGHT)
    assert apply_move(board, Pose(3, 2, UP), MOVE_BACKWARD, closed) == Pose(3, 3, UP)  # open
    assert apply_move(board, Pose(1, 1, DOWN), MOVE_FORWARD, closed, {(1, 2)}) is None
    # Turns are never blocked, wherever the player stands.
    assert apply_move(board, Pose(1, 1, UP), TURN_LEFT, closed, {(1, 2)}) == Pose(1, 1, LEFT)


def test_outcomes_list_every_possible_movement_in_action_order():
    board, closed = Board.parse(BUSY)
    got = outcomes(board, Pose(1, 1, UP), closed, occupied={(2, 1)})
    assert got == {MOVE_BACKWARD: Pose(1, 2, UP), TURN_LEFT: Pose(1, 1, LEFT),
                   TURN_RIGHT: Pose(1, 1, RIGHT), TURN_BACK: Pose(1, 1, DOWN)}
