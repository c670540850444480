"""Movement: what each of the seven movement actions does to a pose (x, y, facing).

Movement is egocentric: forward/backward/strafes step one tile relative to the facing and keep it;
turns change the facing and never move. A step into a tile that is not walkable (wall, station,
button, closed door) or that the caller says is occupied (players, corpses) does not happen.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from engine.socialgrid.board import FACINGS, STEP, Board, Pos

# The paper's action ids (spec §5); the non-movement ones are the rules' business.
MOVE_FORWARD, MOVE_BACKWARD, STRAFE_RIGHT, STRAFE_LEFT = 0, 1, 2, 3
TURN_LEFT, TURN_RIGHT, TURN_BACK = 4, 5, 6
NOOP, DO_TASK, OPEN_DOOR, CLOSE_DOOR = 7, 8, 9, 10
REPORT_DEADBODY, CALL_DISCUSSION, KILL = 11, 12, 13

ACTION_NAMES = {
    MOVE_FORWARD: "MOVE_FORWARD", MOVE_BACKWARD: "MOVE_BACKWARD", STRAFE_RIGHT: "STRAFE_RIGHT",
    STRAFE_LEFT: "STRAFE_LEFT", TURN_LEFT: "TURN_LEFT", TURN_RIGHT: "TURN_RIGHT",
    TURN_BACK: "TURN_BACK", NOOP: "NOOP", DO_TASK: "DO_TASK", OPEN_DOOR: "OPEN_DOOR",
    CLOSE_DOOR: "CLOSE_DOOR", REPORT_DEADBODY: "REPORT_DEADBODY",
    CALL_DISCUSSION: "CALL_DISCUSSION", KILL: "KILL",
}
STEPS = (MOVE_FORWARD, MOVE_BACKWARD, STRAFE_RIGHT, STRAFE_LEFT)
TURNS = (TURN_LEFT, TURN_RIGHT, TURN_BACK)
MOVEMENT_ACTIONS = STEPS + TURNS

# Quarter turns clockwise, relative to the facing: the direction a step goes, the turn a turn makes.
_QUARTERS = {MOVE_FORWARD: 0, STRAFE_RIGHT: 1, MOVE_BACKWARD: 2, STRAFE_LEFT: 3,
             TURN_RIGHT: 1, TURN_BACK: 2, TURN_LEFT: 3}


class Pose(NamedTuple):
    x: int
    y: int
    facing: int

    @property
    def pos(self) -> Pos:
        return self.x, self.y


def turned(facing: int, quarters: int) -> int:
    """The facing after `quarters` quarter turns clockwise (negative: anticlockwise)."""
    return FACINGS[(FACINGS.index(facing) + quarters) % 4]


def front(pose: Pose) -> Pos:
    """The tile the pose faces: the one every interaction (task, door, button, kill) targets."""
    dx, dy = STEP[pose.facing]
    return pose.x + dx, pose.y + dy


def facing_towards(src: Pos, dst: Pos) -> int | None:
    """The facing that looks from `src` at the neighbouring tile `dst` (None if not adjacent)."""
    for facing, (dx, dy) in STEP.items():
        if (src[0] + dx, src[1] + dy) == dst:
            return facing
    return None


def target(pose: Pose, action: int) -> Pose:
    """Where a movement action leads if nothing is in the way."""
    quarters = _QUARTERS[action]
    if action in TURNS:
        return Pose(pose.x, pose.y, turned(pose.facing, quarters))
    dx, dy = STEP[turned(pose.facing, quarters)]
    return Pose(pose.x + dx, pose.y + dy, pose.facing)


def is_free(board: Board, pos: Pos, closed_doors: Collection[Pos],
            occupied: Collection[Pos] = ()) -> bool:
    """Can a player step onto this tile now?"""
    return board.is_walkable(pos, closed_doors) and pos not in occupied


def apply_move(board: Board, pose: Pose, action: int, closed_doors: Collection[Pos],
               occupied: Collection[Pos] = ()) -> Pose | None:
    """The pose after a movement action, or None when a step is blocked (turns never are).
    `occupied` holds the tiles of other players and of corpses."""
    after = target(pose, action)
    if action in STEPS and not is_free(board, after.pos, closed_doors, occupied):
        return None
    return after


def outcomes(board: Board, pose: Pose, closed_doors: Collection[Pos],
             occupied: Collection[Pos] = ()) -> dict[int, Pose]:
    """Every movement action possible from `pose` and the pose it leads to, in action order:
    the movement part of ALLOWED_ACTIONS, and the predicted outcomes a mid-level oracle shows."""
    result = {}
    for action in MOVEMENT_ACTIONS:
        after = apply_move(board, pose, action, closed_doors, occupied)
        if after is not None:
            result[action] = after
    return result
