"""SocialGrid's rules (spec §3-§8, §18, §21; docs/rules/socialgrid.md).

Each env step every living player decides at once (`pending` = the living); when the last one
has answered, the step resolves in seat order against the state as it is then: an action that
is no longer possible (a step into a tile someone just took, a kill whose victim moved away)
does nothing. Meetings (a reported body, the emergency button, or every `vote_interval` steps)
replace steps: every living player casts a ballot at once, then the plurality is ejected (ties,
and skip at the top, eject nobody). Win checks follow every kill, task and vote.

Events: `step` (public: the step number, so every seat gets its new view), `trace` (seen by
nobody, for the metrics: one row per seat that acted, [seat, action, x, y, facing before, x, y,
facing after] and, when it did more than move, a dict of what: `progressed`, `completed`, `door`,
`killed`), `kill` (killer, victim and
whoever saw it), `task_completed` (the crewmate), `meeting_called`, `ballot_cast`, `vote_result`
(public), `ballots` (nobody: trust scores and thoughts, for the metrics).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from typing import Any

from cachetools import LRUCache

from engine.core import NO_ACTION, Action, ActionSpace, ConfigError, Game, Role, derive_seed
from engine.deduction import SKIP, plurality
from engine.policy import FORMAT, RULE
from engine.socialgrid import mapgen, observe, syntax, vision
from engine.socialgrid.board import BUTTON, DOOR, STATION, Board, Pos
from engine.socialgrid.config import (
    CREW,
    CREWMATE,
    HISTORY,
    IMPOSTOR,
    IMPOSTORS,
    SocialGridConfig,
    seat_name,
)
from engine.socialgrid.moves import (
    CALL_DISCUSSION,
    CLOSE_DOOR,
    DO_TASK,
    KILL,
    MOVEMENT_ACTIONS,
    NOOP,
    OPEN_DOOR,
    REPORT_DEADBODY,
    Pose,
    apply_move,
    front,
)
from engine.socialgrid.oracle import Oracle

TASK_KINDS = (("common", 3, 1.0), ("short", 8, 2.0), ("long", 13, 3.0))  # toggles, reward
TASKS_PER_SEAT = len(TASK_KINDS)

# Rewards (spec §18).
TOGGLE, KILLED, STEP_CREW, STEP_IMPOSTOR = 0.2, 6.0, -0.001, -0.005
VOTE_IMPOSTOR, VOTE_CREW, VOTE_SKIP = 3.0, -2.0, 0.05
EJECTED_CREW, EJECTED_IMPOSTOR, CREW_EJECTED_BONUS, WIN = -2.0, -3.0, 2.0, 10.0

# Per-game caches of what a place sees, bounded by (estimated) bytes, not entries: a game on the
# largest map visits thousands of places.
SIGHT_BYTES = 2_000_000
PATCH_BYTES = 500_000
TILE_BYTES = 72  # a tile (x, y) tuple with its object header


def tiles_bytes(tiles: frozenset[Pos]) -> int:
    return sys.getsizeof(tiles) + TILE_BYTES * len(tiles)


def rows_bytes(rows: list[str]) -> int:
    return sys.getsizeof(rows) + sum(sys.getsizeof(r) for r in rows)


def assign_roles(config: SocialGridConfig, seed: int, players: int) -> tuple[Role, ...]:
    config.check_players(players)
    rng = random.Random(derive_seed(seed, "roles"))
    impostors = set(rng.sample(range(players), config.impostors))
    return tuple(Role(IMPOSTOR, IMPOSTORS) if s in impostors else Role(CREWMATE, CREW)
                 for s in range(players))


class Task:
    """One crewmate's task at one station."""

    __slots__ = ("name", "kind", "station", "required", "reward", "progress")

    def __init__(self, name: str, kind: str, station: Pos, required: int, reward: float) -> None:
        self.name, self.kind, self.station = name, kind, station
        self.required, self.reward, self.progress = required, reward, 0

    @property
    def done(self) -> bool:
        return self.progress >= self.required

    def setup(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "station": list(self.station),
                "steps_required": self.required}


