"""AmongAgents' rules (spec §2, §4–§9; every decision in docs/rules/amongagents.md).

One seat acts at a time. A timestep is either a task round (every living player acts once, in
seat order; a later player sees what earlier ones did this round, if it happened in its room)
or a whole meeting (everyone to the Cafeteria, `discussion_rounds` rounds of speeches in seat
order, then a public vote in seat order; a unique plurality ejects, a tie ejects nobody). A
button call or a body report stops the round and makes the next timestep a meeting. After each
timestep the game checks, in this order: impostors at least as many as crewmates, no impostor
left, every living crewmate's tasks done, the time limit.

What a seat learns comes only from its room (§9): moves and vents are seen from the rooms at
both ends, a fake task looks like a real one, task-phase speech is heard in the room, the
unreported dead lie where they fell; the cameras in Security show one room's players with
their raw last actions. A meeting tells everyone who has died since the last one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.amongagents import views
from engine.amongagents.config import (
    CREW_SIDE,
    IMPOSTOR,
    IMPOSTOR_SIDE,
    AmongConfig,
    deal_colours,
    deal_tasks,
)
from engine.amongagents.ship import CAFETERIA, COMMON
from engine.amongagents.syntax import Chosen, Offer, ParseError, parse_choice, parse_speech
from engine.core import Action, ActionSpace, Env, Game, Visibility
from engine.deduction import SKIP, SequentialBallot, plurality, seat_order
from engine.policy import FORMAT

TASK, MEETING, OVER = "task", "meeting", "over"
# How a game ends (spec §8), in the order they are checked.
CREW_ELIMINATED, IMPOSTORS_ELIMINATED, TASKS_DONE, TIME_LIMIT = (
    "crew_eliminated", "impostors_eliminated", "tasks_done", "time_limit")
ENDINGS = (CREW_ELIMINATED, IMPOSTORS_ELIMINATED, TASKS_DONE, TIME_LIMIT)
WHY = {CREW_ELIMINATED: "the impostors are as many as the crewmates",
       IMPOSTORS_ELIMINATED: "no impostor is left",
       TASKS_DONE: "every task of the living crewmates is done",
       TIME_LIMIT: "the time limit is reached"}
IDLE = {"verb": "idle"}  # what the cameras show of someone who has not acted yet


class AmongGame(Game):
    __slots__ = ("colours", "impostors", "alive", "location", "bodies", "tasks", "cooldown",
                 "kill_ready", "buttons", "timestep", "phase", "round", "queue", "offers",
                 "call", "ballot", "speeches", "meetings", "last_acts", "seen", "mine",
                 "camera", "known_dead", "revealed", "ending")
    config: AmongConfig

    def __init__(self, env: Env, config: AmongConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self.colours = deal_colours(seed, players)
        self.impostors = frozenset(s for s in range(players) if self.roles[s].name == IMPOSTOR)
        dealt = deal_tasks(config, seed)
        # Each task is [kind, timesteps left]; an impostor keeps only the common ones, to fake.
        self.tasks = [[[k, k.duration] for k in dealt[s]
                       if s not in self.impostors or k.type == COMMON] for s in range(players)]
        self.alive = [True] * players
        self.location = [CAFETERIA] * players
        self.bodies: dict[int, str] = {}  # unreported dead -> room, in the order they fell
        self.cooldown = [0] * players
        self.kill_ready = False
        self.buttons = 0
        self.timestep = 0
        self.phase = TASK
        self.round = 0  # the meeting's discussion round; rounds + 1 while voting
        self.queue: list[int] = []
        self.offers: tuple[Offer, ...] = ()
        self.call: dict[str, Any] | None = None  # the meeting called this round
        self.ballot: SequentialBallot | None = None
        self.speeches: list[dict[str, Any]] = []  # this meeting's
        self.meetings: list[dict[str, Any]] = []  # each meeting's outcome (public)
        self.last_acts: list[dict[str, Any]] = [IDLE] * players
        self.seen: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        self.mine: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        self.camera: list[dict[str, Any] | None] = [None] * players
        self.known_dead: list[int] = []  # deaths announced to everyone, in order
        self.revealed: set[int] = set()  # ejected seats whose role was announced
        self.ending: str | None = None
        self._set_clock()
        self.emit("game_started", {"players": players, "colours": list(self.colours),
                                   "impostors": config.impostors,
                                   "discussion_rounds": config.discussion_rounds,
                                   "max_timesteps": config.max_timesteps})
        for seat in range(players):
            data: dict[str, Any] = {"seat": seat, "role": self.roles[seat].name,
                                    "tasks": [views.task_json(k) for k, _ in self.tasks[seat]]}
            if seat in self.impostors:
                data["teammates"] = sorted(self.impostors - {seat})
            self.emit("role_assigned", data, (seat,))
        self._start_round()
        self._advance()

    # -- the contract ------------------------------------------------------------------------
    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return views.NO_ACTION
        return views.action_space(self)

    def _public_state(self) -> dict[str, Any]:
        return views.public_state(self)

    def _private_state(self, seat: int) -> dict[str, Any]:
        return views.private_state(self, seat)

    def default_action(self, seat: int) -> dict[str, Any]:
        """Harmless: the first move in the list in the task phase, "..." in a discussion, a
        skip (or, without skips, no vote at all) in a vote."""
        if self.phase == MEETING and self.round <= self.config.discussion_rounds:
            return {"text": "..."}
        if self.phase == MEETING:
            return {"choice": "skip"} if self.config.allow_skip else {"abstain": True}
        first = next(o for o in self.offers if o.verb == "move")
        return {"choice": first.id}

    def hidden_setup(self) -> dict[str, Any]:
        return {**super().hidden_setup(),
                "tasks": [[views.task_json(k) for k, _ in self.tasks[s]]
                          for s in range(self.players)]}

    def notice_audience(self, seat: int) -> Visibility | Sequence[int]:
        """In the task phase a notice that a seat's move was defaulted goes to that seat only:
        it would tell everyone whose turn it was, and so who was skipped (dead)."""
        return (seat,) if self.phase == TASK else "all"

    def revealed_roles(self) -> frozenset[str]:
        return frozenset(self.roles[s].name for s in self.revealed)

    def _apply(self, seat: int, action: Action) -> str | None:
        if self.phase == MEETING and self.round <= self.config.discussion_rounds:
            return self._speak_in_meeting(seat, parse_speech(action, self.config.max_chat_chars))
        try:
            chosen = parse_choice(action, self.offers, self.config.max_chat_chars)
        except ParseError as e:
            return self.reject(seat, str(e), FORMAT, timestep=self.timestep)
        if self.phase == MEETING:
            return self._vote(seat, chosen)
        return self._task_action(seat, chosen)

    # -- helpers the views use ---------------------------------------------------------------
    def name(self, seat: int) -> str:
        """How the released code names a player: `Player 3: green` (1-based)."""
        return f"Player {seat + 1}: {self.colours[seat]}"

    def here(self, room: str) -> list[int]:
        """The living players in `room`, in seat order."""
        return [s for s in range(self.players) if self.alive[s] and self.location[s] == room]

    def completion(self) -> float:
        """Done task timesteps over all task timesteps of the living crewmates (§4.4: a task
        counts when finished)."""
        done = total = 0
        for s in range(self.players):
            if self.alive[s] and s not in self.impostors:
                total += len(self.tasks[s])
                done += sum(1 for _, left in self.tasks[s] if left == 0)
        return done / total if total else 1.0

    # -- the turn ----------------------------------------------------------------------------
    def _advance(self) -> None:
        while self._result is None:
            queue = self.queue
            while queue and not self.alive[queue[0]]:
                queue.pop(0)
            if queue:
                self._begin_turn(queue[0])
                return
            self._end_of_part()

    def _begin_turn(self, seat: int) -> None:
        """The seat's step begins: its kill is offered when its cooldown is 0, then the
        cooldown goes down by one (every own step counts, meetings included: spec §6)."""
        if seat in self.impostors:
            self.kill_ready = self.cooldown[seat] == 0
            self.cooldown[seat] = max(self.cooldown[seat] - 1, 0)
        else:
            self.kill_ready = False
        self.offers = views.offers(self, seat)
        self._waiting = frozenset((seat,))

    def _done(self) -> None:
        if self.queue:
            self.queue.pop(0)
        self._advance()

    def _set_clock(self) -> None:
        self.clock = {"timestep": self.timestep, "phase": self.phase, "round": self.round}

    def _end_of_part(self) -> None:
        """The current round of the task phase, discussion or vote is over."""
        if self.phase == TASK:
            self.timestep += 1
            if self._check_end():
                return
            if self.call is not None:
                self._start_meeting()
            else:
                self._start_round()
        elif self.round < self.config.discussion_rounds:
            self.round += 1
            self._set_clock()
            self.emit("discussion_round", {"round": self.round,
                                           "rounds": self.config.discussion_rounds})
            self.queue = seat_order(self.alive)
        elif self.round == self.config.discussion_rounds:
            self.round += 1
            self._set_clock()
            self.ballot = SequentialBallot(seat_order(self.alive))
            self.emit("voting_started", {"order": self.ballot.order[:],
                                         "skip": self.config.allow_skip})
            self.queue = self.ballot.order[:]
        else:
            self._close_vote()

    def _start_round(self) -> None:
        self.phase, self.round, self.call = TASK, 0, None
        self._set_clock()
        self.emit("timestep", {"timestep": self.timestep, "phase": TASK})
        self.queue = seat_order(self.alive)

    # -- the task phase ----------------------------------------------------------------------
    def _observe(self, seat: int, rooms: tuple[str, ...], entry: dict[str, Any],
                 own: dict[str, Any] | None = None, own_event: str | None = None) -> None:
        """`entry` is seen by the other living players in `rooms`; the actor keeps `own` (or
        the entry itself) among its own actions, told as `own_event` when it differs."""
        watchers = [s for s in range(self.players)
                    if s != seat and self.alive[s] and self.location[s] in rooms]
        mine = entry if own is None else own
        self._remember(self.mine[seat], mine)
        for s in watchers:
            self._remember(self.seen[s], entry)
        if own is None:
            self.emit("action", entry, (seat, *watchers))
        else:
            if own_event:
                self.emit(own_event, own, (seat,))
            if watchers:
                self.emit("action", entry, watchers)

    def _remember(self, log: list[dict[str, Any]], entry: dict[str, Any]) -> None:
        log.append(entry)
        if len(log) > self.config.memory:
            del log[0]

    def _task_action(self, seat: int, chosen: Chosen) -> None:
        offer = chosen.offer
        assert offer is not None  # an abstention is a vote only
        room = self.location[seat]
        base = {"timestep": self.timestep, "seat": seat, "verb": offer.verb, "room": room}
        verb = offer.verb
        if verb in ("move", "vent"):
            self.location[seat] = offer.room  # type: ignore[assignment]
            entry = {**base, "to": offer.room}
            self._observe(seat, (room, offer.room), entry)  # type: ignore[arg-type]
        elif verb == "kill":
            target = offer.seat
            assert target is not None
            entry = {**base, "target": target}
            self._observe(seat, (room,), entry)  # the victim sees it too
            self.alive[target] = False
            self.bodies[target] = room
            self.cooldown[seat] = self.config.kill_cooldown
        elif verb in ("task", "fake"):
            task = self.tasks[seat][offer.task]  # type: ignore[index]
            task[1] -= 1
            own = {**base, "task": views.task_json(task[0]), "left": task[1]}
            self._observe(seat, (room,), {**base, "verb": "working"}, own, "task_worked")
        elif verb == "speak":
            self._observe(seat, (room,), {**base, "text": chosen.text})
        elif verb == "monitor":
            # Others in Security see the monitor used, not which room it shows.
            self._observe(seat, (room,), base, {**base, "watched": chosen.room})
            self._watch(seat, chosen.room)  # type: ignore[arg-type]
        else:  # the button or a report
            self.buttons += 1
            self.call = {"timestep": self.timestep, "seat": seat, "kind": verb, "room": room,
                         "bodies": sorted(s for s, r in self.bodies.items() if r == room)}
            self.last_acts[seat] = {"verb": verb, "room": room}
            self._remember(self.mine[seat], {**base})
            self.emit("meeting_called", self.call)
            self.queue = []
            self._advance()
            return
        self.last_acts[seat] = {k: v for k, v in self.mine[seat][-1].items()
                                  if k not in ("timestep", "seat")}
        self._done()

    def _watch(self, seat: int, room: str) -> None:
        """The cameras: who is in `room` and the raw last action of each (fake tasks, vents and
        kills included), and the unreported dead there."""
        record = {"timestep": self.timestep, "room": room,
                  "players": [{"seat": s, "last": dict(self.last_acts[s])}
                              for s in self.here(room)],
                  "bodies": sorted(s for s, r in self.bodies.items() if r == room)}
        self.camera[seat] = record
        self.emit("camera", {"seat": seat, **record}, (seat,))

    # -- meetings ----------------------------------------------------------------------------
    def _start_meeting(self) -> None:
        self.phase, self.round = MEETING, 1
        self._set_clock()
        dead = [s for s in range(self.players) if not self.alive[s] and s not in self.known_dead]
        self.known_dead.extend(dead)
        self.bodies.clear()  # a meeting reports every body
        for s in range(self.players):
            self.location[s] = CAFETERIA
        self.speeches = []
        self.emit("meeting_started", {"timestep": self.timestep, "called": self.call,
                                      "dead": dead, "rounds": self.config.discussion_rounds})
        self.queue = seat_order(self.alive)

    def _speak_in_meeting(self, seat: int, text: str) -> None:
        entry = {"timestep": self.timestep, "round": self.round, "seat": seat, "text": text}
        self.speeches.append(entry)
        self.last_acts[seat] = {"verb": "speak", "room": CAFETERIA, "text": text}
        self.emit("speech", entry)
        self._done()

    def _vote(self, seat: int, chosen: Chosen) -> None:
        assert self.ballot is not None
        offer = chosen.offer
        target: int | str | None = None if offer is None else (
            SKIP if offer.verb == "skip" else offer.seat)
        self.ballot.cast(seat, target)
        self.last_acts[seat] = {"verb": "vote", "room": CAFETERIA,
                                  "target": None if target == SKIP else target}
        self.emit("vote", {"timestep": self.timestep, "seat": seat,
                           "target": target if isinstance(target, int) else None,
                           "skip": target == SKIP})
        self._done()

    def _close_vote(self) -> None:
        ballot = self.ballot
        assert ballot is not None
        tally = plurality(ballot.choices(), set(ballot.order), ties="nobody",
                          skips_count=self.config.allow_skip)
        out = tally.chosen
        entry: dict[str, Any] = {
            "timestep": self.timestep, "ejected": out, "tied": list(tally.tied),
            "votes": [{"seat": s, "target": c if isinstance(c, int) else None,
                       "skip": c == SKIP} for s, c in ballot.votes]}
        if out is not None:
            self.alive[out] = False
            self.known_dead.append(out)
            if self.config.reveal_role_on_ejection:
                self.revealed.add(out)
                entry["role"] = self.roles[out].name
        self.meetings.append(entry)
        self.emit("vote_result", entry)
        self.ballot = None
        self.phase, self.round = TASK, 0
        self.timestep += 1
        if not self._check_end():
            self._start_round()

    # -- the end -----------------------------------------------------------------------------
    def _check_end(self) -> bool:
        impostors = sum(1 for s in self.impostors if self.alive[s])
        crew = sum(1 for s in range(self.players) if self.alive[s] and s not in self.impostors)
        if impostors >= crew:
            ending = CREW_ELIMINATED
        elif impostors == 0:
            ending = IMPOSTORS_ELIMINATED
        elif self.completion() >= 1.0:
            ending = TASKS_DONE
        elif self.timestep >= self.config.max_timesteps:
            ending = TIME_LIMIT
        else:
            return False
        self.ending = ending
        side = IMPOSTOR_SIDE if ending in (CREW_ELIMINATED, TIME_LIMIT) else CREW_SIDE
        winners = tuple(s for s in range(self.players) if self.roles[s].side == side)
        rewards = {s: 1.0 if s in winners else -1.0 for s in range(self.players)}
        self.phase, self.queue, self.offers = OVER, [], ()
        self._set_clock()
        who = "the crew wins" if side == CREW_SIDE else "the impostors win"
        self.emit("game_ended", {"ending": ending, "timestep": self.timestep,
                                 "completion": round(self.completion(), 4)})
        self.finish(rewards, winners, f"{who}: {WHY[ending]}")
        return True
