"""The Planning Oracle against hand-computed distances and against a brute-force search that
plays the real movement rules (moves.py), opening doors as a player would."""

import heapq
import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.socialgrid.board import DOWN, LEFT, RIGHT, UP, Board
from engine.socialgrid.mapgen import generate
from engine.socialgrid.moves import (
    MOVE_FORWARD,
    MOVEMENT_ACTIONS,
    OPEN_DOOR,
    STRAFE_LEFT,
    TURN_BACK,
    TURN_LEFT,
    TURN_RIGHT,
    Pose,
    apply_move,
    front,
)
from engine.socialgrid.oracle import DETOUR, INF, Oracle, astar, goal_poses, nearest

CORRIDOR = """
###################
#................T#
###################
"""

DOORWAY = """
#########
#...D..T#
#########
"""


def cost_of(action: int) -> float:
    return 0.5 if action in (TURN_LEFT, TURN_RIGHT, TURN_BACK) else 1.0


def brute_force(board, start, goal, closed, blocked):
    """Uniform-cost search over (pose, doors still closed) with the real actions: the movement
    actions of moves.py and OPEN_DOOR on a closed door ahead (cost 1, the door opens)."""
    tie = itertools.count()
    best = {(start, frozenset(closed)): 0.0}
    frontier = [(0.0, next(tie), start, frozenset(closed))]
    while frontier:
        cost, _, pose, shut = heapq.heappop(frontier)
        if cost > best[(pose, shut)]:
            continue
        if front(pose) == goal:
            return cost
        options = []
        for action in MOVEMENT_ACTIONS:
            after = apply_move(board, pose, action, shut, blocked)
            if after is not None:
                options.append((after, shut, cost_of(action)))
        if front(pose) in shut:
            options.append((pose, shut - {front(pose)}, 1.0))
        for after, doors, step in options:
            if cost + step < best.get((after, doors), INF):
                best[(after, doors)] = cost + step
                heapq.heappush(frontier, (cost + step, next(tie), after, doors))
    return INF


def walk(oracle, pose, goal, closed, blocked):
    """Follow best_action to the goal, checking every action keeps to an optimal path; the cost
    paid. Opening a door changes the closed doors, and so the field consulted next."""
    closed = frozenset(closed)
    total, left = 0.0, oracle.distance(pose, goal, closed, blocked)
    while (action := oracle.best_action(pose, goal, closed, blocked)) is not None:
        if action == OPEN_DOOR:
            assert front(pose) in closed
            closed, step = closed - {front(pose)}, 1.0
        else:
            pose, step = apply_move(oracle.board, pose, action, closed, blocked), cost_of(action)
            assert pose is not None
        now = oracle.distance(pose, goal, closed, blocked)
        assert step + now == left, (action, pose)
        total, left = total + step, now
    assert left == 0 and front(pose) == goal
    return total


def test_fifteen_and_a_half_with_one_turn():
    board, closed = Board.parse(CORRIDOR)
    start, station = Pose(1, 1, UP), board.stations[0]
    oracle = Oracle(board)
    assert oracle.distance(start, station, closed) == 15.5
    cost, actions = astar(board, start, station, closed)
    assert cost == 15.5 and len(actions) == 16 and actions.count(TURN_RIGHT) == 1
    # Strafing fifteen times then turning costs the same; the preference walks forward.
    assert oracle.best_action(start, station, closed) == TURN_RIGHT
    assert oracle.best_action(Pose(1, 1, RIGHT), station, closed) == MOVE_FORWARD
    assert oracle.distance(Pose(16, 1, RIGHT), station, closed) == 0
    assert oracle.best_action(Pose(16, 1, RIGHT), station, closed) is None
    assert oracle.distance(Pose(16, 1, LEFT), station, closed) == 0.5
    assert oracle.best_action(Pose(16, 1, LEFT), station, closed) == TURN_BACK


def test_a_closed_door_costs_one_more_and_is_opened_facing_it():
    board, closed = Board.parse(DOORWAY)
    station = board.stations[0]
    oracle = Oracle(board)
    start = Pose(1, 1, RIGHT)
    assert closed == {(4, 1)}
    assert oracle.distance(start, station, closed) == 6  # 2 steps, open, 3 steps
    assert oracle.distance(start, station, set()) == 5
    assert astar(board, start, station, closed) == (6, [MOVE_FORWARD, MOVE_FORWARD, OPEN_DOOR,
                                                        MOVE_FORWARD, MOVE_FORWARD, MOVE_FORWARD])
    assert oracle.best_action(Pose(3, 1, RIGHT), station, closed) == OPEN_DOOR
    # Backing towards the door is no use: it has to be faced to be opened.
    assert oracle.distance(Pose(3, 1, LEFT), station, closed) == 4.5
    assert walk(oracle, start, station, closed, frozenset()) == 6


