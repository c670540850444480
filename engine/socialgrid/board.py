"""The static SocialGrid map: walls, floor, task stations, doors and the emergency button.

A board never changes during a game. What does change (which doors are closed, where players and
corpses are) is game state, so every function that depends on it takes it as an argument.

Geometry (docs/rules/socialgrid.md, "Map"): a layout of `rows` x `cols` rooms, each with
`room_size` x `room_size` floor tiles inside a one-tile wall that neighbouring rooms share, so the
map is `cols * (room_size + 1) + 1` tiles wide. Origin top-left, x to the right, y down.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cached_property

Pos = tuple[int, int]

# Facings, numbered as the paper prints them; in this order each is a quarter turn clockwise.
RIGHT, DOWN, LEFT, UP = 100, 101, 102, 103
FACINGS = (RIGHT, DOWN, LEFT, UP)
STEP: dict[int, Pos] = {RIGHT: (1, 0), DOWN: (0, 1), LEFT: (-1, 0), UP: (0, -1)}
FACING_NAMES = {RIGHT: "RIGHT", DOWN: "DOWN", LEFT: "LEFT", UP: "UP"}

# Static tile kinds, as stored in `Board.tiles`. A door tile is stored as DOOR whatever its state;
# renders show it as DOOR_OPEN or DOOR_CLOSED from the closed-door set the caller passes.
WALL, FLOOR, STATION, BUTTON, DOOR = "#", ".", "T", "B", "+"
DOOR_OPEN, DOOR_CLOSED = "O", "D"
CORPSE, PLAYER = "C", "P"  # overlay symbols of the legend; the board itself never holds them


@dataclass(frozen=True)
class Board:
    """A SocialGrid map. `tiles` holds one string per row (y = 0 first); `doors`, `stations` and
    `button` repeat where those tiles are, in a fixed order (stations in the order the generator
    placed them, which is the order the rules hand them out)."""

    room_size: int
    rows: int
    cols: int
    tiles: tuple[str, ...]
    doors: tuple[Pos, ...]
    stations: tuple[Pos, ...]
    button: Pos | None

    def __post_init__(self) -> None:
        if not self.tiles or any(len(row) != len(self.tiles[0]) for row in self.tiles):
            raise ValueError("board tiles must be a non-empty rectangle")
        for kind, places in ((DOOR, self.doors), (STATION, self.stations),
                             (BUTTON, () if self.button is None else (self.button,))):
            for pos in places:
                if self.tile(pos) != kind:
                    raise ValueError(f"{pos} is listed as {kind!r} but the tile is "
                                     f"{self.tile(pos)!r}")

    @cached_property
    def width(self) -> int:
        return len(self.tiles[0])

    @cached_property
    def height(self) -> int:
        return len(self.tiles)

    @cached_property
    def _kinds(self) -> dict[Pos, str]:
        """Every tile's kind by position: the rules and the oracle ask millions of times."""
        return {(x, y): kind for y, row in enumerate(self.tiles) for x, kind in enumerate(row)}

    def in_bounds(self, pos: Pos) -> bool:
        return pos in self._kinds

    def tile(self, pos: Pos) -> str:
        """The static kind of a tile; outside the map counts as wall."""
        return self._kinds.get(pos, WALL)

    @cached_property
    def floor(self) -> frozenset[Pos]:
        """Plain floor tiles (not doors, stations or the button): where players may spawn."""
        return frozenset((x, y) for y, row in enumerate(self.tiles)
                         for x, kind in enumerate(row) if kind == FLOOR)

    @cached_property
    def door_set(self) -> frozenset[Pos]:
        return frozenset(self.doors)

    def is_walkable(self, pos: Pos, closed_doors: Collection[Pos]) -> bool:
        """True for floor and open doors. Players and corpses are the caller's business."""
        kind = self.tile(pos)
        return kind == FLOOR or (kind == DOOR and pos not in closed_doors)

    def is_opaque(self, pos: Pos, closed_doors: Collection[Pos]) -> bool:
        """Walls and closed doors block sight; everything else (stations, players...) does not."""
        kind = self.tile(pos)
        return kind == WALL or (kind == DOOR and pos in closed_doors)

    def room_of(self, pos: Pos) -> tuple[int, int]:
        """(row, col) of the room a tile belongs to. A wall or door tile between two rooms belongs
        to the room left of it or above it; the outer wall to the room it surrounds."""
        pitch = self.room_size + 1
        x, y = pos
        col = min(max((x - 1) // pitch, 0), self.cols - 1)
        row = min(max((y - 1) // pitch, 0), self.rows - 1)
        return row, col

    def label(self, pos: Pos) -> str:
        """The position as players read it: "R{room col}{room row}(x,y)", e.g. "R10(18,7)" for
        tile (18, 7) in the room of column 1, row 0 (the digit order is decided in
        docs/rules/socialgrid.md, "Map")."""
        row, col = self.room_of(pos)
        return f"R{col}{row}({pos[0]},{pos[1]})"

    def render(self, closed_doors: Collection[Pos],
               overlays: Mapping[Pos, str] | None = None) -> str:
        """The whole map in the legend of the rules (`#`, `.`, `T`, `B`, `O`/`D`), one line per
        row; `overlays` draws one character over a tile (players, corpses, arrows)."""
        lines = []
        for y, row in enumerate(self.tiles):
            chars = list(row)
            for x, kind in enumerate(row):
                if kind == DOOR:
                    chars[x] = DOOR_CLOSED if (x, y) in closed_doors else DOOR_OPEN
            lines.append(chars)
        for (x, y), char in (overlays or {}).items():
            if self.in_bounds((x, y)):
                lines[y][x] = char
        return "\n".join("".join(chars) for chars in lines)

    @classmethod
    def parse(cls, text: str, *, room_size: int | None = None, rows: int = 1,
              cols: int = 1) -> tuple[Board, frozenset[Pos]]:
        """A board from its rendering (`D` a closed door, `O` an open one), and the closed doors.
        Hand-made maps for tests and examples; the room geometry defaults to one room."""
        lines = [line.strip() for line in text.strip().splitlines()]
        doors, closed, stations, buttons = [], set(), [], []
        tiles = []
        for y, line in enumerate(lines):
            row = []
            for x, char in enumerate(line):
                if char in (DOOR_OPEN, DOOR_CLOSED):
                    doors.append((x, y))
                    if char == DOOR_CLOSED:
                        closed.add((x, y))
                    char = DOOR
                elif char == STATION:
                    stations.append((x, y))
                elif char == BUTTON:
                    buttons.append((x, y))
                elif char not in (WALL, FLOOR):
                    raise ValueError(f"unknown tile {char!r} at ({x}, {y})")
                row.append(char)
            tiles.append("".join(row))
        if len(buttons) > 1:
            raise ValueError("a board has at most one emergency button")
        size = room_size if room_size is not None else max(len(tiles[0]), len(tiles)) - 2
        board = cls(size, rows, cols, tuple(tiles), tuple(doors), tuple(stations),
                    buttons[0] if buttons else None)
        return board, frozenset(closed)
