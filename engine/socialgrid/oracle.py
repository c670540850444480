"""The Planning Oracle: shortest paths over position x facing, to "interact with tile X".

Costs (docs/rules/socialgrid.md, "Planning oracle"): a step (forward, backward, strafe) costs 1,
any turn action 0.5 (TURN_BACK too: it is one action, like a quarter turn), and a closed door
costs OPEN_DOOR (1) on top of the step through it. The goal of "interact with X" (a task station,
the button, a corpse, a player to kill) is any pose on a walkable tile next to X, facing X.

Opening a door is modelled exactly, without door states in the search: facing a closed door,
OPEN_DOOR then MOVE_FORWARD take the player into the doorway for 2. Any other way into that
doorway after opening it (turn, then strafe or step back in) costs at least as much as entering
forward and turning there, and an optimal path never comes back to a door it opened, so nothing
is lost (the tests compare against a search that does track which doors were opened).

Two ways to ask:
- `astar` (one target) and `nearest` (the closest of several): one plain search each, estimating
  the rest of the way as the Manhattan distance to X minus one, which never overestimates (every
  step moves one tile and costs at least 1; turns are left out of the estimate).
- `Oracle`: per target, a distance field from a reverse Dijkstra out of the goal poses, cached
  per (target, closed doors, static obstacles), so that a distance or a best action afterwards
  is a lookup. Players move every step, so they are never part of a field: `best_action` steps
  around them (dynamic obstacles) instead, and `Oracle.nearest` (the nearest player, asked per
  seat and step) is the A* of `nearest` run over the flat states of the fields, for speed.
"""

from __future__ import annotations

import heapq
import itertools
import math
from array import array
from collections.abc import Callable, Collection, Iterable, Iterator

from cachetools import LRUCache

from engine.socialgrid.board import DOOR, FACINGS, FLOOR, STEP, Board, Pos
from engine.socialgrid.moves import (
    MOVE_BACKWARD,
    MOVE_FORWARD,
    OPEN_DOOR,
    STRAFE_LEFT,
    STRAFE_RIGHT,
    TURN_BACK,
    TURN_LEFT,
    TURN_RIGHT,
    Pose,
    facing_towards,
    front,
    target,
)

INF = math.inf
STEP_COST = 1.0
TURN_COST = 0.5
OPEN_COST = 1.0  # the OPEN_DOOR action; the step through the doorway is paid on top
DETOUR = 4.0  # how much longer than the plain distance a way round players may be
FIELD_BYTES = 8_000_000  # an Oracle's cached fields (40 kB each on the largest map allowed)

FACING_INDEX = {facing: i for i, facing in enumerate(FACINGS)}

# When several actions lie on an optimal path, the first of these wins: walking forward reads
# most naturally, then turning to walk forward, then the sideways and backward steps.
PREFERENCE = (MOVE_FORWARD, OPEN_DOOR, TURN_LEFT, TURN_RIGHT, TURN_BACK, STRAFE_RIGHT,
              STRAFE_LEFT, MOVE_BACKWARD)


def _standable(board: Board, pos: Pos, blocked: Collection[Pos]) -> bool:
    """Tiles a pose may be on: floor and doorways (a closed one once the player has opened it)."""
    return board.tile(pos) in (FLOOR, DOOR) and pos not in blocked


def goal_poses(board: Board, goal: Pos, blocked: Collection[Pos] = ()) -> list[Pose]:
    """The poses from which a player interacts with tile `goal`: next to it, facing it."""
    poses = []
    for dx, dy in STEP.values():
        here = (goal[0] - dx, goal[1] - dy)
        if _standable(board, here, blocked):
            facing = facing_towards(here, goal)
            assert facing is not None
            poses.append(Pose(here[0], here[1], facing))
    return poses


def successors(board: Board, pose: Pose, closed_doors: Collection[Pos],
               blocked: Collection[Pos] = (),
               occupied: Collection[Pos] = ()) -> Iterator[tuple[int, Pose, float]]:
    """(first action, pose after, cost) of every move the search may make from `pose`, in
    PREFERENCE order. OPEN_DOOR stands for "open the door ahead and step into the doorway"."""
    for action in PREFERENCE:
        if action == OPEN_DOOR:
            ahead = front(pose)
            if ahead in closed_doors and board.tile(ahead) == DOOR and ahead not in blocked:
                yield action, Pose(ahead[0], ahead[1], pose.facing), OPEN_COST + STEP_COST
        elif action in (TURN_LEFT, TURN_RIGHT, TURN_BACK):
            yield action, target(pose, action), TURN_COST
        else:
            after = target(pose, action)
            if (board.is_walkable(after.pos, closed_doors) and after.pos not in blocked
                    and after.pos not in occupied):
                yield action, after, STEP_COST


