"""The map a SocialGrid seat sees: its 9x9 field of view (or the whole map in global mode), two
characters per tile so the grid looks square.

Tiles come from the seat's observation (`patch` with its `origin`, or `map`), in the env's legend:
`#` wall, `.` floor, `T` station, `B` button, `O`/`D` open/closed door, `C` body, `P` player,
`@` the seat itself, `?` out of sight, a blank beyond the edge. Players in sight are drawn with
their seat number and an arrow for their facing, the seat itself as an arrow on a highlight,
its own task stations as T1..T3 coloured by progress. Colours are component classes, styled in
parlor.tcss. A map larger than the widget is cut to a window around the seat."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

ARROWS = {100: "→", 101: "↓", 102: "←", 103: "↑"}
FACING_WORDS = {100: "right", 101: "down", 102: "left", 103: "up"}
SEATS = 10

# Plain tiles: the two characters drawn and the component class that colours them.
TILES = {"#": ("██", "wall"), ".": (" ·", "floor"), "?": ("░░", "unseen"),
         "D": ("▐▌", "door-closed"), "O": ("▕▏", "door-open"), "B": ("B!", "button"),
         "C": (" X", "corpse"), "T": ("T ", "station"), " ": ("  ", "outside")}

SOLID = {TILES[t][0] for t in "#?DO"}  # tiles drawn as a block: walls, fog, doors


def seat_of(name: str) -> int | None:
    """The seat of an env player name (`Player_3` -> 3)."""
    tail = name.rpartition("_")[2]
    return int(tail) if tail.isdigit() else None


@dataclass
class MapState:
    """What the map draws, read from a private view."""

    rows: list[str] = field(default_factory=list)
    origin: tuple[int, int] = (0, 0)
    me: tuple[int, int] | None = None
    facing: int | None = None
    players: dict[tuple[int, int], tuple[int | None, int | None]] = field(default_factory=dict)
    corpses: set[tuple[int, int]] = field(default_factory=set)
    # Own stations: (x, y) -> (task number 1.., "todo" | "doing" | "done")
    tasks: dict[tuple[int, int], tuple[int, str]] = field(default_factory=dict)
    goal: tuple[int, int] | None = None  # the oracle's goal station, marked while hints show

    @classmethod
    def from_private(cls, private: dict[str, Any], goal: str | None = None) -> MapState:
        observation = private.get("observation") or {}
        rows = list(observation.get("patch") or observation.get("map") or [])
        origin = observation.get("origin") or [0, 0]
        pose = private.get("pose")
        state = cls(rows=rows, origin=(int(origin[0]), int(origin[1])),
                    me=(int(pose[0]), int(pose[1])) if pose else None,
                    facing=private.get("facing"))
        for name, seen in (observation.get("players") or {}).items():
            pos = seen.get("pos")
            if pos:
                state.players[(int(pos[0]), int(pos[1]))] = (seat_of(name), seen.get("facing"))
        state.corpses = {(int(c["pos"][0]), int(c["pos"][1]))
                         for c in observation.get("corpses") or [] if c.get("pos")}
        for number, task in enumerate(private.get("tasks") or [], start=1):
            station = task.get("station")
            if not station:
                continue
            done, _, need = str(task.get("progress", "0/1")).partition("/")
            stage = ("done" if task.get("completed")
                     else "doing" if done.isdigit() and int(done) > 0 else "todo")
            state.tasks[(int(station[0]), int(station[1]))] = (number, stage)
            if goal is not None and task.get("task_name") == goal:
                state.goal = (int(station[0]), int(station[1]))
        return state


    @classmethod
    def from_setup(cls, setup: Mapping[str, Any]) -> MapState | None:
        """The whole map of a hidden setup (doors as it draws them: closed), each crewmate's
        stations as T and the seat's number; None when the setup has no map."""
        rows = setup.get("map")
        if not isinstance(rows, list):
            return None
        state = cls(rows=[str(r) for r in rows])
        tasks = setup.get("tasks") if isinstance(setup.get("tasks"), Mapping) else {}
        for seat, own in tasks.items():
            for task in own if str(seat).isdigit() and isinstance(own, list) else []:
                station = task.get("station") if isinstance(task, Mapping) else None
                if station:
                    state.tasks[(int(station[0]), int(station[1]))] = (int(seat), "todo")
        return state


