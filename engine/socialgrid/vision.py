"""What a player sees: a square of radius 4 around it (a 9x9 patch), with walls and closed doors
hiding what is behind them. Global mode shows the whole map.

Line of sight (docs/rules/socialgrid.md, "Vision"): a tile is in sight when the Bresenham line
from the eye to it, or the one from it back to the eye, crosses no wall or closed door between the
two ends. Taking either direction makes sight symmetric: if A sees B's tile, B sees A's. Blocking
tiles themselves are visible (you see the wall, not what is behind it).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from engine.socialgrid.board import DOOR, DOOR_CLOSED, DOOR_OPEN, Board, Pos

RADIUS = 4
HIDDEN = "?"  # inside the patch but out of sight
OUTSIDE = " "  # beyond the edge of the map


def line(a: Pos, b: Pos) -> list[Pos]:
    """The tiles of the Bresenham line from a to b, both ends included."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x1 > x0 else -1), (1 if y1 > y0 else -1)
    err = dx + dy
    tiles = [(x0, y0)]
    while (x0, y0) != (x1, y1):
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy
        tiles.append((x0, y0))
    return tiles


def in_sight(board: Board, eye: Pos, tile: Pos, closed_doors: Collection[Pos]) -> bool:
    """True when nothing opaque stands strictly between `eye` and `tile` (either line)."""
    for path in (line(eye, tile), line(tile, eye)):
        if not any(board.is_opaque(p, closed_doors) for p in path[1:-1]):
            return True
    return False


def visible_tiles(board: Board, eye: Pos, closed_doors: Collection[Pos],
                  radius: int | None = RADIUS) -> frozenset[Pos]:
    """The map tiles a player at `eye` sees; `radius=None` is global mode (every tile)."""
    if radius is None:
        return frozenset((x, y) for y in range(board.height) for x in range(board.width))
    ex, ey = eye
    return frozenset(
        (x, y)
        for y in range(max(ey - radius, 0), min(ey + radius, board.height - 1) + 1)
        for x in range(max(ex - radius, 0), min(ex + radius, board.width - 1) + 1)
        if in_sight(board, eye, (x, y), closed_doors))


def ascii_patch(board: Board, eye: Pos, visible: Collection[Pos], closed_doors: Collection[Pos],
                overlays: Mapping[Pos, str] | None = None, radius: int = RADIUS) -> list[str]:
    """The (2 * radius + 1)-square patch centred on `eye`, one string per row, in the map legend;
    HIDDEN for tiles out of sight, OUTSIDE beyond the map. `overlays` (players, corpses, the
    viewer's own arrow) are drawn only where they are visible."""
    overlays = overlays or {}
    rows = []
    for y in range(eye[1] - radius, eye[1] + radius + 1):
        chars = []
        for x in range(eye[0] - radius, eye[0] + radius + 1):
            pos = (x, y)
            if not board.in_bounds(pos):
                chars.append(OUTSIDE)
            elif pos not in visible:
                chars.append(HIDDEN)
            elif pos in overlays:
                chars.append(overlays[pos])
            elif board.tile(pos) == DOOR:
                chars.append(DOOR_CLOSED if pos in closed_doors else DOOR_OPEN)
            else:
                chars.append(board.tile(pos))
        rows.append("".join(chars))
    return rows
