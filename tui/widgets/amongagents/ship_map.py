"""The Skeld as a schematic map: the 14 rooms on a 5x3 grid, the corridors between them drawn
(side by side `─`, one above the other `│`, corner to corner `╲` `╱`, the four long corridors
as arcs round the edge), and what the seat knows marked on it: where it is, the rooms one corridor
(or, for an impostor, one vent) away, the rooms of its unfinished tasks and the way to the
nearest, a body where it stands, the room its camera watches.

The rooms and corridors come from the env's `board` (its description, public and fixed); only
where each room sits is ours. A room the layout does not place, or a corridor it cannot draw,
is listed under the map, so nothing on the board is ever left out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual.widget import Widget

# Where each room sits (column, row): roughly where it is on The Skeld.
LAYOUT: dict[str, tuple[int, int]] = {
    "Upper Engine": (0, 0), "Medbay": (1, 0), "Cafeteria": (2, 0), "Weapons": (3, 0),
    "Reactor": (0, 1), "Security": (1, 1), "Admin": (2, 1), "O2": (3, 1), "Navigation": (4, 1),
    "Lower Engine": (0, 2), "Electrical": (1, 2), "Storage": (2, 2), "Communications": (3, 2),
    "Shields": (4, 2),
}
# Shorter names for a narrow map, tried when the full ones do not fit.
SHORT = {"Upper Engine": "U.Engine", "Lower Engine": "L.Engine", "Communications": "Comms",
         "Navigation": "Navig.", "Electrical": "Electr."}
COLUMNS, ROWS = 5, 3
MARGIN = 2  # left of the grid: the long corridor down the left side


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


@dataclass
class ShipState:
    """What the map marks, from a seat's private view (empty for a spectator)."""

    here: str | None = None
    exits: set[str] = field(default_factory=set)
    vents: set[str] = field(default_factory=set)  # vent exits (impostors only)
    tasks: set[str] = field(default_factory=set)  # rooms of unfinished tasks
    path: list[str] = field(default_factory=list)  # to the nearest unfinished task
    body: bool = False  # a body where the seat stands
    camera: str | None = None  # the room the last camera view showed

    @classmethod
    def from_private(cls, private: Mapping[str, Any]) -> ShipState:
        if not private.get("location"):
            return cls()
        open_tasks = [t for t in private.get("tasks") or () if not t.get("done")]
        nearest = min(open_tasks, key=lambda t: len(t.get("path") or ()), default=None)
        camera = private.get("camera") or {}
        return cls(here=private["location"], exits=set(private.get("exits") or ()),
                   vents=set(private.get("vents") or ()),
                   tasks={t["room"] for t in open_tasks},
                   path=list((nearest or {}).get("path") or ()),
                   body=bool(private.get("dead_here")), camera=camera.get("room"))


