"""SocialGrid baselines: `scripted:crew` (walks to its tasks, reports bodies, votes on what it
saw), `scripted:impostor` (hunts lone crewmates, fakes tasks, frames crewmates at meetings) and
`scripted:agent`, which plays whichever of the two its seat's role calls for (the one tables
and the league seat on "all seats of a side").

Everything is read from the seat's view and legal space. What a view does not keep lives in the
seat's memory as one `Mind`:

- A map memory built from the observation patches, with the rules' geometry as a prior (the
  outer wall, the wall crossings and the wall tiles next to them, where no door can be, are
  walls; a crewmate's own stations are obstacles). Every tile not seen yet is assumed walkable.
  A breadth-first distance field to the current goal is computed over it (stopping one step
  beyond the bot) and followed downhill; it is rebuilt when the goal changes, when the bot has
  left the part it covers, or when a newly seen obstacle lies closer to the goal than the bot
  (the only tiles its way on can use). Strafes make every direction one step, so tiles, not
  poses, are enough; turns only face a door, a station or a victim.
- At oracle levels high and mid the crew follows BEST_ACTION_SUGGESTION, except with another
  player within two tiles: around a doorway someone blocks, the oracle sends it on a long detour
  and back as soon as the way clears, so there the planner takes over. The planner, blocked by a
  player, waits or steps aside and pauses at random: the rules resolve a step in seat order, so
  two bots that simply tried again would meet head-on in a doorway forever.
- Evidence for meetings: who was in sight where (a short log), who stood at a station for
  several steps (weak evidence of real work), who was near a body when it was found, and kills
  seen: a body appearing where a player stood the step before, with a player still next to it
  and facing it (a kill takes the killer's whole step, so it is still there).

Decisions cost 20-40 microseconds on average: a distance field (a few hundred microseconds on
the default map) is rebuilt a few dozen times per episode.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted
from engine.socialgrid.board import FACINGS, STEP
from engine.socialgrid.moves import (
    DO_TASK,
    KILL,
    MOVE_BACKWARD,
    MOVE_FORWARD,
    NOOP,
    OPEN_DOOR,
    REPORT_DEADBODY,
    STRAFE_LEFT,
    STRAFE_RIGHT,
    TURN_BACK,
    TURN_LEFT,
    TURN_RIGHT,
)

ENV = "socialgrid"
Pos = tuple[int, int]

# Map memory tile codes. Unknown tiles are planned through (optimism), blocked ones never.
UNKNOWN, FLOOR, BLOCKED, DOOR = 0, 1, 2, 3
CODES = {"#": BLOCKED, "T": BLOCKED, "B": BLOCKED, ".": FLOOR, "O": DOOR, "D": DOOR,
         "P": FLOOR, "C": FLOOR, "@": FLOOR}
FACING_INDEX = {facing: i for i, facing in enumerate(FACINGS)}
DELTAS = tuple(STEP[f] for f in FACINGS)
# The action that steps / turns towards direction d from facing f, by quarter turns (d - f) % 4.
STEP_BY_QUARTER = (MOVE_FORWARD, STRAFE_RIGHT, MOVE_BACKWARD, STRAFE_LEFT)
TURN_BY_QUARTER = (None, TURN_RIGHT, TURN_BACK, TURN_LEFT)
STEPS = frozenset(STEP_BY_QUARTER)
WALKING = STEPS | {TURN_LEFT, TURN_RIGHT, TURN_BACK, OPEN_DOOR}  # oracle hints worth following

LOG_STEPS = 40  # steps of sightings kept (who was where)
DWELL_STEPS = 3  # steps in one pose facing a station that count as "seen working"
NEAR_BODY = 3  # Manhattan distance from a fresh body that makes a player a suspect
NEAR_VICTIM = 2  # distance to a victim, at its last sighting, that makes a player a suspect
HUNT_SLACK = 5  # an impostor closes in when its cooldown ends within the walk plus this
LURK_STEPS = 4  # steps an impostor waits next to a crewmate before it looks busy again
HUNT_BREAK = 10  # and for how many steps it then leaves crewmates alone
CROWD = 2  # another player this close: the crew leaves the oracle for its own planner


def seat_of(name: str) -> int:
    return int(name.rpartition("_")[2])


def manhattan(a: Iterable[int], b: Iterable[int]) -> int:
    (ax, ay, *_), (bx, by, *_) = a, b
    return abs(ax - bx) + abs(ay - by)


def front_of(x: int, y: int, facing: int) -> Pos:
    dx, dy = STEP[facing]
    return x + dx, y + dy


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
            turn = TURN_BY_QUARTER[(_direction((x, y), goal) - FACING_INDEX[facing]) % 4]
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


def _direction(src: Pos, dst: Pos) -> int:
    """The facing index that looks from src at the adjacent tile dst."""
    return DELTAS.index((dst[0] - src[0], dst[1] - src[1]))


def crowded(players: Mapping[str, Any], pose: list[int]) -> bool:
    """Someone within CROWD tiles: the oracle then advises long detours around a player in a
    doorway and back again as soon as it moves; the planner waits or steps aside instead."""
    return any(manhattan(p["pos"], pose) <= CROWD for p in players.values())


# -- the crew ------------------------------------------------------------------------------------
def crew_step(mind: Mind, view: Mapping[str, Any], allowed: set[int],
              rng: random.Random) -> int:
    """Report a body in sight; work a task station in front; otherwise walk to the next task by
    the oracle's best action (levels high and mid) or the bot's own planner; wander when done."""
    private = view["private"]
    if REPORT_DEADBODY in allowed:
        return REPORT_DEADBODY
    pose = private["pose"]
    todo = [tuple(t["station"]) for t in private.get("tasks") or () if not t["completed"]]
    ahead = front_of(*pose)
    if DO_TASK in allowed and ahead in todo:
        return DO_TASK
    if not todo:
        return mind.wander(pose, allowed, rng)
    best = (private.get("oracle") or {}).get("best_action")
    if best is not None and best in allowed and best != KILL and \
            not crowded(private["observation"]["players"], pose):
        return best
    if mind.task_goal not in todo:
        mind.task_goal = min(todo, key=lambda s: manhattan(s, pose))
    action = mind.toward(mind.task_goal, True, pose, allowed, rng)
    return NOOP if action is None else action


# -- the impostors ---------------------------------------------------------------------------------
def impostor_step(mind: Mind, view: Mapping[str, Any], allowed: set[int],
                  rng: random.Random) -> int:
    """Kill a crewmate in front when no other crewmate is in sight. Once the cooldown is about
    to end, close in on the nearest crewmate in sight (by the oracle's hint when it has one),
    or roam the rooms to find one; otherwise pretend to work at stations."""
    private = view["private"]
    pose = private["pose"]
    mates = set(private.get("teammates") or ())
    players = private["observation"]["players"]
    crew = {n: (p["pos"][0], p["pos"][1]) for n, p in players.items() if n not in mates}
    if KILL in allowed and len(crew) == 1:
        mind.fake_station, mind.fake_left = None, 0  # then walk off to another station
        mind.potential_witness.pop(next(iter(crew)), None)
        return KILL
    for name, spot in crew.items():
        if manhattan(spot, pose) <= 2:
            mind.potential_witness[name] = view["public"]["step"]
    cooldown, step = private.get("kill_cooldown", 0), view["public"]["step"]
    if crew and step >= mind.hunt_after:
        spot = min(crew.values(), key=lambda p: manhattan(p, pose))
        if cooldown <= manhattan(spot, pose) + HUNT_SLACK:
            oracle = private.get("oracle") or {}
            best = oracle.get("best_action")
            if oracle.get("goal") and best in allowed and best in WALKING:
                return best
            action = mind.toward(spot, True, pose, allowed, rng)
            if action is not None:
                mind.lurked = 0
                return action
            mind.lurked += 1  # next to it, facing it: waiting for the cooldown or a chance
            if mind.lurked <= LURK_STEPS:
                return NOOP
            mind.lurked, mind.hunt_after = 0, step + HUNT_BREAK  # too long: look busy
    elif not crew and cooldown <= HUNT_SLACK:
        return mind.wander(pose, allowed, rng, roam=True)
    return fake_task(mind, pose, allowed, rng)


def fake_task(mind: Mind, pose: list[int], allowed: set[int], rng: random.Random) -> int:
    """Walk to a station it has seen and DO_TASK there a few times, then on to another one;
    explore while it knows none."""
    for _ in range(2):
        if mind.fake_station is None:
            mind.fake_station = _pick_station(mind, pose, rng)
            mind.fake_left = rng.randint(2, 5)
        if mind.fake_station is None:
            return mind.wander(pose, allowed, rng, roam=True)
        action = mind.toward(mind.fake_station, True, pose, allowed, rng)
        if action is not None:
            return action
        if mind.fake_left > 0 and DO_TASK in allowed:
            mind.fake_left -= 1
            return DO_TASK
        mind.visited.append(mind.fake_station)
        mind.fake_station = None
    return mind.unstick(allowed, rng)


def _pick_station(mind: Mind, pose: list[int], rng: random.Random) -> Pos | None:
    here = (pose[0], pose[1])
    fresh = [s for s in mind.grid.stations if s not in mind.visited and manhattan(s, here) > 1]
    if not fresh:
        return None
    return rng.choice(sorted(fresh))


# -- meetings ----------------------------------------------------------------------------------------
def crew_ballot(mind: Mind, view: Mapping[str, Any]) -> tuple[str | None, dict[str, float], str]:
    """Vote for a player seen killing, else the one seen closest to a body or to a victim;
    otherwise skip. Trust: suspects low, seen working high, the rest 0.5."""
    private, public = view["private"], view["public"]
    targets = list(private.get("vote_targets") or ())
    meeting = public.get("meeting") or {}
    near = dict(mind.near_body)
    for name, (gap, whom) in _near_victims(mind, meeting.get("found_dead") or ()).items():
        if name not in near or gap < near[name][0]:
            near[name] = (gap, f"standing next to {whom} before {whom}'s body was found")
    trust = {}
    for name in targets:
        if name in mind.kills:
            trust[name] = 0.05
        elif name in near:
            trust[name] = round(0.15 + 0.05 * near[name][0], 2)
        elif name in mind.worked:
            trust[name] = round(min(0.9, 0.65 + 0.05 * mind.worked[name]), 2)
        else:
            trust[name] = 0.5
    killers = [n for n in targets if n in mind.kills]
    if killers:
        name = killers[0]
        victim, where = mind.kills[name]
        return name, trust, f"I saw {name} kill {victim} at {where}. I vote {name}."
    suspects = sorted((near[n][0], n) for n in targets if n in near)
    if suspects:
        gap, name = suspects[0]
        how = near[name][1]
        where = how if how.startswith("standing") else f"{gap} tiles from the body at {how}"
        return name, trust, (f"{name} was near the body: {where}. It is weak evidence, but "
                             f"the best I have, so I vote {name}.")
    return None, trust, "No evidence against anyone: I skip."


def _near_victims(mind: Mind, found_dead: Iterable[int]) -> dict[str, tuple[int, str]]:
    """Players who stood within NEAR_VICTIM of a victim the last time the bot saw it alive."""
    near: dict[str, tuple[int, str]] = {}
    for seat in found_dead:
        victim = f"Player_{seat}"
        for _, seen in reversed(mind.log):
            if victim in seen:
                spot = seen[victim]
                for name, p in seen.items():
                    gap = manhattan(p, spot)
                    if name != victim and gap <= NEAR_VICTIM and \
                            (name not in near or gap < near[name][0]):
                        near[name] = (gap, victim)
                break
    return near


def impostor_ballot(mind: Mind, view: Mapping[str, Any]
                    ) -> tuple[str | None, dict[str, float], str]:
    """Never a teammate: vote the crewmate who reported, else one the bot can place near a
    body, else a crewmate who was close to it lately (a possible witness); or skip. Trust
    teammates high and crewmates low-ish: the misdirection the paper reports."""
    private, public = view["private"], view["public"]
    mates = set(private.get("teammates") or ())
    crew = [n for n in private.get("vote_targets") or () if n not in mates]
    meeting = public.get("meeting") or {}
    caller = meeting.get("called_by")
    reporter = f"Player_{caller}" if caller is not None else None
    target, thought = None, "Nothing points at anyone yet: I skip."
    if meeting.get("reason") == "report" and reporter in crew:
        target = reporter
        thought = (f"{reporter} reported the body but was near the body before anyone else; "
                   f"that is suspicious, so I vote {reporter}.")
    elif near := sorted((mind.near_body[n][0], n) for n in crew if n in mind.near_body):
        target = near[0][1]
        thought = f"{target} was near the body when it was found. I vote {target}."
    elif close := sorted((-step, n) for n, step in mind.potential_witness.items() if n in crew):
        target = close[0][1]
        thought = f"{target} has been following people around and acting erratic. I vote them."
    trust = {n: 0.85 for n in mates if n in (private.get("vote_targets") or ())}
    for n in crew:
        trust[n] = 0.15 if n == target else 0.4
    return target, trust, thought


def ballot_action(target: str | None, trust: Mapping[str, float], thought: str,
                  legal: Mapping[str, Any]) -> dict[str, Any]:
    """The ballot as the form's fields: vote by seat id (or skip), trust_<seat>, thought."""
    fields = {f["name"] for f in legal.get("fields", ())}
    action: dict[str, Any] = {"vote": "skip" if target is None else str(seat_of(target))}
    for name, value in trust.items():
        key = f"trust_{seat_of(name)}"
        if key in fields:
            action[key] = float(value)
    if "thought" in fields:
        action["thought"] = thought
    return action


def _end_of_meeting(mind: Mind) -> None:
    """Bodies are cleared at a meeting: what was seen around them is spent, kills are not."""
    mind.near_body.clear()
    mind.bodies.clear()
    mind.prev = {}
    mind.route = None


# -- the bots -----------------------------------------------------------------------------------------
class SocialGridBot(Bot):
    """Crew logic, impostor logic, or (`plays=None`) whichever the seat's role is."""

    never_awaits = True

    def __init__(self, seed: int = 0, plays: str | None = None) -> None:
        self.rng = random.Random(seed)
        self.plays = plays
        self.identity = f"scripted:{plays or 'agent'}"

    def _impostor(self, private: Mapping[str, Any]) -> bool:
        return (self.plays or private.get("role")) == "impostor"

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        mind = memory.get("mind")
        if mind is None:
            mind = memory["mind"] = Mind(view)
        private = view["private"]
        impostor = self._impostor(private)
        if legal.get("kind") == "form":
            number = (view["public"].get("meeting") or {}).get("number", 0)
            ballot = impostor_ballot if impostor else crew_ballot
            target, trust, thought = ballot(mind, view)
            if number != mind.meeting:
                mind.meeting = number
                _end_of_meeting(mind)
            return Decision(action=ballot_action(target, trust, thought, legal))
        mind.observe(view)
        allowed = {int(o["id"]) for o in legal.get("options", ())}
        step = impostor_step if impostor else crew_step
        action = step(mind, view, allowed, self.rng)
        if action not in allowed:
            action = NOOP
        return Decision(action={"choice": str(action)})


register_scripted(ENV, "agent", "plays its seat's role: crew or impostor logic below")(
    lambda seed: SocialGridBot(seed))
register_scripted(ENV, "crew", "walks to its tasks (oracle or own map), reports bodies, votes "
                               "on what it saw")(lambda seed: SocialGridBot(seed, "crew"))
register_scripted(ENV, "impostor", "hunts lone crewmates, fakes tasks, frames crewmates at "
                                   "meetings")(lambda seed: SocialGridBot(seed, "impostor"))
