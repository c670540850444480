"""The ship (spec §3): the 14 rooms of The Skeld, its 24 corridors, the 9 declared vents and the
39 task instances (§4.2), with shortest paths for the path guidance of §3.5."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

ROOMS = ("Cafeteria", "Weapons", "Navigation", "O2", "Shields", "Communications", "Storage",
         "Admin", "Electrical", "Lower Engine", "Security", "Reactor", "Upper Engine", "Medbay")
CAFETERIA, SECURITY = "Cafeteria", "Security"

CORRIDORS = (
    ("Cafeteria", "Weapons"), ("Cafeteria", "Admin"), ("Cafeteria", "Upper Engine"),
    ("Cafeteria", "Medbay"), ("Weapons", "Navigation"), ("Weapons", "O2"),
    ("Navigation", "Shields"), ("O2", "Shields"), ("O2", "Admin"), ("Shields", "Communications"),
    ("Shields", "Storage"), ("Communications", "Storage"), ("Storage", "Admin"),
    ("Storage", "Electrical"), ("Storage", "Lower Engine"), ("Admin", "Electrical"),
    ("Electrical", "Lower Engine"), ("Lower Engine", "Security"), ("Lower Engine", "Reactor"),
    ("Lower Engine", "Upper Engine"), ("Security", "Reactor"), ("Security", "Upper Engine"),
    ("Reactor", "Upper Engine"), ("Upper Engine", "Medbay"),
)
# The vents the released code declares, used as declared (our default, spec §17) ...
DECLARED_VENTS = (
    ("Reactor", "Lower Engine"), ("Upper Engine", "Reactor"), ("Electrical", "Security"),
    ("Upper Engine", "Lower Engine"), ("Electrical", "Medbay"), ("Navigation", "Shields"),
    ("Medbay", "Security"), ("Navigation", "Weapons"), ("Admin", "Cafeteria"),
)
# ... and the three that work as vents when that code runs (the other six are overwritten into
# corridors, all six of which are corridors already: spec §3.3).
RELEASED_CODE_VENTS = (("Electrical", "Security"), ("Electrical", "Medbay"),
                       ("Medbay", "Security"))
VENT_SETS = {"declared": DECLARED_VENTS, "released-code": RELEASED_CODE_VENTS}

Graph = Mapping[str, tuple[str, ...]]


def adjacency(edges: Iterable[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """Each room's neighbours over undirected `edges`, in the order of ROOMS."""
    near: dict[str, set[str]] = {room: set() for room in ROOMS}
    for a, b in edges:
        near[a].add(b)
        near[b].add(a)
    order = {room: i for i, room in enumerate(ROOMS)}
    return {room: tuple(sorted(n, key=order.__getitem__)) for room, n in near.items()}


CORRIDOR_MAP = adjacency(CORRIDORS)
VENT_MAPS = {name: adjacency(edges) for name, edges in VENT_SETS.items()}


def both(vents: str) -> dict[str, tuple[str, ...]]:
    """Corridors and vents together: the impostors' map."""
    return adjacency(CORRIDORS + VENT_SETS[vents])


IMPOSTOR_MAPS = {name: both(name) for name in VENT_SETS}


def shortest_path(graph: Graph, start: str, goal: str) -> list[str]:
    """The rooms from `start` to `goal` inclusive (breadth first, neighbours in ROOMS order, so
    the same path every time)."""
    if start == goal:
        return [start]
    came: dict[str, str] = {start: start}
    todo = deque([start])
    while todo:
        room = todo.popleft()
        for nxt in graph[room]:
            if nxt not in came:
                came[nxt] = room
                if nxt == goal:
                    path = [goal]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return path[::-1]
                todo.append(nxt)
    raise ValueError(f"no path from {start} to {goal}")


COMMON, SHORT, LONG = "common", "short", "long"
DURATION = {COMMON: 1, SHORT: 1, LONG: 2}  # timesteps of COMPLETE TASK (spec §4)
COMMON_TASKS = frozenset({"Fix Wiring", "Swipe Card"})
LONG_TASKS = frozenset({"Empty Garbage", "Clear Asteroids", "Empty Chute", "Align Engine Output",
                        "Fuel Engines", "Start Reactor", "Inspect Sample"})
TASKS_BY_ROOM = {
    "Cafeteria": ("Download Data", "Empty Garbage", "Fix Wiring"),
    "Weapons": ("Accept Diverted Power", "Clear Asteroids", "Download Data"),
    "Navigation": ("Accept Diverted Power", "Chart Course", "Download Data", "Fix Wiring",
                   "Stabilize Steering"),
    "O2": ("Clean O2 Filter", "Empty Chute", "Accept Diverted Power"),
    "Shields": ("Accept Diverted Power", "Prime Shields"),
    "Communications": ("Accept Diverted Power", "Download Data"),
    "Storage": ("Empty Garbage", "Empty Chute"),
    "Admin": ("Fix Wiring", "Swipe Card", "Upload Data"),
    "Electrical": ("Calibrate Distributor", "Divert Power", "Download Data", "Fix Wiring"),
    "Lower Engine": ("Accept Diverted Power", "Align Engine Output", "Fuel Engines"),
    "Security": ("Accept Diverted Power", "Fix Wiring"),
    "Reactor": ("Start Reactor", "Unlock Manifolds"),
    "Upper Engine": ("Accept Diverted Power", "Align Engine Output", "Fuel Engines"),
    "Medbay": ("Inspect Sample", "Submit Scan"),
}


@dataclass(frozen=True, slots=True)
class TaskKind:
    """One of the 39 task instances: a task in a room."""

    name: str
    room: str

    @property
    def type(self) -> str:
        if self.name in COMMON_TASKS:
            return COMMON
        return LONG if self.name in LONG_TASKS else SHORT

    @property
    def duration(self) -> int:
        return DURATION[self.type]

    def label(self) -> str:
        return f"{self.name} ({self.room})"


TASKS = tuple(TaskKind(name, room) for room in ROOMS for name in TASKS_BY_ROOM[room])
TASKS_OF_TYPE = {t: tuple(k for k in TASKS if k.type == t) for t in (COMMON, SHORT, LONG)}