def astar(board: Board, start: Pose, goal: Pos, closed_doors: Collection[Pos],
          blocked: Collection[Pos] = (), limit: float = INF) -> tuple[float, list[int]]:
    """(cost, actions) of a cheapest way from `start` to interact with `goal`; (INF, []) when
    there is none costing at most `limit`. An opened door shows as OPEN_DOOR followed by
    MOVE_FORWARD."""
    cost, actions, _ = _search(board, start, [goal], closed_doors, blocked, limit)
    return cost, actions


def nearest(board: Board, start: Pose, goals: Iterable[Pos], closed_doors: Collection[Pos],
            blocked: Collection[Pos] = (), limit: float = INF) -> tuple[Pos | None, float]:
    """The cheapest of several targets to interact with, and its cost; (None, INF) if none is
    reachable at a cost of at most `limit`. One A* towards all of them: meant for targets that
    move (players), for which a field per target would not be reused."""
    cost, _, goal = _search(board, start, sorted(set(goals)), closed_doors, blocked, limit)
    return goal, cost


def _search(board: Board, start: Pose, goals: list[Pos], closed_doors: Collection[Pos],
            blocked: Collection[Pos], limit: float = INF,
            estimate: Callable[[Pose], float] | None = None
            ) -> tuple[float, list[int], Pos | None]:
    """A* to the first goal pose of any of `goals`: (cost, actions, the goal reached). Poses
    whose estimate passes `limit` are never expanded: a bounded question (a player in sight,
    a detour round a player) stays cheap even when the answer is "no way". `estimate`
    replaces the Manhattan estimate (a distance field that ignores some obstacles is a far
    closer one that still never overestimates)."""
    owners: dict[Pose, Pos] = {}
    for goal in goals:
        for pose in goal_poses(board, goal, blocked):
            owners.setdefault(pose, goal)
    if not owners:
        return INF, [], None

    def manhattan(pose: Pose) -> float:
        x0, y0 = pose.x, pose.y
        best = INF
        for x, y in goals:
            d = abs(x0 - x) + abs(y0 - y)
            if d < best:
                best = d
        return max(best - 1, 0)

    heuristic = estimate or manhattan

    best = {start: 0.0}
    came_from: dict[Pose, tuple[Pose, int]] = {}
    # Among equal estimates the deeper pose goes first (it is closer to being done), then the
    # older one: poses are never compared.
    tie = itertools.count()
    frontier = [(heuristic(start), 0.0, next(tie), start)]
    while frontier:
        _, minus_cost, _, pose = heapq.heappop(frontier)
        cost = -minus_cost
        if cost > best[pose]:
            continue
        if pose in owners:
            reached = owners[pose]
            backwards = []  # the actions from the goal back to the start
            while pose != start:
                pose, action = came_from[pose]
                backwards.extend([MOVE_FORWARD, OPEN_DOOR] if action == OPEN_DOOR else [action])
            return cost, backwards[::-1], reached
        for action, after, step in successors(board, pose, closed_doors, blocked):
            new = cost + step
            if new < best.get(after, INF) and new + heuristic(after) <= limit:
                best[after] = new
                came_from[after] = (pose, action)
                heapq.heappush(frontier, (new + heuristic(after), -new, next(tie), after))
    return INF, [], None


