"""What a SocialGrid bot knows of the map, and the geometry it walks by.

A map memory (`GridMap`) is built from the observation patches, with the rules' geometry as a
prior (the outer wall, the wall crossings and the wall tiles next to them, where no door can
be, are walls; a crewmate's own stations are obstacles). Every tile not seen yet is assumed
walkable. A breadth-first distance field to the current goal (`Route`) is computed over it,
stopping one step beyond the bot. Strafes make every direction one step, so tiles, not poses,
are enough; turns only face a door, a station or a victim.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from engine.socialgrid import moves
from engine.socialgrid.board import FACINGS, STEP

Pos = tuple[int, int]

# Map memory tile codes. Unknown tiles are planned through (optimism), blocked ones never.
UNKNOWN, FLOOR, BLOCKED, DOOR = 0, 1, 2, 3
CODES = {"#": BLOCKED, "T": BLOCKED, "B": BLOCKED, ".": FLOOR, "O": DOOR, "D": DOOR,
         "P": FLOOR, "C": FLOOR, "@": FLOOR}
FACING_INDEX = {facing: i for i, facing in enumerate(FACINGS)}
DELTAS = tuple(STEP[f] for f in FACINGS)
# The action that steps / turns towards direction d from facing f, by quarter turns (d - f) % 4.
STEP_BY_QUARTER = (moves.MOVE_FORWARD, moves.STRAFE_RIGHT, moves.MOVE_BACKWARD,
                   moves.STRAFE_LEFT)
TURN_BY_QUARTER = (None, moves.TURN_RIGHT, moves.TURN_BACK, moves.TURN_LEFT)
STEPS = frozenset(STEP_BY_QUARTER)
# Oracle hints worth following.
WALKING = STEPS | {moves.TURN_LEFT, moves.TURN_RIGHT, moves.TURN_BACK, moves.OPEN_DOOR}


def manhattan(a: Iterable[int], b: Iterable[int]) -> int:
    (ax, ay, *_), (bx, by, *_) = a, b
    return abs(ax - bx) + abs(ay - by)


def front_of(x: int, y: int, facing: int) -> Pos:
    dx, dy = STEP[facing]
    return x + dx, y + dy


def direction(src: Pos, dst: Pos) -> int:
    """The facing index that looks from src at the adjacent tile dst."""
    return DELTAS.index((dst[0] - src[0], dst[1] - src[1]))


@lru_cache(maxsize=16)
def _neighbours(width: int, height: int) -> tuple[tuple[tuple[int, ...], ...],
                                                   tuple[tuple[int, ...], ...]]:
    """Per tile index: the neighbour in each facing direction (-1 off the map), and the
    in-bounds neighbours only (for the searches)."""
    by_dir, inside = [], []
    for i in range(width * height):
        x, y = i % width, i // width
        near = tuple((y + dy) * width + x + dx if 0 <= x + dx < width and 0 <= y + dy < height
                     else -1 for dx, dy in DELTAS)
        by_dir.append(near)
        inside.append(tuple(j for j in near if j >= 0))
    return tuple(by_dir), tuple(inside)


class GridMap:
    """What the bot knows of the map: a code per tile, the doors it saw closed, the stations."""

    def __init__(self, width: int, height: int, room_size: int) -> None:
        self.width, self.height = width, height
        self.known = bytearray(width * height)
        self.closed: set[int] = set()
        self.stations: set[Pos] = set()
        self.learned_at: set[Pos] = set()  # places a full patch was read from
        self.by_dir, self.inside = _neighbours(width, height)
        pitch = room_size + 1
        for y in range(height):
            for x in range(width):
                on_x, on_y = x % pitch, y % pitch
                edge = x in (0, width - 1) or y in (0, height - 1)
                crossing = (on_x == 0 and on_y in (0, 1, room_size)) or \
                           (on_y == 0 and on_x in (0, 1, room_size))
                if edge or crossing:
                    self.known[y * width + x] = BLOCKED

    def index(self, pos: Iterable[int]) -> int:
        x, y, *_ = pos
        return y * self.width + x

    def block(self, pos: Pos) -> None:
        self.known[self.index(pos)] = BLOCKED

    def learn(self, rows: list[str], ox: int, oy: int, full: bool) -> list[int]:
        """Read a patch (or the global map) drawn with its top-left tile at (ox, oy); returns
        the tiles newly found blocked. `full=False` reads only door states (terrain does not
        change, so a place already read from has nothing else to teach)."""
        width, height, known, closed = self.width, self.height, self.known, self.closed
        found = []
        for r, row in enumerate(rows):
            y = oy + r
            if not 0 <= y < height or (not full and "D" not in row and "O" not in row):
                continue
            base = y * width + ox
            for c, char in enumerate(row):
                if char == "?" or char == " " or not 0 <= ox + c < width:
                    continue
                i = base + c
                if char == "D":
                    closed.add(i)
                elif char == "O" or (char == "P" and known[i] == DOOR):
                    closed.discard(i)
                if not full:
                    continue
                if char == "T":
                    self.stations.add((ox + c, y))
                code = CODES.get(char, FLOOR)
                old = known[i]
                if old == BLOCKED or old == code or (code == FLOOR and old == DOOR):
                    continue  # a player or body hides the doorway under it
                known[i] = code
                if code == BLOCKED:
                    found.append(i)
        return found

    def field(self, sources: Iterable[int], start: int) -> tuple[list[int], int]:
        """Breadth-first steps from the sources over tiles not known to be blocked (-1: not
        reached), and the farthest step labelled. The search stops one step beyond `start`: a
        way downhill from there only uses nearer tiles, and stepping aside goes at most one
        step uphill."""
        known, inside = self.known, self.inside
        dist = [-1] * len(known)
        frontier = []
        for s in sources:
            if dist[s] < 0:
                dist[s] = 0
                frontier.append(s)
        d = 0
        while frontier and (dist[start] < 0 or d <= dist[start]):
            d += 1
            nxt = []
            for i in frontier:
                for j in inside[i]:
                    if dist[j] < 0 and known[j] != BLOCKED:
                        dist[j] = d
                        nxt.append(j)
            frontier = nxt
        return dist, d


class Route:
    """A distance field to one goal: to stand on it, or (interact) next to it facing it."""

    __slots__ = ("goal", "interact", "dist", "reach")

    def __init__(self, grid: GridMap, goal: Pos, interact: bool, start: int) -> None:
        self.goal, self.interact = goal, interact
        g = grid.index(goal)
        sources = [j for j in grid.by_dir[g] if j >= 0 and grid.known[j] != BLOCKED] \
            if interact else [g]
        self.dist, self.reach = grid.field(sources, start)

    def covers(self, here: int) -> bool:
        """Labelled here and one step beyond (the search stopped early)."""
        return 0 <= self.dist[here] < self.reach