class ShipMap(Widget):
    """Draws the board with a `ShipState` on it; `show(board, state)` redraws."""

    COMPONENT_CLASSES = {"ship-map--room", "ship-map--here", "ship-map--exit", "ship-map--vent",
                         "ship-map--task", "ship-map--path", "ship-map--body",
                         "ship-map--camera", "ship-map--corridor"}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.board: Mapping[str, Any] = {}
        self.state = ShipState()
        self.vent_set: str | None = None

    def show(self, board: Mapping[str, Any] | None, state: ShipState,
             vent_set: str | None = None) -> None:
        self.board, self.state, self.vent_set = board or {}, state, vent_set
        self.refresh(layout=True)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self.lines())

    def render(self) -> Text:
        return Text("\n").join(self.lines())

    # -- drawing ----------------------------------------------------------------------------
    def lines(self) -> list[Text]:
        rooms = [r for r in self.board.get("rooms") or () if isinstance(r, str)]
        if not rooms:
            return [Text("(no map for this game)")]
        grid = {LAYOUT[r]: r for r in rooms if r in LAYOUT}
        shape = _Shape.fitting(grid, self.size.width or 80)
        corridors = {_key(*e) for e in self.board.get("corridors") or () if len(e) == 2}
        drawn: set[tuple[str, str]] = set()
        line = self.get_component_rich_style("ship-map--corridor")

        def joined(a: tuple[int, int], b: tuple[int, int]) -> bool:
            if a in grid and b in grid and _key(grid[a], grid[b]) in corridors:
                drawn.add(_key(grid[a], grid[b]))
                return True
            return False

        top = self._arc(shape, 0, joined, "┌", "┐", "┬")
        bottom = self._arc(shape, ROWS - 1, joined, "└", "┘", "┴")
        left = joined((0, 0), (0, ROWS - 1))
        out = [top] if top.plain.strip() else []
        for row in range(ROWS):
            text = Text(("┌─" if row == 0 else "└─" if row == ROWS - 1 else "│ ") if left
                        else " " * MARGIN, style=line)
            for col in range(COLUMNS):
                text.append_text(self._cell(grid.get((col, row)), shape, col))
                if col < COLUMNS - 1:
                    joins = joined((col, row), (col + 1, row))
                    text.append(("─" if joins else " ") * shape.gap, style=line)
            out.append(text)
            if row < ROWS - 1:
                out.append(self._between(shape, row, joined, left, line))
        if bottom.plain.strip():
            out.append(bottom)
        rest = sorted(corridors - drawn)
        placed = set(grid.values())
        unplaced = [r for r in rooms if r not in placed]
        if unplaced:
            out.append(Text("Also rooms: " + ", ".join(unplaced)))
        if rest:
            out.append(Text("Also corridors: " + ", ".join(f"{a}–{b}" for a, b in rest)))
        return out

    def _cell(self, room: str | None, shape: _Shape, col: int) -> Text:
        width = shape.widths[col]
        if room is None:
            return Text(" " * width)
        s, style = self.state, self.get_component_rich_style
        lead, lead_style = " ", ""
        if room == s.here:
            lead, lead_style = "●", style("ship-map--here")
        elif room in s.exits:
            lead, lead_style = "›", style("ship-map--exit")
        elif room in s.vents:
            lead, lead_style = "≋", style("ship-map--vent")
        tail, tail_style = " ", ""
        if room == s.here and s.body:
            tail, tail_style = "✝", style("ship-map--body")
        elif room in s.tasks:
            tail, tail_style = "!", style("ship-map--task")
        elif room == s.camera:
            tail, tail_style = "◉", style("ship-map--camera")
        name = shape.name(room)
        name_style = (style("ship-map--here") if room == s.here
                      else style("ship-map--path") if room in s.path[1:]
                      else style("ship-map--room"))
        text = Text(lead, style=lead_style)
        text.append(name, style=name_style)
        text.append(tail, style=tail_style)  # beside the name, not across the gap from it
        text.append(" " * (width - 2 - len(name)))
        return text

    def _between(self, shape: _Shape, row: int, joined: Any, left: bool, line: Any) -> Text:
        """The line under grid row `row`: `│` under a room joined to the one below, `╲` `╱`
        (or `╳`) in a gap crossed corner to corner."""
        chars = [" "] * shape.width
        if left:
            chars[0] = "│"
        for col in range(COLUMNS):
            if joined((col, row), (col, row + 1)):
                chars[shape.middle(col)] = "│"
            if col < COLUMNS - 1:
                down = joined((col, row), (col + 1, row + 1))
                up = joined((col + 1, row), (col, row + 1))
                if down or up:
                    x = shape.start(col + 1) - (shape.gap + 1) // 2
                    chars[x] = "╳" if down and up else "╲" if down else "╱"
        return Text("".join(chars).rstrip(), style=line)

    def _arc(self, shape: _Shape, row: int, joined: Any, start: str, end: str,
             tee: str) -> Text:
        """The long corridors of an edge row (two or more columns apart) as one arc past it,
        with a tee where one corridor ends and the next begins."""
        ends = [(a, b) for a in range(COLUMNS) for b in range(a + 2, COLUMNS)
                if joined((a, row), (b, row))]
        chars = [" "] * shape.width
        for a, b in ends:
            xa, xb = shape.middle(a), shape.middle(b)
            for x in range(xa, xb + 1):
                chars[x] = "─"
        for x in {shape.middle(a) for a, _ in ends}:
            chars[x] = start
        for x in {shape.middle(b) for _, b in ends}:
            chars[x] = tee if chars[x] == start else end
        return Text("".join(chars).rstrip(), style=self.get_component_rich_style(
            "ship-map--corridor"))


@dataclass(frozen=True)
class _Shape:
    """How wide each grid column is (mark, name, mark) and the gap between columns."""

    widths: tuple[int, ...]
    gap: int
    short: bool

    @classmethod
    def fitting(cls, grid: Mapping[tuple[int, int], str], room: int) -> _Shape:
        """The widest shape that fits `room` columns: full names with gaps of two, then one,
        then short names."""
        shape = cls((), 1, True)
        for short in (False, True):
            widths = tuple(2 + max((len(SHORT.get(r, r) if short else r)
                                    for (c, _), r in grid.items() if c == col), default=0)
                           for col in range(COLUMNS))
            for gap in (2, 1):
                shape = cls(widths, gap, short)
                if shape.width <= room:
                    return shape
        return shape

    @property
    def width(self) -> int:
        return MARGIN + sum(self.widths) + self.gap * (COLUMNS - 1)

    def start(self, col: int) -> int:
        return MARGIN + sum(self.widths[:col]) + self.gap * col

    def middle(self, col: int) -> int:
        return self.start(col) + self.widths[col] // 2

    def name(self, room: str) -> str:
        return SHORT.get(room, room) if self.short else room


def vent_pairs(board: Mapping[str, Any], vent_set: str | None) -> list[tuple[str, str]]:
    """The vents of the table's vent set, as (room, room) pairs."""
    return [(a, b) for a, b in (board.get("vents") or {}).get(vent_set or "", ())]