class GridMap(Widget):
    """Call `show` with a MapState (or None to blank it)."""

    DEFAULT_CSS = "GridMap { width: auto; height: auto; max-width: 100%; max-height: 100%; }"
    COMPONENT_CLASSES = {
        "grid-map--wall", "grid-map--floor", "grid-map--unseen", "grid-map--outside",
        "grid-map--door-open", "grid-map--door-closed", "grid-map--button", "grid-map--corpse",
        "grid-map--station", "grid-map--task-todo", "grid-map--task-doing",
        "grid-map--task-done", "grid-map--goal", "grid-map--me",
        *(f"grid-map--seat-{s}" for s in range(SEATS)),
    }

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.state = MapState()
        self.zoom = 1

    def show(self, state: MapState | None) -> None:
        self.state = state or MapState()
        self.refresh(layout=True)

    # -- sizing: a tile is 2x1 characters, or 4x2 (`zoom` 2) where the owner has the room ---------
    @property
    def extent(self) -> tuple[int, int]:
        """The map's size in tiles (columns, rows)."""
        rows = self.state.rows
        return max((len(r) for r in rows), default=0), len(rows)

    def set_zoom(self, zoom: int) -> None:
        if zoom != self.zoom:
            self.zoom = zoom
            self.refresh(layout=True)

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return 2 * self.extent[0] * self.zoom

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return self.extent[1] * self.zoom

    # -- drawing --------------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"grid-map--{name}", partial=True)

    def seat_style(self, seat: int) -> Style:
        """The colour of a seat's player, on the map and wherever it is listed."""
        return self._style(f"seat-{seat % SEATS}")

    def cell(self, ch: str, pos: tuple[int, int], state: MapState | None = None
             ) -> tuple[str, Style]:
        """The two characters and style of the tile `ch` at map position `pos` (of `state`,
        the shown one by default)."""
        s = state or self.state
        if pos == s.me or ch == "@":
            return " " + ARROWS.get(s.facing or 0, "@"), self._style("me")
        if pos in s.players or ch == "P":
            seat, facing = s.players.get(pos, (None, None))
            mark = "P" if seat is None else str(seat)[-1]
            style = self._style(f"seat-{seat % SEATS}") if seat is not None else self._style(
                "station")
            return mark + ARROWS.get(facing or 0, " "), style
        if pos in s.corpses or ch == "C":
            return TILES["C"][0], self._style("corpse")
        if ch == "T" and pos in s.tasks:
            number, stage = s.tasks[pos]
            style = self._style(f"task-{stage}")
            if pos == s.goal:
                style += self._style("goal")
            return ("✓" if stage == "done" else "T") + str(number), style
        glyph, name = TILES.get(ch, (ch * 2, "floor"))
        return glyph, self._style(name)

    def window(self) -> tuple[int, int, int, int]:
        """(first column, first row, columns, rows) of the map shown: all of it when it fits,
        else the part around the seat."""
        width, height = self.extent
        scale = self.zoom
        cols_fit = max(1, self.size.width // (2 * scale)) if self.size.width else width
        rows_fit = max(1, self.size.height // scale) if self.size.height else height
        cols, lines = min(width, cols_fit), min(height, rows_fit)
        cx, cy = width // 2, height // 2
        if self.state.me is not None:
            cx, cy = self.state.me[0] - self.state.origin[0], self.state.me[1] - self.state.origin[1]
        left = min(max(0, cx - cols // 2), width - cols)
        top = min(max(0, cy - lines // 2), height - lines)
        return left, top, cols, lines

    def render(self) -> Text:
        if not self.state.rows:
            return Text("")
        return self._draw(self.state, *self.window(), self.zoom)

    def picture(self, state: MapState) -> Text:
        """All of `state`'s map at 2x1 characters a tile, in this widget's colours (the hidden
        map a result screen reveals)."""
        width, height = max((len(r) for r in state.rows), default=0), len(state.rows)
        return self._draw(state, 0, 0, width, height, 1)

    def _draw(self, s: MapState, left: int, top: int, cols: int, lines: int, scale: int
              ) -> Text:
        ox, oy = s.origin
        text = Text(no_wrap=True, overflow="crop")
        for r in range(top, top + lines):
            row = s.rows[r]
            cells = [self.cell(row[c] if c < len(row) else " ", (ox + c, oy + r), s)
                     for c in range(left, left + cols)]
            if scale == 1:
                for glyph, style in cells:
                    text.append(glyph, style)
            else:  # 4x2: the glyph on the top line; solid tiles fill both lines
                for glyph, style in cells:
                    text.append(glyph * 2 if glyph in SOLID else f" {glyph} ", style)
                text.append("\n")
                for glyph, style in cells:
                    text.append(glyph * 2 if glyph in SOLID else "    ", style)
            if r < top + lines - 1:
                text.append("\n")
        return text

    def legend(self, names: dict[int, str] | None = None) -> Text:
        """One line (it wraps where it must) naming every kind of tile, and the players in sight
        by seat number when `names` maps seats to names."""
        text = Text()
        arrow = " " + ARROWS.get(self.state.facing or 0, "@")
        items: list[tuple[str, str, str]] = [
            (arrow, "me", "you"), ("T1…3", "task-todo", "your tasks"),
            ("✓", "task-done", "done"), ("T", "station", "other"),
            (TILES["B"][0], "button", "button"),
            (TILES["C"][0], "corpse", "body"), (TILES["D"][0], "door-closed", "door"),
            (TILES["O"][0], "door-open", "open"), (TILES["?"][0], "unseen", "unseen")]
        seen = sorted({seat for seat, _ in self.state.players.values() if seat is not None})
        for seat in seen:
            who = (names or {}).get(seat, f"Player_{seat}")
            items.append((f"{seat}→", f"seat-{seat % SEATS}", who))
        for i, (glyph, style, label) in enumerate(items):
            if i:
                text.append("  ")
            text.append(glyph.strip() or glyph, self._style(style))
            text.append(f" {label}", "dim")
        return text