def test_unreachable_targets():
    board, closed = Board.parse(DOORWAY)
    oracle = Oracle(board)
    walled = frozenset({(5, 1)})
    assert oracle.distance(Pose(1, 1, RIGHT), board.stations[0], closed, walled) == INF
    assert oracle.best_action(Pose(1, 1, RIGHT), board.stations[0], closed, walled) is None
    assert astar(board, Pose(1, 1, RIGHT), board.stations[0], closed, walled) == (INF, [])


def test_players_in_the_way():
    board, closed = Board.parse("""
        #########
        #.......#
        #.......#
        #......T#
        #########
    """)
    oracle = Oracle(board)
    station = board.stations[0]
    start = Pose(4, 3, RIGHT)
    assert oracle.best_action(start, station, closed) == MOVE_FORWARD
    # A player ahead: sidestep around it rather than walk into it.
    # A player ahead: sidestep (up, the wall is below), pass it, sidestep back down: 4.
    assert oracle.best_action(start, station, closed, occupied={(5, 3)}) == STRAFE_LEFT
    assert astar(board, start, station, closed, {(5, 3)})[0] == 4
    # Only the next action is checked against players, who will have moved by the time a path
    # reaches them; but next to the station with players on both goal tiles, nothing is left.
    assert oracle.best_action(start, station, closed, occupied={(6, 3), (7, 2)}) == MOVE_FORWARD
    assert oracle.best_action(Pose(5, 3, RIGHT), station, closed,
                              occupied={(6, 3), (7, 2)}) is None


def test_goal_poses_face_the_target():
    board, _ = Board.parse(CORRIDOR)
    assert goal_poses(board, (17, 1)) == [Pose(16, 1, RIGHT)]
    assert sorted(goal_poses(board, (5, 1))) == [Pose(4, 1, RIGHT), Pose(6, 1, LEFT)]
    assert goal_poses(board, (5, 1), blocked={(4, 1)}) == [Pose(6, 1, LEFT)]
    corner, _ = Board.parse("###\n#..\n#.#")
    assert sorted(goal_poses(corner, (1, 1))) == [Pose(1, 2, UP), Pose(2, 1, LEFT)]


def test_fields_are_cached_per_target_doors_and_obstacles_within_a_byte_budget():
    board = generate(10, 2, 2, stations=4, rng=random.Random(0))
    size = Oracle(board).field(board.stations[0], board.doors).nbytes
    oracle = Oracle(board, max_bytes=2 * size)  # room for two fields
    closed = frozenset(board.doors)
    first = oracle.field(board.stations[0], closed)
    assert oracle.field(board.stations[0], set(board.doors)) is first
    assert oracle.field(board.stations[0], closed - {board.doors[0]}) is not first
    assert oracle.field(board.stations[0], closed, {(1, 1)}) is not first
    assert oracle.field(board.stations[0], closed) is not first  # the oldest was dropped
    assert len(oracle._fields) == 2 and oracle._fields.currsize <= 2 * size


def test_distances_and_nearest():
    board, closed = Board.parse(CORRIDOR)
    oracle = Oracle(board)
    start = Pose(8, 1, RIGHT)
    got = oracle.distances(start, [(17, 1), (3, 1)], closed)
    assert got == {(17, 1): 8, (3, 1): 4.5}
    assert oracle.nearest(start, [(17, 1), (3, 1)], closed) == ((3, 1), 4.5)
    assert oracle.nearest(start, [], closed) == (None, INF)


# --- property tests on small random maps -------------------------------------------------------

@st.composite
def situations(draw, room_sizes=(7,)):
    room = draw(st.sampled_from(room_sizes))
    rows, cols = draw(st.sampled_from([(1, 1), (1, 2), (2, 2)]))
    board = generate(room, rows, cols, stations=draw(st.integers(0, 6)),
                     rng=random.Random(draw(st.integers(0, 2**32))))
    closed = frozenset(d for d in board.doors if draw(st.booleans()))
    floor = sorted(board.floor)
    blocked = frozenset(draw(st.lists(st.sampled_from(floor), max_size=8)))
    start = draw(st.sampled_from([t for t in floor if t not in blocked]))
    facing = draw(st.sampled_from([RIGHT, DOWN, LEFT, UP]))
    things = list(board.stations) + [board.button] + floor
    goal = draw(st.sampled_from(things))
    return board, closed, blocked, Pose(*start, facing), goal