class DistanceField:
    """Cost to interact with one target from every pose, for one set of closed doors and static
    obstacles. Build it through `Oracle.field`, which caches it."""

    def __init__(self, board: Board, goal: Pos, closed_doors: frozenset[Pos],
                 blocked: frozenset[Pos], grid: _Grid | None = None) -> None:
        self.board = board
        self.goal = goal
        self.closed_doors = closed_doors
        self.blocked = blocked
        # Costs are halves below 2**24: exact as 4-byte floats, a quarter of a list's memory.
        self._costs = array("f", _reverse_dijkstra(grid or _Grid(board), board, goal,
                                                   closed_doors, blocked))

    @property
    def nbytes(self) -> int:
        return self._costs.itemsize * len(self._costs) + 200

    def _index(self, pose: Pose) -> int:
        return (pose.y * self.board.width + pose.x) * 4 + FACING_INDEX[pose.facing]

    def distance(self, pose: Pose) -> float:
        """The oracle distance (INF when the target cannot be reached, 0 at a goal pose)."""
        if not self.board.in_bounds(pose.pos):
            return INF
        return self._costs[self._index(pose)]

    def best_action(self, pose: Pose, occupied: Collection[Pos] = ()) -> int | None:
        """An action on a cheapest path (ties broken by PREFERENCE), or None at a goal pose or
        when the target is out of reach. `occupied` are tiles players stand on: if they block
        every optimal first action, the answer is the first action of a cheapest path around
        them costing at most DETOUR more (a bounded search stays cheap), or None when there is
        none (the player waits, or finds its own way)."""
        here = self.distance(pose)
        if here == 0 or here == INF:
            return None
        for action, after, cost in successors(self.board, pose, self.closed_doors, self.blocked,
                                              occupied):
            if cost + self.distance(after) == here:
                return action
        _, actions, _ = _search(self.board, pose, [self.goal], self.closed_doors,
                                self.blocked | frozenset(occupied), here + DETOUR, self.distance)
        return actions[0] if actions else None