class SocialGridGame(Game):
    SHARED_ON_FORK = ("board", "oracle")  # the map never changes; the oracle caches by input
    __slots__ = ("board", "oracle", "poses", "status", "known_dead", "corpses", "closed",
                 "tasks", "cooldown", "calls_left", "history", "still", "tick", "phase",
                 "answers", "meeting", "meetings", "trust", "rewards", "tasks_done",
                 "tasks_total", "spawns", "last_vote", "impostors", "crew", "_sight",
                 "_everything", "_spaces", "_allowed", "_patches", "standing_by")
    config: SocialGridConfig

    def __init__(self, env: Any, config: SocialGridConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self.impostors = frozenset(s for s in range(players) if self.roles[s].name == IMPOSTOR)
        self.crew = frozenset(range(players)) - self.impostors
        rng = random.Random(derive_seed(seed, "map"))
        try:
            self.board: Board = mapgen.generate(config.room_size, config.rows, config.cols,
                                                stations=TASKS_PER_SEAT * players, rng=rng)
        except ValueError as e:
            raise ConfigError(str(e)) from None
        self.oracle = Oracle(self.board)
        spawn = mapgen.spawn_tiles(self.board, players, rng)
        facings = [rng.choice((100, 101, 102, 103)) for _ in range(players)]
        self.poses: list[Pose | None] = [Pose(x, y, f) for (x, y), f in zip(spawn, facings,
                                                                          strict=True)]
        self.spawns = tuple(self.poses)
        self.status = ["alive"] * players  # alive, dead, ejected, left
        self.known_dead: set[int] = set()  # the dead everyone knows of (found at a meeting)
        self.corpses: dict[Pos, int] = {}
        self.closed: frozenset[Pos] = frozenset(self.board.doors)  # doors start closed
        # Every seat gets three stations and task names from its seat number alone, so what a
        # crewmate is given never tells it who the impostors are; an impostor's are its cover
        # (DO_TASK there changes nothing).
        self.tasks: list[list[Task]] = [
            [Task(f"{kind}_task_{TASKS_PER_SEAT * seat + k + 1}", kind,
                  self.board.stations[TASKS_PER_SEAT * seat + k], required, reward)
             for k, (kind, required, reward) in enumerate(TASK_KINDS)]
            for seat in range(players)]
        self.tasks_total = TASKS_PER_SEAT * len(self.crew)
        self.tasks_done = 0
        self.cooldown = [config.kill_cooldown if s in self.impostors else 0
                         for s in range(players)]
        self.calls_left = [config.button_calls] * players
        self.history: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        self.still = [0] * players  # steps in a row without moving (the stall alert)
        self.tick = 0  # env steps done
        self.phase = "tasks"
        self.answers: dict[int, Any] = {}  # this step's actions, or this meeting's ballots
        # Seats whose NOOP this step is a person's wait (`{"choice": "7", "wait": true}`): a
        # NOOP like any other, marked in the trace so that the stall detector passes it over.
        self.standing_by: set[int] = set()
        self.meeting: dict[str, Any] | None = None
        self.meetings = 0
        self.last_vote: dict[str, Any] | None = None
        self.trust: list[dict[int, float]] = [{} for _ in range(players)]
        self.rewards = [0.0] * players
        self._sight: LRUCache[tuple[Pos, frozenset[Pos]], frozenset[Pos]] = LRUCache(
            SIGHT_BYTES, getsizeof=tiles_bytes)
        self._everything: frozenset[Pos] | None = None  # what a global view sees
        self._spaces: dict[tuple[int, ...], ActionSpace] = {}
        self._allowed: dict[int, list[int]] = {}  # per seat, until the state changes
        self._patches: LRUCache[tuple[Pos, frozenset[Pos]], list[str]] = LRUCache(
            PATCH_BYTES, getsizeof=rows_bytes)  # bare view patches
        self.clock = {"step": 0, "phase": "tasks"}
        self.emit("game_started", {"players": players, "impostors": len(self.impostors),
                                   "map": observe.map_info(self)})
        for seat in range(players):
            mates = sorted(self.impostors - {seat}) if seat in self.impostors else []
            self.emit("role_assigned", {"seat": seat, "role": self.roles[seat].name,
                                        "teammates": mates}, (seat,))
        self._waiting = self._living()

    # -- the contract ------------------------------------------------------------------------
    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return NO_ACTION
        if self.phase == "vote":
            return observe.ballot_space(self, seat)
        allowed = tuple(self.allowed(seat))
        space = self._spaces.get(allowed)
        if space is None:
            space = self._spaces[allowed] = observe.action_space(allowed)
        return space

    def _public_state(self) -> dict[str, Any]:
        return observe.public_state(self)

    def _private_state(self, seat: int) -> dict[str, Any]:
        return observe.private_state(self, seat)

    def default_action(self, seat: int) -> Action:
        """NOOP in a step; skip at a meeting."""
        return {"vote": syntax.SKIP} if self.phase == "vote" else {"choice": str(NOOP)}

    def hidden_setup(self) -> dict[str, Any]:
        return {"roles": [r.to_json() for r in self.roles],
                "impostors": sorted(self.impostors),
                "spawns": [list(p) for p in self.spawns if p is not None],
                "tasks": {str(s): [t.setup() for t in self.tasks[s]] for s in sorted(self.crew)},
                "map": self.board.render(frozenset(self.board.doors)).splitlines()}

    def pace(self, seat: int) -> float | None:
        """At a `tick` table a step waits tick_ms for people, then they stand still (NOOP);
        meetings keep the table's turn timer."""
        if self.config.pace == "tick" and self.phase == "tasks":
            return self.config.tick_ms / 1000
        return None

    def revealed_roles(self) -> frozenset[str]:
        """The roles of ejected players, when meetings announce them."""
        if not self.config.reveal_ejected:
            return frozenset()
        return frozenset(self.roles[s].name for s in range(self.players)
                         if self.status[s] == "ejected")

    def _apply(self, seat: int, action: Action) -> str | None:
        if self.phase == "vote":
            return self._ballot(seat, action)
        try:
            chosen = syntax.parse_action(action)
        except syntax.AnswerError as e:
            return self.reject(seat, str(e), FORMAT, step=self.tick)
        if chosen not in self.allowed(seat):
            return self.reject(seat, f"{observe.ACTION_NAMES[chosen]} is not allowed now",
                               RULE, step=self.tick)
        self.answers[seat] = chosen
        if chosen == NOOP and isinstance(action, Mapping) and action.get("wait") is True:
            self.standing_by.add(seat)
        self._waiting = self._waiting - {seat}
        if not self._waiting:
            self._resolve_step()
        return None

    def _on_forfeit(self, seat: int, why: str) -> None:
        """A person who leaves is out of the game (no corpse); the others play on."""
        self.changed()
        self._remove(seat, "left")
        self.emit("player_left", {"seat": seat, "reason": why})
        self.answers.pop(seat, None)
        self._waiting = self._waiting - {seat}
        if not self._check_end() and not self._waiting:
            if self.phase == "vote":
                self._resolve_vote()
            else:
                self._resolve_step()

    # -- what a seat may do --------------------------------------------------------------------
    def living(self, seat: int) -> bool:
        return self.status[seat] == "alive"

    def _living(self) -> frozenset[int]:
        return frozenset(s for s in range(self.players) if self.status[s] == "alive")

    def occupied(self, exclude: int | None = None) -> set[Pos]:
        """Tiles players and corpses stand on."""
        taken = {p.pos for s, p in enumerate(self.poses) if p is not None and s != exclude}
        return taken | set(self.corpses)

    def sight(self, seat: int) -> frozenset[Pos]:
        """The tiles `seat` sees now (cached per place and door state)."""
        pose = self.poses[seat]
        if pose is None:
            return frozenset()
        if self.config.observation == "global":  # the same from everywhere: kept once
            if self._everything is None:
                self._everything = vision.visible_tiles(self.board, pose.pos, self.closed,
                                                        None)
            return self._everything
        key = (pose.pos, self.closed)
        seen = self._sight.get(key)
        if seen is None:
            seen = vision.visible_tiles(self.board, pose.pos, self.closed,
                                        self.config.fov_radius)
            self._sight[key] = seen
        return seen

    def patch(self, seat: int) -> list[str]:
        """The seat's view patch without players and bodies (cached per place and doors)."""
        pose = self.poses[seat]
        assert pose is not None
        key = (pose.pos, self.closed)
        rows = self._patches.get(key)
        if rows is None:
            rows = vision.ascii_patch(self.board, pose.pos, self.sight(seat), self.closed,
                                      radius=self.config.fov_radius)
            self._patches[key] = rows
        return rows

    def allowed(self, seat: int) -> list[int]:
        """ALLOWED_ACTIONS: the movements that are possible, NOOP, and each interaction whose
        condition holds (facing a station, a door, the button, a crewmate to kill; a body in
        sight to report). Kept until the state changes (a view, the legal space and the check
        of an answer all ask)."""
        found = self._allowed.get(seat)
        if found is None:
            found = self._allowed[seat] = self._find_allowed(seat)
        return found

    def changed(self) -> None:
        """The board state changed (a step or a meeting resolved, a player left, or a test
        moved someone): what was worked out from the old state is forgotten."""
        self._allowed.clear()
        self._public = None

    def _find_allowed(self, seat: int) -> list[int]:
        pose = self.poses[seat]
        if pose is None or self.phase != "tasks":
            return []
        board, closed = self.board, self.closed
        occupied = self.occupied(exclude=seat)
        allowed = [a for a in MOVEMENT_ACTIONS
                   if apply_move(board, pose, a, closed, occupied) is not None]
        allowed.append(NOOP)
        ahead = front(pose)
        tile = board.tile(ahead)
        if tile == STATION:
            allowed.append(DO_TASK)
        elif tile == DOOR:
            if ahead in closed:
                allowed.append(OPEN_DOOR)
            elif ahead not in occupied:
                allowed.append(CLOSE_DOOR)
        if self.corpses and any(c in self.sight(seat) for c in self.corpses):
            allowed.append(REPORT_DEADBODY)
        if tile == BUTTON and self.calls_left[seat] > 0:
            allowed.append(CALL_DISCUSSION)
        if seat in self.impostors and self.cooldown[seat] == 0:
            victim = self.player_at(ahead)
            if victim is not None and victim in self.crew:
                allowed.append(KILL)
        return sorted(allowed)

    def player_at(self, pos: Pos) -> int | None:
        for s, p in enumerate(self.poses):
            if p is not None and p.pos == pos:
                return s
        return None

    # -- a step --------------------------------------------------------------------------------
    def _resolve_step(self) -> None:
        self.changed()
        answers, self.answers = self.answers, {}
        standing_by, self.standing_by = self.standing_by, set()
        trace: list[list[Any]] = []  # one compact row per seat that acted, for the metrics
        for seat in self.impostors:  # before the actions: a kill now waits the full cooldown
            if self.cooldown[seat] > 0:
                self.cooldown[seat] -= 1
        called: tuple[str, int, int | None] | None = None
        for seat in sorted(answers):
            if not self.living(seat):
                continue  # killed earlier in this step
            before = self.poses[seat]
            assert before is not None
            done = self._do(seat, answers[seat], before)
            after = self.poses[seat] or before
            if called is None and "meeting" in done:
                called = done.pop("meeting")
            done.pop("moved", None)  # the pose before and after tell it
            if seat in standing_by and answers[seat] == NOOP:
                done["wait"] = True
            trace.append([seat, answers[seat], *before, *after, *([done] if done else [])])
            self._remember(seat, before, answers[seat])
        acted = {row[0] for row in trace}
        for seat in range(self.players):
            if self.status[seat] == "alive" or seat in acted:
                penalty = STEP_IMPOSTOR if seat in self.impostors else STEP_CREW
                self.rewards[seat] += penalty
        self.tick += 1
        self.emit("trace", {"step": self.tick - 1, "seats": trace}, ())
        self.emit("step", {"step": self.tick})
        self.clock = {"step": self.tick, "phase": "tasks"}
        if self._check_end():
            return
        interval = self.config.vote_interval
        if called is not None:
            self._call_meeting(*called)
        elif interval and self.tick % interval == 0:
            self._call_meeting("scheduled", None, None)
        elif self.tick >= self.config.max_steps:
            self._time_up()
        else:
            self._waiting = self._living()

    def _do(self, seat: int, action: int, pose: Pose) -> dict[str, Any]:
        """Carry out one action (a no-op if it is no longer possible); returns what it did."""
        board = self.board
        if action in MOVEMENT_ACTIONS:
            after = apply_move(board, pose, action, self.closed, self.occupied(exclude=seat))
            if after is not None:
                self.poses[seat] = after
            return {"moved": after is not None}
        ahead = front(pose)
        if action == DO_TASK:
            return self._work(seat, ahead)
        if action == OPEN_DOOR and ahead in self.closed:
            self.closed = self.closed - {ahead}
            return {"door": list(ahead)}
        if action == CLOSE_DOOR and board.tile(ahead) == DOOR and ahead not in self.closed \
                and ahead not in self.occupied():
            self.closed = self.closed | {ahead}
            return {"door": list(ahead)}
        if action == REPORT_DEADBODY:
            seen = [c for c in sorted(self.corpses) if c in self.sight(seat)]
            if seen:
                return {"meeting": ("report", seat, self.corpses[seen[0]])}
        if action == CALL_DISCUSSION and board.tile(ahead) == BUTTON and self.calls_left[seat]:
            self.calls_left[seat] -= 1
            return {"meeting": ("button", seat, None)}
        if action == KILL and seat in self.impostors and self.cooldown[seat] == 0:
            victim = self.player_at(ahead)
            if victim is not None and victim in self.crew:
                self._kill(seat, victim)
                return {"killed": victim}
        return {}

    def _work(self, seat: int, station: Pos) -> dict[str, Any]:
        """DO_TASK: one toggle of the crewmate's own task at this station (an impostor's, or
        anyone's at another's station, changes nothing: it only looks like work)."""
        if seat in self.impostors:
            return {}
        task = next((t for t in self.tasks[seat] if t.station == station and not t.done), None)
        if task is None:
            return {}
        task.progress += 1
        self.rewards[seat] += TOGGLE
        if not task.done:
            return {"progressed": True}
        self.rewards[seat] += task.reward
        self.tasks_done += 1
        self.emit("task_completed", {"seat": seat, "task": task.name, "step": self.tick},
                  (seat,))
        return {"progressed": True, "completed": task.name}

    def _kill(self, killer: int, victim: int) -> None:
        pose = self.poses[victim]
        assert pose is not None
        witnesses = [s for s in sorted(self._living() - {killer, victim})
                     if pose.pos in self.sight(s)]
        self._remove(victim, "dead")
        self.corpses[pose.pos] = victim
        self.rewards[killer] += KILLED
        self.rewards[victim] -= KILLED
        self.cooldown[killer] = self.config.kill_cooldown
        self.emit("kill", {"killer": killer, "victim": victim, "at": list(pose.pos),
                           "label": self.board.label(pose.pos), "step": self.tick,
                           "witnesses": witnesses}, (killer, victim, *witnesses))

    def _remove(self, seat: int, status: str) -> None:
        self.status[seat] = status
        self.poses[seat] = None
        self.answers.pop(seat, None)

    def _remember(self, seat: int, before: Pose, action: int) -> None:
        after = self.poses[seat]
        if after is None:
            return
        history = self.history[seat]
        history.append({"step": self.tick, "from": self.board.label(before.pos),
                        "action": action, "to": self.board.label(after.pos)})
        if len(history) > HISTORY:
            del history[0]
        self.still[seat] = self.still[seat] + 1 if after.pos == before.pos else 0

    # -- meetings ------------------------------------------------------------------------------
    def _call_meeting(self, reason: str, by: int | None, body: int | None) -> None:
        found = sorted(s for s in range(self.players)
                       if self.status[s] == "dead" and s not in self.known_dead)
        self.known_dead.update(found)
        self.corpses.clear()
        self.meetings += 1
        self.phase = "vote"
        self.meeting = {"number": self.meetings, "reason": reason, "called_by": by, "body": body,
                        "step": self.tick, "found_dead": found}
        self.clock = {"step": self.tick, "phase": "vote", "meeting": self.meetings}
        self.emit("meeting_called", dict(self.meeting))
        self._waiting = self._living()

    def vote_targets(self, seat: int) -> list[int]:
        """Whom `seat` may vote for: every other living player."""
        return [s for s in sorted(self._living()) if s != seat]

    def _ballot(self, seat: int, action: Action) -> str | None:
        try:
            ballot = syntax.parse_ballot(action, self.players)
        except syntax.AnswerError as e:
            return self.reject(seat, str(e), FORMAT, meeting=self.meetings)
        if ballot.target is not None and ballot.target not in self.vote_targets(seat):
            return self.reject(seat, f"{seat_name(ballot.target)} cannot be voted for now",
                               RULE, meeting=self.meetings)
        self.answers[seat] = ballot
        trust = {s: t for s, t in ballot.trust.items() if s != seat}
        if trust:
            self.trust[seat] = trust
        self._waiting = self._waiting - {seat}
        self.emit("ballot_cast", {"seat": seat, "meeting": self.meetings})
        if not self._waiting:
            self._resolve_vote()
        return None

    def _resolve_vote(self) -> None:
        self.changed()
        ballots: dict[int, syntax.Ballot] = self.answers
        self.answers = {}
        tally: dict[str, int] = {}
        for seat, ballot in sorted(ballots.items()):
            key = syntax.SKIP if ballot.target is None else str(ballot.target)
            tally[key] = tally.get(key, 0) + 1
            self.rewards[seat] += self._ballot_reward(seat, ballot.target)
        ejected = plurality([SKIP if b.target is None else b.target
                             for _, b in sorted(ballots.items())],
                            range(self.players), ties="nobody", skips_count=True).chosen
        result: dict[str, Any] = {
            "meeting": self.meetings, "step": self.tick,
            "votes": {str(s): b.target for s, b in sorted(ballots.items())},
            "tally": tally, "ejected": ejected}
        if ejected is not None:
            impostor = ejected in self.impostors
            self._remove(ejected, "ejected")
            self.rewards[ejected] += EJECTED_IMPOSTOR if impostor else EJECTED_CREW
            if not impostor:
                for s in self.impostors:
                    if self.living(s):
                        self.rewards[s] += CREW_EJECTED_BONUS
            if self.config.reveal_ejected:
                result["role"] = self.roles[ejected].name
        self.last_vote = result
        self.emit("ballots", {"meeting": self.meetings, "step": self.tick, "ballots": {
            str(s): {"target": b.target, "trust": {str(k): v for k, v in b.trust.items()},
                     "thought": b.thought} for s, b in sorted(ballots.items())}}, ())
        self.emit("vote_result", result)
        self.meeting = None
        self.phase = "tasks"
        self.clock = {"step": self.tick, "phase": "tasks"}
        for s in self.impostors:
            self.cooldown[s] = self.config.kill_cooldown
        if self._check_end():
            return
        if self.tick >= self.config.max_steps:
            self._time_up()
            return
        self._waiting = self._living()

    def _ballot_reward(self, seat: int, target: int | None) -> float:
        if target is None:
            return VOTE_SKIP
        if seat in self.crew:
            return VOTE_IMPOSTOR if target in self.impostors else VOTE_CREW
        return 0.0

    # -- the end -------------------------------------------------------------------------------
    def _check_end(self) -> bool:
        """The win conditions (spec §3), checked after every step and vote."""
        crew = [s for s in self.crew if self.living(s)]
        impostors = [s for s in self.impostors if self.living(s)]
        if self.impostors and not impostors:
            self._win(CREW, "every impostor was ejected")
        elif crew and all(t.done for s in crew for t in self.tasks[s]):
            self._win(CREW, "every living crewmate finished all their tasks")
        elif not crew:
            self._win(IMPOSTORS, "every crewmate is dead")
        elif self.impostors and len(impostors) >= len(crew):
            self._win(IMPOSTORS, f"{len(impostors)} impostor{'s' if len(impostors) > 1 else ''}"
                                 f" and {len(crew)} crewmate{'s' if len(crew) > 1 else ''} left: "
                                 f"the impostors cannot be outvoted")
        else:
            return False
        return True

    def _time_up(self) -> None:
        if self.impostors:
            self._win(IMPOSTORS, f"time ran out after {self.tick} steps")
        else:
            self._end((), f"time ran out after {self.tick} steps with "
                          f"{self.tasks_done}/{self.tasks_total} tasks done")

    def _win(self, side: str, why: str) -> None:
        winners = self.crew if side == CREW else self.impostors
        for s in range(self.players):
            self.rewards[s] += WIN if s in winners else -WIN
        self._end(tuple(sorted(winners)), f"{'crew' if side == CREW else 'impostors'} win: {why}")

    def _end(self, winners: tuple[int, ...], reason: str) -> None:
        self.phase = "over"
        self.finish({s: round(r, 3) for s, r in enumerate(self.rewards)}, winners, reason)