@settings(max_examples=200)
@given(situations())
def test_astar_and_fields_match_brute_force(situation):
    board, closed, blocked, start, goal = situation
    expected = brute_force(board, start, goal, closed, blocked)
    oracle = Oracle(board)
    assert oracle.distance(start, goal, closed, blocked) == expected
    cost, actions = astar(board, start, goal, closed, blocked)
    assert cost == expected
    # The path A* returns is playable and costs what it says.
    pose, shut, paid = start, set(closed), 0.0
    for action in actions:
        if action == OPEN_DOOR:
            shut.discard(front(pose))
            paid += 1
        else:
            pose = apply_move(board, pose, action, shut, blocked)
            paid += cost_of(action)
    if expected == INF:
        assert actions == [] and oracle.best_action(start, goal, closed, blocked) is None
    else:
        assert paid == cost and front(pose) == goal
        assert walk(oracle, start, goal, closed, blocked) == expected


@settings(max_examples=150)
@given(situations(), st.data())
def test_best_action_avoids_players(situation, data):
    board, closed, blocked, start, goal = situation
    free = sorted(board.floor - blocked - {start.pos})
    players = frozenset(data.draw(st.lists(st.sampled_from(free), max_size=4)))
    oracle = Oracle(board)
    action = oracle.best_action(start, goal, closed, blocked, occupied=players)
    here = oracle.distance(start, goal, closed, blocked)

    def way_on(action: int) -> float:
        """The action's cost plus the distance from where it leads (players ignored there)."""
        if action == OPEN_DOOR:  # open it and step into the doorway, as the oracle models it
            x, y = front(start)
            return 2.0 + oracle.distance(Pose(x, y, start.facing), goal, closed, blocked)
        after = apply_move(board, start, action, closed, blocked | players)
        return INF if after is None else cost_of(action) + oracle.distance(after, goal,
                                                                           closed, blocked)

    free = [a for a in (*MOVEMENT_ACTIONS, OPEN_DOOR) if way_on(a) < INF
            and (a != OPEN_DOOR or front(start) in closed)]
    around = astar(board, start, goal, closed, blocked | players, limit=here + DETOUR)[0]
    if action is None:  # there already, out of reach, or no way round within DETOUR
        assert here in (0, INF) or (min(map(way_on, free), default=INF) > here and around == INF)
        return
    assert action in free  # never into a player
    if way_on(action) == here:
        return  # on an optimal path, players ignored
    # Else the first action of a cheapest way round the players (within DETOUR).
    if action == OPEN_DOOR:
        after, step, shut = start, 1.0, closed - {front(start)}
    else:
        after, step, shut = (apply_move(board, start, action, closed, blocked | players),
                             cost_of(action), closed)
    assert step + astar(board, after, goal, shut, blocked | players)[0] == around


@settings(max_examples=60)
@given(situations(), st.data())
def test_nearest_is_the_smallest_distance(situation, data):
    board, closed, blocked, start, goal = situation
    others = data.draw(st.lists(st.sampled_from(sorted(board.floor)), max_size=3))
    oracle = Oracle(board)
    goals = [goal, *others]
    distances = oracle.distances(start, goals, closed, blocked)
    found, distance = oracle.nearest(start, goals, closed, blocked)
    assert distance == min(distances.values())
    assert found is None if distance == INF else distances[found] == distance


@settings(max_examples=150)
@given(situations(room_sizes=(7, 10, 14)), st.data())
def test_oracle_nearest_costs_what_the_reference_search_does(situation, data):
    """Oracle.nearest is the module-level `nearest` over flat states, made for speed: the same
    cost, within a limit or not (also one just at or below the cost), and a target that costs
    it (of equally close ones, maybe another than `nearest` returns)."""
    board, closed, blocked, start, goal = situation
    others = data.draw(st.lists(st.sampled_from(sorted(board.floor)), max_size=5))
    goals = [goal, *others]
    oracle = Oracle(board)
    _, unbounded = nearest(board, start, goals, closed, blocked)
    edges = (unbounded, unbounded - 0.5) if unbounded < INF else ()
    for limit in (INF, 12, *edges):
        _, expected = nearest(board, start, goals, closed, blocked, limit)
        found, cost = oracle.nearest(start, goals, closed, blocked, limit)
        assert cost == expected
        if cost == INF:
            assert found is None
        else:
            assert found in goals and astar(board, start, found, closed, blocked, cost)[0] == cost
