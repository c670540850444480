"""AmongAgents baselines: `scripted:agent` plays whichever role its seat is dealt (seat it on
every seat, or on a side: `crew=scripted:agent impostor=random`).

Everything comes from the seat's view and what the seat kept of earlier views in its memory
(`memory["among"]`, plain JSON): where each player was last seen, the kills and vents it saw,
the bodies it found and who was around them. A view holds only the last few observations, so
the memory is what lets a crewmate vote on a kill it saw ten timesteps ago.

- Crewmate: reports a body in its room; calls the button when it is in the Cafeteria and saw
  a living player kill or vent; does a task in its room, else walks the shortest corridor path
  to its nearest unfinished task; once done it wanders. In meetings it says what it saw and
  votes for a player it saw kill or vent, else the one last seen near a body, else skips when
  the table allows it, else for the player most accused in the meeting's speeches (a random
  living player when nobody was).
- Impostor: kills when alone in the room with one crewmate and, as far as it saw, nobody is in
  Security (where the cameras are), or at once when the kill wins the game; after a kill it
  vents away (walks when the room has no vent); fakes its tasks; otherwise walks towards the
  room where it last saw a crewmate alone. In meetings it deflects: answers an accusation by
  accusing the accuser, else casts suspicion on a crewmate it saw near the body (or the most
  accused one), and votes for that player, never for a fellow impostor.

`scripted:cautious` and `scripted:bold` change how much it takes to act (`STYLES`), so a league
has several distinct scripted players.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted
from engine.amongagents.ship import CORRIDOR_MAP, SECURITY, shortest_path

ENV = "amongagents"
_NAMED = re.compile(r"\bplayer\s*(\d+)", re.IGNORECASE)
_CHARGE = re.compile(r"\b(kill|killed|vent|vented|body)\b", re.IGNORECASE)


def _mind(memory: dict[str, Any]) -> dict[str, Any]:
    return memory.setdefault("among", {
        "last": {},  # seat -> [timestep, room] where this seat last saw it
        "evidence": {},  # seat -> [verb, timestep, room, detail]: a kill or vent it saw
        "bodies": {},  # victim -> [room, timestep, [seats around]]
        "room": None,  # where this seat last stood in the task phase
        "goat": None,  # the impostor's scapegoat for the current meeting
    })


def _observe(mind: dict[str, Any], view: Mapping[str, Any]) -> None:
    """Fold this step's view into the memory (idempotent: an observation seen twice changes
    nothing)."""
    public, private = view["public"], view["private"]
    now, me = public["timestep"], view["seat"]
    last = mind["last"]

    def saw(seat: int, t: int, room: str) -> None:
        key = str(seat)
        if seat != me and (key not in last or last[key][0] <= t):
            last[key] = [t, room]

    for e in private.get("seen") or ():
        seat, t = e["seat"], e["timestep"]
        saw(seat, t, e.get("to") or e["room"])
        if e["verb"] in ("kill", "vent"):
            detail = e.get("target") if e["verb"] == "kill" else e.get("to")
            mind["evidence"][str(seat)] = [e["verb"], t, e["room"], detail]
    if public["phase"] != "task" or not private.get("alive"):
        return
    room = private["location"]
    mind["room"] = room
    for s in private.get("here") or ():
        saw(s, now, room)
    for victim in private.get("dead_here") or ():
        if str(victim) not in mind["bodies"]:
            around = sorted({s for s in private.get("here") or ()} | {
                int(k) for k, (t, r) in last.items() if r == room and t >= now - 1
                and int(k) != victim})
            mind["bodies"][str(victim)] = [room, now, around]


def _names(view: Mapping[str, Any]) -> list[str]:
    return [p["name"] for p in view["public"]["players"]]


def _living(view: Mapping[str, Any]) -> set[int]:
    """Players not known to be out (unseen deaths are not known)."""
    return {p["seat"] for p in view["public"]["players"] if not p["out"]}


def _accusations(view: Mapping[str, Any], me: int) -> dict[int, int]:
    """How often each player was named, with a kill, vent or body, in this meeting's speeches
    by others."""
    count: dict[int, int] = {}
    players = len(view["public"]["players"])
    for speech in view["public"]["speeches"]:
        if speech["seat"] == me or not _CHARGE.search(speech["text"]):
            continue
        for n in {int(n) - 1 for n in _NAMED.findall(speech["text"])}:
            if 0 <= n < players and n != speech["seat"]:
                count[n] = count.get(n, 0) + 1
    return count


def _offer(legal: Mapping[str, Any], choice: str) -> bool:
    return any(o["id"] == choice for o in legal.get("options") or ())


def _toward(room: str, goal: str) -> str:
    """The first corridor move on the shortest path from `room` to `goal`."""
    return f"move:{shortest_path(CORRIDOR_MAP, room, goal)[1]}"


class AmongBot(Bot):
    """One seat's play, by its dealt role (see the module doc). `style` changes one side of it
    (`STYLES`): "cautious" acts only on what it saw happen, "bold" on less."""

    identity = "scripted:agent"
    never_awaits = True

    def __init__(self, seed: int = 0, style: str = "agent") -> None:
        self.rng = random.Random(seed)
        self.style = style

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        mind = _mind(memory)
        _observe(mind, view)
        impostor = view["private"].get("role") == "Impostor"
        if legal.get("kind") == "text":
            speech = self.deflect(view, mind) if impostor else self.testify(view, mind)
            return Decision(action={"text": speech[:legal.get("max_chars") or None]})
        if view["public"]["phase"] == "meeting":
            if not impostor:
                return Decision(action={"choice": self.crew_vote(view, mind)})
            vote = self.impostor_vote(view, mind)
            mind["goat"] = None  # a new scapegoat at the next meeting
            return Decision(action={"choice": vote})
        step = self.impostor_step(view, legal, mind) if impostor else \
            self.crew_step(view, legal, mind)
        return Decision(action={"choice": step})

    def _wander(self, legal: Mapping[str, Any]) -> str:
        moves = [o["id"] for o in legal["options"] if o["id"].startswith("move:")]
        return self.rng.choice(moves)

    # -- crewmate ----------------------------------------------------------------------------
    def crew_step(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                  mind: dict[str, Any]) -> str:
        private = view["private"]
        if _offer(legal, "report"):
            return "report"
        living = _living(view)
        if _offer(legal, "button") and (
                any(int(s) in living for s in mind["evidence"])
                or (self.style == "bold" and self.crew_suspect(view, mind) is not None)):
            return "button"
        task = next((o["id"] for o in legal["options"] if o["id"].startswith("task:")), None)
        if task is not None:
            return task
        room = private["location"]
        todo = [t for t in private["tasks"] if not t["done"]]
        if not todo:
            return self._wander(legal)
        nearest = min(todo, key=lambda t: len(shortest_path(CORRIDOR_MAP, room, t["room"])))
        return _toward(room, nearest["room"])

    def crew_suspect(self, view: Mapping[str, Any], mind: Mapping[str, Any]) -> int | None:
        """A living player this seat saw kill or vent, else the one last seen near a body."""
        living = _living(view) - {view["seat"]}
        seen = [int(s) for s, (_, t, _, _) in sorted(mind["evidence"].items(),
                                                     key=lambda kv: -kv[1][1]) if int(s) in living]
        if seen or self.style == "cautious":
            return seen[0] if seen else None
        near: dict[int, int] = {}
        for _room, t, around in mind["bodies"].values():
            for s in around:
                if s in living:
                    near[s] = max(near.get(s, -1), t)
        return max(near, key=lambda s: (near[s], -s)) if near else None

    def crew_vote(self, view: Mapping[str, Any], mind: dict[str, Any]) -> str:
        suspect = self.crew_suspect(view, mind)
        if suspect is not None:
            return f"vote:{suspect}"
        if view["public"]["allow_skip"]:
            return "skip"
        return self._most_accused(view, set())

    def _most_accused(self, view: Mapping[str, Any], spare: set[int]) -> str:
        me = view["seat"]
        pool = sorted(_living(view) - {me} - spare) or sorted(_living(view) - {me})
        accused = _accusations(view, me)
        top = max(accused.get(s, 0) for s in pool)
        return f"vote:{self.rng.choice([s for s in pool if accused.get(s, 0) == top])}"

    def testify(self, view: Mapping[str, Any], mind: Mapping[str, Any]) -> str:
        names = _names(view)
        suspect = self.crew_suspect(view, mind)
        if suspect is None:
            where = mind.get("room") or "the Cafeteria"
            tail = " I would rather skip." if view["public"]["allow_skip"] else ""
            return f"I was doing my tasks around {where} and saw nothing suspicious.{tail}"
        found = mind["evidence"].get(str(suspect))
        if found:
            verb, t, room, detail = found
            what = (f"KILL {names[detail]} in {room}" if verb == "kill"
                    else f"VENT from {room} to {detail}")
            return f"I saw {names[suspect]} {what} at timestep {t}. I vote for {names[suspect]}."
        victim, (room, t, _) = next((int(v), b) for v, b in mind["bodies"].items()
                                    if suspect in b[2])
        return (f"{names[suspect]} was in {room} near the body of {names[victim]} at timestep "
                f"{t}. I vote for {names[suspect]}.")

    # -- impostor ----------------------------------------------------------------------------
    def impostor_step(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                      mind: dict[str, Any]) -> str:
        private = view["private"]
        me, room = view["seat"], private["location"]
        team = {me, *private.get("teammates", ())}
        ids = [o["id"] for o in legal["options"]]
        kills = [i for i in ids if i.startswith("kill:")]
        crew_here = [s for s in private["here"] if s not in team]
        if kills and self._may_kill(view, mind, team, crew_here):
            return kills[0]
        if private["dead_here"]:  # never linger by a body: vent away, else walk
            vents = [i for i in ids if i.startswith("vent:")]
            return self.rng.choice(vents) if vents and not crew_here else self._wander(legal)
        fake = next((i for i in ids if i.startswith("fake:")), None)
        if fake is not None:
            return fake
        todo = [t["room"] for t in private["tasks"] if not t["done"]]
        prey = self._prey(view, mind, team)
        goal = todo[0] if todo else prey
        if goal is None or goal == room:
            return self._wander(legal)
        return _toward(room, goal)

    def _may_kill(self, view: Mapping[str, Any], mind: Mapping[str, Any], team: set[int],
                  crew_here: Sequence[int]) -> bool:
        living_crew = len(_living(view) - team) - len(
            [v for v in mind["bodies"] if int(v) in _living(view)])
        if living_crew - 1 <= len(team):
            return True  # this kill wins the game at the end of the timestep
        if len(crew_here) != 1:
            return False
        if self.style == "bold":
            return True
        if self.style == "cautious" and not view["private"].get("vents"):
            return False  # no way out unseen
        watchers = [s for s, (_, r) in mind["last"].items()
                    if int(s) not in team and int(s) != crew_here[0] and r == SECURITY]
        return not watchers

    def _prey(self, view: Mapping[str, Any], mind: Mapping[str, Any], team: set[int]
              ) -> str | None:
        """The room where a crewmate was last seen alone, most recent first."""
        living = _living(view) - team
        rooms: dict[str, list[int]] = {}
        for s, (t, r) in mind["last"].items():
            if int(s) in living:
                rooms.setdefault(r, []).append(t)
        alone = [(max(ts), r) for r, ts in rooms.items() if len(ts) == 1]
        return max(alone)[1] if alone else None

    def _goat(self, view: Mapping[str, Any], mind: dict[str, Any]) -> int | None:
        """The crewmate to blame this meeting: one last seen near the dead, else the most
        accused, else any (kept for the whole meeting)."""
        private = view["private"]
        team = {view["seat"], *private.get("teammates", ())}
        living = _living(view) - team
        if mind.get("goat") in living:
            return mind["goat"]
        near = [int(s) for s, (t, r) in sorted(mind["last"].items(), key=lambda kv: -kv[1][0])
                if int(s) in living and any(r == b[0] for b in mind["bodies"].values())]
        accused = _accusations(view, view["seat"])
        ranked = sorted(living, key=lambda s: (-accused.get(s, 0), s))
        goat = near[0] if near else (ranked[0] if ranked and accused.get(ranked[0]) else (
            self.rng.choice(sorted(living)) if living else None))
        mind["goat"] = goat
        return goat

    def deflect(self, view: Mapping[str, Any], mind: dict[str, Any]) -> str:
        names, me = _names(view), view["seat"]
        team = {me, *view["private"].get("teammates", ())}
        accusers = [s["seat"] for s in view["public"]["speeches"]
                    if s["seat"] not in team and _CHARGE.search(s["text"])
                    and me + 1 in {int(n) for n in _NAMED.findall(s["text"])}]
        where = mind.get("room") or "the Cafeteria"
        if accusers and accusers[-1] in _living(view):
            mind["goat"] = accuser = accusers[-1]
            return (f"That is not true: I was doing my tasks in {where}. {names[accuser]} is "
                    f"accusing me to cover their own tracks. I vote for {names[accuser]}.")
        goat = self._goat(view, mind)
        if goat is None:
            return f"I was doing my tasks in {where}."
        return (f"I was doing my tasks in {where}. I saw {names[goat]} near the body, acting "
                f"strangely. I vote for {names[goat]}.")

    def impostor_vote(self, view: Mapping[str, Any], mind: dict[str, Any]) -> str:
        team = {view["seat"], *view["private"].get("teammates", ())}
        goat = self._goat(view, mind)
        if goat is not None:
            return f"vote:{goat}"
        return self._most_accused(view, team)


_DESCRIPTION = ("plays its seat's role: the crew walks to its tasks, reports bodies and votes on "
                "what it saw; the impostor fakes tasks, kills unseen, vents away and deflects")
register_scripted(ENV, "agent", _DESCRIPTION)(lambda seed: AmongBot(seed))
STYLES = {
    "cautious": "the agent, but cautious: the crew votes and testifies only on a kill or vent it "
                "saw; the impostor kills only in a room with a vent out",
    "bold": "the agent, but bold: the crew presses the button on a player seen near a body; "
            "the impostor kills whenever alone with a crewmate, cameras or not",
}
for _style, _text in STYLES.items():
    register_scripted(ENV, _style, _text)(lambda seed, style=_style: AmongBot(seed, style))