class _Grid:
    """A board flattened for the reverse search: tile index y * width + x, whether a pose may
    be on each tile, and each tile's neighbour in the direction of each facing (-1: off the map).
    Made once per board; the fields of all targets share it."""

    def __init__(self, board: Board) -> None:
        self.width = board.width
        self.size = board.width * board.height
        self.standable = [_standable(board, (i % self.width, i // self.width), ())
                          for i in range(self.size)]
        self.neighbours = []
        for i in range(self.size):
            x, y = i % self.width, i // self.width
            self.neighbours.append(tuple(
                (y + dy) * self.width + x + dx if board.in_bounds((x + dx, y + dy)) else -1
                for dx, dy in (STEP[f] for f in FACINGS)))


def _reverse_dijkstra(grid: _Grid, board: Board, goal: Pos, closed_doors: frozenset[Pos],
                      blocked: frozenset[Pos]) -> list[float]:
    """Costs to the goal poses from every (tile, facing), indexed tile * 4 + facing index.

    The search runs the moves of `successors` backwards: a pose is reached from the same tile's
    other three facings by one turn, and from each neighbouring tile with the same facing by one
    step, except a closed doorway, which is entered only forward from the tile behind it, by
    opening the door and stepping in."""
    width, neighbours = grid.width, grid.neighbours
    stand = list(grid.standable)
    closed = [False] * grid.size
    for x, y in blocked:
        if board.in_bounds((x, y)):
            stand[y * width + x] = False
    for x, y in closed_doors:
        if board.in_bounds((x, y)):
            closed[y * width + x] = True

    costs = [INF] * (grid.size * 4)
    frontier = []
    for pose in goal_poses(board, goal, blocked):
        state = (pose.y * width + pose.x) * 4 + FACING_INDEX[pose.facing]
        costs[state] = 0.0
        frontier.append((0.0, state))
    heapq.heapify(frontier)
    push, pop = heapq.heappush, heapq.heappop
    while frontier:
        cost, state = pop(frontier)
        if cost > costs[state]:
            continue
        tile, facing = divmod(state, 4)
        new = cost + TURN_COST
        for other in range(tile * 4, tile * 4 + 4):
            if new < costs[other]:
                costs[other] = new
                push(frontier, (new, other))
        if closed[tile]:
            behind = neighbours[tile][(facing + 2) % 4]
            if behind >= 0 and stand[behind]:
                new = cost + OPEN_COST + STEP_COST
                if new < costs[behind * 4 + facing]:
                    costs[behind * 4 + facing] = new
                    push(frontier, (new, behind * 4 + facing))
        else:
            new = cost + STEP_COST
            for here in neighbours[tile]:
                if here >= 0 and stand[here] and new < costs[here * 4 + facing]:
                    costs[here * 4 + facing] = new
                    push(frontier, (new, here * 4 + facing))
    return costs


def _nearest(grid: _Grid, board: Board, start: Pose, goals: Iterable[Pos],
             closed_doors: Collection[Pos], blocked: Collection[Pos],
             limit: float) -> tuple[Pos | None, float]:
    """`nearest` (the same moves, costs, goal poses, estimate and `limit`) as an A* over the
    flat states of `_reverse_dijkstra`, tile * 4 + facing index. It exists for speed: a view
    asks it for every seat at every step, and with Pose objects, dicts keyed by them and a
    generator of moves that A* took a large part of an episode's time.

    Of equally cheap targets it returns the one whose goal pose it reaches first, not
    necessarily `nearest`'s: settling on, say, the least of them would mean expanding every
    pose as promising as the answer, which nearly doubles the search."""
    width, neighbours, standable = grid.width, grid.neighbours, grid.standable
    blocked_tiles = {y * width + x for x, y in blocked if board.in_bounds((x, y))}
    closed_tiles = {y * width + x for x, y in closed_doors if board.tile((x, y)) == DOOR}
    targets = set(goals)
    owners: dict[int, Pos] = {}
    for goal in targets:
        for pose in goal_poses(board, goal, blocked):
            owners[(pose.y * width + pose.x) * 4 + FACING_INDEX[pose.facing]] = goal
    if not owners:
        return None, INF

    estimates: dict[int, float] = {}  # per tile: the Manhattan distance to a target, minus 1

    def estimate(tile: int) -> float:
        if tile not in estimates:
            y, x = divmod(tile, width)
            estimates[tile] = max(min(abs(x - gx) + abs(y - gy) for gx, gy in targets) - 1, 0)
        return estimates[tile]

    state = (start.y * width + start.x) * 4 + FACING_INDEX[start.facing]
    costs = {state: 0.0}
    # (cost + estimate, -cost, state): among equal sums the deeper state first, as in `_search`
    frontier = [(estimate(state // 4), 0.0, state)]
    while frontier:
        _, minus_cost, state = heapq.heappop(frontier)
        cost = -minus_cost
        if cost > costs[state]:
            continue
        if state in owners:
            return owners[state], cost
        tile, facing = divmod(state, 4)
        moves = [(tile * 4 + turned, TURN_COST) for turned in range(4) if turned != facing]
        for direction, there in enumerate(neighbours[tile]):
            if there < 0 or not standable[there] or there in blocked_tiles:
                continue
            if there not in closed_tiles:  # a step in any direction keeps the facing
                moves.append((there * 4 + facing, STEP_COST))
            elif direction == facing:  # open the door ahead and step into the doorway
                moves.append((there * 4 + facing, OPEN_COST + STEP_COST))
        for after, step in moves:
            new = cost + step
            if new < costs.get(after, INF) and (guess := new + estimate(after // 4)) <= limit:
                costs[after] = new
                heapq.heappush(frontier, (guess, -new, after))
    return None, INF


class Oracle:
    """Distance fields for one board, cached per (target, closed doors, static obstacles); the
    least recently used fields go first once they hold `max_bytes`."""

    def __init__(self, board: Board, max_bytes: int = FIELD_BYTES) -> None:
        self.board = board
        self._fields: LRUCache[tuple, DistanceField] = LRUCache(
            max_bytes, getsizeof=lambda field: field.nbytes)
        self._grid = _Grid(board)

    def field(self, goal: Pos, closed_doors: Collection[Pos],
              blocked: Collection[Pos] = frozenset()) -> DistanceField:
        closed, static = frozenset(closed_doors), frozenset(blocked)
        key = (goal, closed, static)
        found = self._fields.get(key)
        if found is None:
            found = DistanceField(self.board, goal, closed, static, self._grid)
            self._fields[key] = found
        return found

    def distance(self, pose: Pose, goal: Pos, closed_doors: Collection[Pos],
                 blocked: Collection[Pos] = frozenset()) -> float:
        return self.field(goal, closed_doors, blocked).distance(pose)

    def best_action(self, pose: Pose, goal: Pos, closed_doors: Collection[Pos],
                    blocked: Collection[Pos] = frozenset(),
                    occupied: Collection[Pos] = ()) -> int | None:
        return self.field(goal, closed_doors, blocked).best_action(pose, occupied)

    def distances(self, pose: Pose, goals: Iterable[Pos], closed_doors: Collection[Pos],
                  blocked: Collection[Pos] = frozenset()) -> dict[Pos, float]:
        """Distance to each of several targets (e.g. a player's task stations)."""
        return {goal: self.distance(pose, goal, closed_doors, blocked) for goal in goals}

    def nearest(self, pose: Pose, goals: Iterable[Pos], closed_doors: Collection[Pos],
                blocked: Collection[Pos] = frozenset(), limit: float = INF
                ) -> tuple[Pos | None, float]:
        """The closest of several targets (players, for NEAREST_PLAYER_DIST) and its distance
        (None, INF beyond `limit`). The cost is always the module-level `nearest`'s; of
        equally close targets the two may return different ones."""
        return _nearest(self._grid, self.board, pose, goals, closed_doors, blocked, limit)
