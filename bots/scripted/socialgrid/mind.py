"""What one SocialGrid seat saw and remembers (`Mind`), and how it walks on its map memory.

- Walking: the distance field to the current goal is followed downhill; it is rebuilt when
  the goal changes, when the bot has left the part it covers, or when a newly seen obstacle
  lies closer to the goal than the bot (the only tiles its way on can use). Blocked by a
  player, the bot waits or steps aside and pauses at random: the rules resolve a step in seat
  order, so two bots that simply tried again would meet head-on in a doorway forever.
- Evidence for meetings: who was in sight where (a short log), who stood at a station for
  several steps (weak evidence of real work), who was near a body when it was found, and kills
  seen: a body appearing where a player stood the step before, with a player still next to it
  and facing it (a kill takes the killer's whole step, so it is still there).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping
from typing import Any

from bots.scripted.socialgrid.map_memory import (
    BLOCKED,
    FACING_INDEX,
    STEP_BY_QUARTER,
    STEPS,
    TURN_BY_QUARTER,
    GridMap,
    Pos,
    Route,
    direction,
    front_of,
    manhattan,
)
from engine.socialgrid.moves import NOOP, OPEN_DOOR

LOG_STEPS = 40  # steps of sightings kept (who was where)
DWELL_STEPS = 3  # steps in one pose facing a station that count as "seen working"
NEAR_BODY = 3  # Manhattan distance from a fresh body that makes a player a suspect


class Mind:
    """One seat's memory: the map, the current route and goals, and the evidence it gathered."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        m = view["public"]["map"]
        self.grid = GridMap(m["width"], m["height"], m["room_size"])
        self.room_size, self.rows, self.cols = m["room_size"], m["rows"], m["cols"]
        private = view["private"]
        for task in private.get("tasks") or ():
            self.grid.block(tuple(task["station"]))
        self.route: Route | None = None
        self.task_goal: Pos | None = None  # the crewmate's current task station (no oracle)
        self.fake_station: Pos | None = None  # the impostor's current pretend task
        self.fake_left = 0
        self.visited: deque[Pos] = deque(maxlen=3)
        self.wander_goal: Pos | None = None
        self.pause = 0  # steps to wait after stepping aside for someone
        self.last_step = -1
        # Evidence.
        self.prev: dict[str, Pos] = {}  # players in sight at the previous step
        self.log: deque[tuple[int, dict[str, Pos]]] = deque(maxlen=LOG_STEPS)
        self.dwell: dict[str, tuple[tuple[int, int, int], int]] = {}
        self.worked: dict[str, int] = {}  # name -> times seen working at a station
        self.bodies: set[Pos] = set()
        self.kills: dict[str, tuple[str, str]] = {}  # killer -> (victim, where)
        self.near_body: dict[str, tuple[int, str]] = {}  # name -> (distance, where)
        self.meeting = 0  # the last meeting this mind has voted in
        self.potential_witness: dict[str, int] = {}  # impostor: crew that came close
        self.lurked = 0  # impostor: steps waited next to a crewmate it could not kill
        self.hunt_after = 0  # impostor: no hunting before this step (it waited too long)

    # -- seeing -------------------------------------------------------------------------------
    def observe(self, view: Mapping[str, Any]) -> None:
        """Take in one step's view: the map patch, who is where, new bodies."""
        private, step = view["private"], view["public"]["step"]
        obs = private["observation"]
        x, y, facing = private["pose"]
        pos = (x, y)
        rows = obs.get("patch") or obs.get("map") or []
        ox, oy = obs.get("origin") or (0, 0)
        full = pos not in self.grid.learned_at
        if full:
            self.grid.learned_at.add(pos)
        found = self.grid.learn(rows, ox, oy, full)
        if found and self.route is not None:
            here = self.route.dist[self.grid.index(pos)]
            if any(0 <= self.route.dist[i] <= here for i in found):
                self.route = None
        if step == self.last_step:
            return
        if step != self.last_step + 1:
            self.prev = {}  # a meeting (or a gap) came between: no kill can be read
        self.last_step = step
        seen = {name: (p["pos"][0], p["pos"][1]) for name, p in obs["players"].items()}
        players = obs["players"]
        for name, p in players.items():
            self._watch_work(name, p["pos"][0], p["pos"][1], p["facing"])
        for body in obs["corpses"]:
            spot = (body["pos"][0], body["pos"][1])
            if spot not in self.bodies:
                self.bodies.add(spot)
                self._new_body(spot, body["position"], seen, players)
        if seen:
            self.log.append((step, seen))
        self.prev = seen

    def _watch_work(self, name: str, x: int, y: int, facing: int) -> None:
        pose = (x, y, facing)
        last, count = self.dwell.get(name, (None, 0))
        count = count + 1 if last == pose else 1
        self.dwell[name] = (pose, count)
        if count == DWELL_STEPS and front_of(x, y, facing) in self.grid.stations:
            self.worked[name] = self.worked.get(name, 0) + 1

    def _new_body(self, spot: Pos, where: str, seen: Mapping[str, Pos],
                  players: Mapping[str, Any]) -> None:
        """A body we had not seen: a kill we watched, or a body with people around it."""
        victim = next((n for n, p in self.prev.items() if p == spot and n not in seen), None)
        killers = []
        if victim is not None:
            killers = [n for n, p in players.items()
                       if front_of(p["pos"][0], p["pos"][1], p["facing"]) == spot
                       and self.prev.get(n, seen[n]) == seen[n]]
            for killer in killers:
                self.kills[killer] = (victim, where)
        for name, p in seen.items():
            gap = manhattan(p, spot)
            if name not in killers and gap <= NEAR_BODY:
                old = self.near_body.get(name)
                if old is None or gap < old[0]:
                    self.near_body[name] = (gap, where)

    # -- walking --------------------------------------------------------------------------------
    def toward(self, goal: Pos, interact: bool, pose: list[int], allowed: set[int],
               rng: random.Random) -> int | None:
        """The next action on the way to `goal`; None once there (for `interact`: next to it
        and facing it)."""
        if self.pause > 0:
            self.pause -= 1
            return NOOP
        grid = self.grid
        x, y, facing = pose
        here = grid.index((x, y))
        route = self.route
        if route is None or route.goal != goal or route.interact != interact or \
                not route.covers(here):
            route = self.route = Route(grid, goal, interact, here)
        d = route.dist[here]
        if d < 0:
            return self.unstick(allowed, rng)
        if d == 0:
            if not interact:
                return None
            turn = TURN_BY_QUARTER[(direction((x, y), goal) - FACING_INDEX[facing]) % 4]
            return turn
        action = self._downhill(route, here, facing, allowed)
        if action is None and self._dead_end(route, here):
            route = self.route = Route(grid, goal, interact, here)
            action = self._downhill(route, here, facing, allowed)
        return action if action is not None else self.unstick(allowed, rng, route, pose)

    def _downhill(self, route: Route, here: int, facing: int, allowed: set[int]) -> int | None:
        """A step to a neighbour one closer to the goal (ahead first), or what opens the way:
        turning to a closed door and opening it."""
        grid, dist = self.grid, route.dist
        f = FACING_INDEX[facing]
        near = grid.by_dir[here]
        want = dist[here] - 1
        door_dir = None
        for k in (f, (f + 1) % 4, (f + 3) % 4, (f + 2) % 4):
            j = near[k]
            if j < 0 or dist[j] != want or grid.known[j] == BLOCKED:
                continue
            action = STEP_BY_QUARTER[(k - f) % 4]
            if action in allowed:
                return action
            if j in grid.closed and door_dir is None:
                door_dir = k
        if door_dir is not None:
            if door_dir == f:
                return OPEN_DOOR if OPEN_DOOR in allowed else None
            return TURN_BY_QUARTER[(door_dir - f) % 4]
        return None

    def _dead_end(self, route: Route, here: int) -> bool:
        """Every way downhill is known to be blocked (the field predates what we saw)."""
        want = route.dist[here] - 1
        return all(j < 0 or route.dist[j] != want or self.grid.known[j] == BLOCKED
                   for j in self.grid.by_dir[here])

    def unstick(self, allowed: set[int], rng: random.Random, route: Route | None = None,
                pose: list[int] | None = None) -> int:
        """Blocked by a player or a body: wait a step, or step aside (not uphill by more than
        one) and then wait up to two steps for the other to pass. At random, so that two bots
        meeting in a doorway part (the rules resolve a step in seat order, so the same one
        would win the tile every time if both simply tried again)."""
        steps = sorted(a for a in allowed if a in STEPS)
        if route is not None and pose is not None and steps:
            x, y, facing = pose
            f, near = FACING_INDEX[facing], self.grid.by_dir[self.grid.index((x, y))]
            limit = route.dist[self.grid.index((x, y))] + 1
            steps = [a for a in steps
                     if 0 <= route.dist[near[(f + STEP_BY_QUARTER.index(a)) % 4]] <= limit]
        if not steps or rng.random() < 0.3:
            return NOOP
        self.pause = rng.randint(0, 2)
        return rng.choice(steps)

    def wander(self, pose: list[int], allowed: set[int], rng: random.Random,
               roam: bool = False) -> int:
        """Walk about: to spots of the current room (out of the doorways, where crewmates
        with work to do need to pass), or with `roam` from room to room (exploring)."""
        x, y, _ = pose
        if self.wander_goal is None or manhattan(self.wander_goal, (x, y)) <= 1:
            self.wander_goal = self._spot(rng, (x, y), roam)
        action = self.toward(self.wander_goal, False, pose, allowed, rng)
        if action is None:
            self.wander_goal = None
            return self.unstick(allowed, rng)
        return action

    def _spot(self, rng: random.Random, here: Pos, roam: bool) -> Pos:
        """A floor tile two or more tiles from the walls at even offsets (never a station):
        in another room's middle when roaming, else anywhere in this room."""
        size, pitch = self.room_size, self.room_size + 1
        if roam:
            offset = (size // 2) & ~1
            spots = [(c * pitch + 1 + offset, r * pitch + 1 + offset)
                     for r in range(self.rows) for c in range(self.cols)]
            far = [s for s in spots if manhattan(s, here) > size // 2] or spots
            return rng.choice(far)
        col = min(max((here[0] - 1) // pitch, 0), self.cols - 1)
        row = min(max((here[1] - 1) // pitch, 0), self.rows - 1)
        offsets = range(2, size - 2, 2)
        return (col * pitch + 1 + rng.choice(offsets), row * pitch + 1 + rng.choice(offsets))
