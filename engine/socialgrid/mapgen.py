"""Map generation: the paper's room sizes and layouts, doors, task stations, the button, spawns.

Every choice the paper leaves open is in docs/rules/socialgrid.md, "Map". The two that make every
map playable by construction:
- Stations and the button stand only on a lattice of "slots" (odd in-room offsets), so no two of
  them touch, not even diagonally, and the ring of floor along every wall stays free. A lone
  blocked tile inside open floor cannot cut it in two, and the free ring keeps every door's
  approach clear: all floor is connected when the doors are open, and each station has free floor
  on all four sides to face it from.
- Each pair of neighbouring rooms shares exactly one door, so the rooms form a connected grid.
"""

from __future__ import annotations

import random
from collections.abc import Collection

from engine.socialgrid.board import BUTTON, DOOR, FLOOR, STATION, WALL, Board, Pos

ROOM_SIZES = (7, 10, 14, 18)
LAYOUTS = ((1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3), (4, 4))


def validate(room_size: int, rows: int, cols: int) -> None:
    """Raise ValueError naming the valid choices unless the size and layout are the paper's."""
    if room_size not in ROOM_SIZES:
        raise ValueError(f"room size {room_size!r} is not supported; valid room sizes: "
                         f"{', '.join(map(str, ROOM_SIZES))}")
    if (rows, cols) not in LAYOUTS:
        raise ValueError(f"room layout {rows}x{cols} is not supported; valid layouts: "
                         f"{', '.join(f'{r}x{c}' for r, c in LAYOUTS)}")


def map_size(room_size: int, rows: int, cols: int) -> tuple[int, int]:
    """(width, height) in tiles: rooms of room_size floor tiles, one shared wall between them."""
    pitch = room_size + 1
    return cols * pitch + 1, rows * pitch + 1


def room_origin(room_size: int, row: int, col: int) -> Pos:
    """The top-left floor tile of a room."""
    pitch = room_size + 1
    return col * pitch + 1, row * pitch + 1


def slots(room_size: int, row: int, col: int) -> list[Pos]:
    """The tiles of a room where a station or the button may stand, in reading order."""
    x0, y0 = room_origin(room_size, row, col)
    offsets = range(1, room_size - 1, 2)  # odd offsets, never on the ring along the walls
    return [(x0 + i, y0 + j) for j in offsets for i in offsets]


def station_capacity(room_size: int, rows: int, cols: int) -> int:
    """How many stations fit beside the button."""
    return rows * cols * len(slots(room_size, 0, 0)) - 1


def generate(room_size: int, rows: int, cols: int, *, stations: int,
             rng: random.Random) -> Board:
    """A map with `stations` task stations and one emergency button, the same for the same rng
    state. Stations are dealt to the rooms in turn (rooms in a random order, a random slot in
    each), so any few consecutive stations are in different rooms when there are enough rooms."""
    validate(room_size, rows, cols)
    capacity = station_capacity(room_size, rows, cols)
    if not 0 <= stations <= capacity:
        raise ValueError(f"{stations} task stations do not fit a {room_size}x{room_size} map of "
                         f"{rows}x{cols} rooms: between 0 and {capacity}")
    width, height = map_size(room_size, rows, cols)
    pitch = room_size + 1
    grid = [[WALL if x % pitch == 0 or y % pitch == 0 else FLOOR for x in range(width)]
            for y in range(height)]

    # One door per pair of neighbouring rooms, anywhere along their shared wall but its two ends.
    doors: list[Pos] = []
    for row in range(rows):
        for col in range(cols):
            x0, y0 = room_origin(room_size, row, col)
            if col + 1 < cols:
                doors.append((x0 + room_size, y0 + rng.randint(1, room_size - 2)))
            if row + 1 < rows:
                doors.append((x0 + rng.randint(1, room_size - 2), y0 + room_size))
    for x, y in doors:
        grid[y][x] = DOOR

    free = {(row, col): slots(room_size, row, col) for row in range(rows) for col in range(cols)}
    for room_slots in free.values():
        rng.shuffle(room_slots)
    rooms = list(free)
    rng.shuffle(rooms)
    button = free[rng.choice(rooms)].pop()
    grid[button[1]][button[0]] = BUTTON

    placed: list[Pos] = []
    while len(placed) < stations:
        for room in rooms:
            if free[room] and len(placed) < stations:
                placed.append(free[room].pop())
    for x, y in placed:
        grid[y][x] = STATION

    return Board(room_size, rows, cols, tuple("".join(line) for line in grid), tuple(doors),
                 tuple(placed), button)


def spawn_tiles(board: Board, count: int, rng: random.Random, *,
                exclude: Collection[Pos] = ()) -> list[Pos]:
    """`count` distinct floor tiles (never doors, stations or the button), none in `exclude`."""
    candidates = sorted(board.floor - set(exclude))
    if count > len(candidates):
        raise ValueError(f"cannot place {count} players on {len(candidates)} free tiles")
    return rng.sample(candidates, count)
