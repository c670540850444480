"""Prompts for SocialGrid (spec §9-§11, in our own words). Two kinds of turn:

- A step: the system prompt gives the role and how to win, the setup, the 14 actions, the tile
  legend, coordinates and facings, what blocks movement, and advice (treat nearby players as
  possible threats; do not oscillate or stall; for impostors: when a kill is possible, the
  witness risk, blending in). The per-turn text is the env's own rendering of the view, which
  carries the Planning Oracle's hints at the table's level, plus the public facts it leaves out
  (who is alive, the last vote). The answer is `{"thought": ..., "action": <id>}`; at the mid
  oracle level a short `plan` comes first (structured reasoning), and is shown again next step.
- A meeting: the voting prompt (role and name, the goal, every player, the allowed votes and
  skip, the trust rubric, "vote for the lowest trust, skip when unsure"); the answer is
  `{"thought": ..., "vote": "Player_X" | "skip", "trust_scores": {"Player_0": 0.8, ...}}`.

The action is the last JSON object of the reply (code fences, prose around it and <think>
blocks are fine), checked with the engine's own parsers against the allowed actions or vote
targets. An answer that still does not read after the re-ask goes to the engine, whose policy
makes the harmless default in its place (NOOP, or skip at a meeting): never a kill.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from bots.prompts.base import PromptBuilder, Verdict, strip_reasoning
from engine.socialgrid import syntax
from engine.socialgrid.moves import ACTION_NAMES, KILL

MAX_NOTE = 300  # characters of a mid-level plan carried to the next step
MAX_BODIES = 10  # bodies remembered between meetings
NEAR_BODY = 3  # Manhattan distance at which a player counts as near a body

ACTION_HELP = {
    0: "step one tile the way you face",
    1: "step one tile back, still facing the same way",
    2: "step one tile to your right-hand side, facing unchanged",
    3: "step one tile to your left-hand side, facing unchanged",
    4: "turn a quarter to the left (no step)",
    5: "turn a quarter to the right (no step)",
    6: "turn around (no step)",
    7: "do nothing this step",
    8: "work the task station on your front tile (one toggle)",
    9: "open the closed door on your front tile",
    10: "close the open door on your front tile",
    11: "report a body you can see: this calls a meeting",
    12: "press the emergency button on your front tile: this calls a meeting",
    13: "impostors only: kill the crewmate on your front tile",
}

LEGEND = ("Map symbols: # wall, . floor, T task station, B emergency button, O open door, "
          "D closed door, P another player, C a body, @ you, ? a tile you cannot see (hidden "
          "behind a wall or a closed door), and a blank beyond the edge of the map.")

COORDINATES = (
    "Coordinates: x grows to the right and y grows downwards from (0,0), the top-left corner. "
    "A position such as R10(18,7) names the room by its column then its row (both from 0) and "
    "then the tile's (x,y) on the whole map. Your direction is a code: 100 = facing right "
    "(+x), 101 = facing down (+y), 102 = facing left (-x), 103 = facing up (-y). Steps are "
    "relative to your facing: facing up, STRAFE_RIGHT moves you to +x. Every interaction "
    "(task, door, button, kill) targets your front tile: the one next to you in the direction "
    "you face, so turn to face a station or door before using it.")

MOVEMENT = (
    "Walls, task stations, the button, closed doors, bodies and other players block a step; "
    "open doors and floor do not. ALLOWED_ACTIONS lists exactly what you can do this step: "
    "choose one of those numbers and nothing else. Any other answer counts as invalid and "
    "you stand still (NOOP) for the step.")

HABITS = (
    "Good habits: do not step back and forth between the same tiles or turn on the spot "
    "without moving; when STALL_ALERT shows, you have stood still too long, so move on. Keep "
    "working a task with DO_TASK until its progress is full (it takes several toggles), then "
    "head for the next one.")

RUBRIC = (
    "Rate every other living player with a trust score from 0.0 to 1.0 (0.0 = surely an "
    "impostor, 1.0 = surely a crewmate):\n"
    "- 0.0 to 0.3: you saw them kill, or near a body, acting erratically, or accusing others "
    "without grounds;\n"
    "- 0.4 to 0.6: you know nothing either way;\n"
    "- 0.7 to 1.0: you saw them work at task stations, or they have otherwise been cleared.\n"
    "Vote for the player you trust least; when you are unsure, vote skip.")

_KEYED = re.compile(r'"(action|vote)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)')
_NUMBER = re.compile(r"\b\d{1,2}\b")
_LAST_LINE = re.compile(r"^(?:action\s*[:=]?\s*)?[`*\"' ]*([A-Za-z_0-9]+)[`*\"'. ]*$",
                        re.IGNORECASE)


def _name(seat: int) -> str:
    return f"Player_{seat}"


def _a(role: str) -> str:
    return f"an {role}" if role[:1] in "aeiou" else f"a {role}"


def _is_vote(view: Mapping[str, Any], legal: Mapping[str, Any]) -> bool:
    return legal.get("kind") == "form" or (view.get("public") or {}).get("phase") == "vote"


def _impostor_count(view: Mapping[str, Any]) -> int | None:
    """The number of impostors: an impostor knows its teammates; otherwise only if the public
    view carries it (the rules announce it when the game starts)."""
    public, private = view.get("public") or {}, view.get("private") or {}
    if private.get("role") == "impostor":
        return len(private.get("teammates") or ()) + 1
    for source in (public, public.get("map") or {}):
        count = source.get("impostors")
        if isinstance(count, int) and not isinstance(count, bool):
            return count
    return None


class SocialGridPrompts(PromptBuilder):
    history_unit = "steps"

    # -- the conversation -------------------------------------------------------------------
    def phase(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return "vote" if _is_vote(view, legal) else "move"

    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        if _is_vote(view, legal):
            return self.voting_system(view)
        return self.movement_system(view)

    def movement_system(self, view: Mapping[str, Any]) -> str:
        private, public = view["private"], view["public"]
        impostor = private.get("role") == "impostor"
        parts = [self._identity(private), self._setup(view), self._goal(private),
                 "Actions (by number):\n" + "\n".join(
                     f"{a} {ACTION_NAMES[a]}: {ACTION_HELP[a]}" for a in ACTION_NAMES),
                 LEGEND, COORDINATES, MOVEMENT, self._meetings(public),
                 self._oracle(public, impostor),
                 HABITS]
        if impostor:
            parts.append(self._impostor_advice(private, public))
        else:
            parts.append(
                "Stay safe: any player near you may be an impostor, so treat players close to "
                "you as possible threats and avoid being alone with one when you can. When "
                "you see a body, REPORT_DEADBODY calls a meeting where everyone votes.")
        parts.append(self._step_format(public))
        return "\n\n".join(parts)

    def voting_system(self, view: Mapping[str, Any]) -> str:
        private, public = view["private"], view["public"]
        impostor = private.get("role") == "impostor"
        me = private.get("name", "a player")
        if impostor:
            mates = ", ".join(private.get("teammates") or ()) or "none"
            goal = (f"Your goal: get crewmates voted out and keep the impostors in the game. "
                    f"Your fellow impostors are {mates}: never vote for them.")
        else:
            goal = ("Your goal: find the impostors and vote them out, without ejecting "
                    "crewmates by mistake.")
        players = "; ".join(self._status(p) for p in public.get("players") or ())
        targets = ", ".join(private.get("vote_targets") or ()) or "nobody"
        return "\n\n".join([
            f"You are {me}, {_a(private.get('role', 'player'))}, in a meeting of SocialGrid, a game "
            "of hidden roles: crewmates do tasks and try to find the impostors, who kill "
            "crewmates in secret and pretend to be crewmates.",
            goal,
            f"Players: {players}.",
            "Every living player votes at the same time, without discussion. The player with "
            "the most votes is ejected from the game; a tie, or skip getting the most votes, "
            "ejects nobody.",
            f"You may vote for one of: {targets}; or skip.",
            RUBRIC,
            'Answer with one JSON object and nothing after it: {"thought": "<your reasoning '
            'in a few sentences>", "vote": "Player_X" or "skip", "trust_scores": '
            '{"Player_0": 0.8, ...}} with a score for each player you may vote for.',
        ])

    def render(self, view: Mapping[str, Any], keep: int) -> str:
        """The env's rendering, plus the public facts it leaves out: who is still in the game,
        the last vote and, at a meeting, who was found dead."""
        text = self.env.render(view)
        public = view.get("public") or {}
        if public.get("phase") == "vote":
            text = "\n".join(line for line in text.split("\n")
                             if line.rstrip() != "ALLOWED_ACTIONS:")
        lines = [text]
        players = public.get("players") or ()
        if players:
            lines.append("Players: " + "; ".join(self._status(p) for p in players) + ".")
        meeting = public.get("meeting") or {}
        dead = meeting.get("found_dead")
        if public.get("phase") == "vote" and dead is not None:
            found = ", ".join(_name(s) for s in dead) or "nobody"
            lines.append(f"Found dead at this meeting: {found}.")
        last = public.get("last_vote")
        if last:
            lines.append(self._last_vote(last))
        if public.get("phase") != "vote" and public.get("next_meeting"):
            lines.append(f"Next scheduled meeting at step {public['next_meeting']}.")
        return "\n".join(lines)

    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        if _is_vote(view, legal):
            targets = ", ".join((view.get("private") or {}).get("vote_targets") or ())
            return ("Cast your vote now. Answer with one JSON object: "
                    '{"thought": "...", "vote": "Player_X" or "skip", "trust_scores": '
                    f'{{...}}}} — you may vote for {targets or "nobody"}, or skip.')
        allowed = ", ".join(o["id"] for o in legal.get("options", ()))
        return (f"Choose your action for this step from ALLOWED_ACTIONS ({allowed}). "
                f"{self._step_format(view.get('public') or {}, short=True)}")

    # -- memory ---------------------------------------------------------------------------------
    def remember(self, view: Mapping[str, Any], legal: Mapping[str, Any], reply: str,
                 action: str, memory: dict[str, Any]) -> None:
        """Keep what the views showed (a view holds only the present): where each player was
        last seen and the bodies seen since the last meeting, for the next vote; and at the
        mid oracle level the step's plan, for the next step."""
        log = memory.setdefault("socialgrid", {"seen": {}, "bodies": []})
        if _is_vote(view, legal):
            log["bodies"] = []  # a meeting clears the bodies
            memory["notes"] = ""
            return
        _log_sightings(log, view)
        if self._level(view.get("public") or {}) != "mid":
            return
        data = _last_object(strip_reasoning(reply), "action")
        plan = data.get("plan") if data else None
        step = (view.get("public") or {}).get("step")
        memory["notes"] = (f"(step {step}) {plan.strip()[:MAX_NOTE]}"
                           if isinstance(plan, str) and plan.strip() else "")

    def notes(self, view: Mapping[str, Any], legal: Mapping[str, Any],
              memory: Mapping[str, Any]) -> str:
        if _is_vote(view, legal):
            return _vote_notes(view, memory.get("socialgrid") or {})
        notes = memory.get("notes")
        return f"Your plan from the last step: {notes}" if isinstance(notes, str) and notes \
            else ""

    # -- reading the answer ---------------------------------------------------------------------
    def extract(self, reply: str, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        """The answer as clean JSON: the last JSON object of the reply (fences, prose, <think>
        blocks around it are fine; a broken object still gives its "action" or "vote" value);
        else a bare last line such as `3` or `MOVE_FORWARD`; else the text as it is, for the
        engine to judge."""
        text = strip_reasoning(reply)
        key = "vote" if _is_vote(view, legal) else "action"
        data = _last_object(text, key)
        if data is None:
            data = _keyed(text, key)
        if data is None:
            if key == "action":
                bare = _last_line(text)
                return bare if bare is not None else text
            return text
        if key == "vote":
            return json.dumps(_clean_ballot(data))
        return json.dumps({"thought": _thought(data), "action": _action_value(data["action"])})

    def check(self, action: str, view: Mapping[str, Any], legal: Mapping[str, Any]
              ) -> Verdict | None:
        """The engine's own parsers, then the rules' limits: ALLOWED_ACTIONS for a step, the
        living other players (or skip) for a vote."""
        if _is_vote(view, legal):
            return _check_ballot(action, view)
        try:
            chosen = syntax.parse_action(action)
        except syntax.AnswerError as e:
            return Verdict("unparseable", str(e))
        allowed = [int(o["id"]) for o in legal.get("options", ())]
        if chosen not in allowed:
            listed = ", ".join(f"{a} {ACTION_NAMES[a]}" for a in allowed)
            why = (" (KILL needs a crewmate on your front tile and a kill cooldown of 0)"
                   if chosen == KILL else "")
            return Verdict("illegal", f"{ACTION_NAMES[chosen]} is not in ALLOWED_ACTIONS now"
                                      f"{why}; allowed: {listed}",
                           f"{chosen} {ACTION_NAMES[chosen]}")
        return None

    def reask(self, verdict: Verdict, legal: Mapping[str, Any]) -> str:
        if legal.get("kind") == "form":
            fmt = ('{"thought": "...", "vote": "Player_X" or "skip", "trust_scores": '
                   '{"Player_0": 0.5, ...}}')
        else:
            allowed = ", ".join(o["id"] for o in legal.get("options", ()))
            fmt = f'{{"thought": "...", "action": <one of {allowed}>}}'
        what = "could not be read" if verdict.kind == "unparseable" else "is not allowed"
        read = f" (read as {verdict.read_as})" if verdict.read_as else ""
        return (f"Your answer{read} {what}: {verdict.message}. Answer again with one JSON "
                f"object: {fmt}")

    # -- pieces -----------------------------------------------------------------------------------
    @staticmethod
    def _level(public: Mapping[str, Any]) -> str:
        return str((public.get("map") or {}).get("oracle") or "low")

    @staticmethod
    def _identity(private: Mapping[str, Any]) -> str:
        role = _a(private.get("role", "player"))
        return (f"You are {private.get('name', 'a player')}, {role}, in SocialGrid: a game of "
                "hidden roles played on a grid of rooms joined by doors. Crewmates walk to "
                "task stations and work them; impostors look like crewmates, but secretly kill "
                "them. Every step all living players act at once.")

    @staticmethod
    def _setup(view: Mapping[str, Any]) -> str:
        public = view.get("public") or {}
        m = public.get("map") or {}
        players = len(public.get("players") or ())
        count = _impostor_count(view)
        impostors = (f"{count} of them impostor{'s' if count != 1 else ''}"
                     if count is not None else "some of them impostors (how many is not shown)")
        sight = ("you see the whole map" if m.get("observation") == "global" else
                 f"you see up to {m.get('fov_radius', 4)} tiles away in x and y, except behind "
                 "walls and closed doors")
        return (f"Setup: {players} players, {impostors}. The map is {m.get('rows', '?')} x "
                f"{m.get('cols', '?')} rooms of {m.get('room_size', '?')} x "
                f"{m.get('room_size', '?')} floor tiles ({m.get('width', '?')} x "
                f"{m.get('height', '?')} tiles with the walls); doors start closed. The game "
                f"lasts at most {m.get('max_steps', '?')} steps; {sight}.")

    @staticmethod
    def _goal(private: Mapping[str, Any]) -> str:
        if private.get("role") == "impostor":
            return ("How to win: you and your fellow impostors win when every crewmate is "
                    "dead, when impostors are at least as many as the living crewmates, or "
                    "when time runs out. The crewmates win if every impostor is voted out, "
                    "or if every living crewmate finishes all their tasks.")
        return ("How to win: the crewmates (you among them) win when every living crewmate "
                "has finished all their tasks, or when every impostor has been voted out. "
                "The impostors win when they are at least as many as the living crewmates, or "
                "when time runs out. Your tasks and their stations are listed each step; a "
                "task takes several DO_TASK toggles while facing its station.")

    @staticmethod
    def _meetings(public: Mapping[str, Any]) -> str:
        interval = (public.get("map") or {}).get("vote_interval")
        scheduled = f", and every {interval} steps" if interval else ""
        return ("Meetings: a reported body or the emergency button calls a meeting"
                f"{scheduled}. At a meeting every living player votes to eject one player or "
                "skips; you will be asked separately.")

    def _oracle(self, public: Mapping[str, Any], impostor: bool) -> str:
        level = self._level(public)
        if level == "low":
            return ("There are no navigation hints: find your way from the observation, your "
                    "position and the positions of your targets.")
        if impostor:
            target = ("the nearest crewmate you can see (only while your kill cooldown is 0; "
                      "otherwise you get no suggestion)")
            distances = "NEAREST_PLAYER_DIST gives its distance to the closest player you see"
        else:
            target = "your nearest unfinished task (or REPORT_DEADBODY when you see a body)"
            distances = ("TASK_NAV_ASTAR_DIST gives its distance to each of your tasks and "
                         "NEAREST_PLAYER_DIST to the closest player you see")
        hint = (f"BEST_ACTION_SUGGESTION is the first move of a shortest path to {target}, "
                f"from a planner that knows the whole map (walls, doors, turns); {distances}. "
                "Its hints are advice: you choose.")
        if level == "mid":
            hint += (" Each movement action is also listed with the position and direction "
                     "it would leave you in; use them to check your plan.")
        return hint

    @staticmethod
    def _impostor_advice(private: Mapping[str, Any], public: Mapping[str, Any]) -> str:
        mates = ", ".join(private.get("teammates") or ()) or "none"
        cooldown = (public.get("map") or {}).get("kill_cooldown")
        wait = f"{cooldown} steps" if cooldown is not None else "a number of steps"
        return (
            f"As an impostor: your fellow impostors are {mates}; you cannot kill them and "
            "should never vote for them. KILL (13) works only when a crewmate stands on your "
            "front tile and your kill cooldown is 0; after a kill, and after every meeting, "
            f"the cooldown starts again at {wait} (the steps remaining are shown each step). "
            "Witnesses: any player within a Manhattan distance of 2 of the kill, or who can "
            "see it, may report you, so kill only when no other crewmate is around. Blend in: "
            "walk to task stations and use DO_TASK there to look busy (it does nothing for "
            "you), keep moving, and do not linger near a body.")

    def _step_format(self, public: Mapping[str, Any], short: bool = False) -> str:
        if self._level(public) == "mid":
            fmt = ('{"thought": "<what you see and where you are going>", "plan": "<your next '
                   'few moves towards your target>", "action": <number>}')
            lead = "reason step by step in the thought and the plan, then give the action; "
        else:
            fmt = '{"thought": "<short reasoning>", "action": <number>}'
            lead = ""
        if short:
            text = f"{lead}answer with one JSON object: {fmt}"
            return text[0].upper() + text[1:]
        return f"Answer format: {lead}reply with one JSON object and nothing after it: {fmt}"

    @staticmethod
    def _status(player: Mapping[str, Any]) -> str:
        status = player.get("status", "alive")
        role = player.get("role")
        was = f", was a {role}" if role else ""
        return f"{player.get('name')} ({status}{was})"

    @staticmethod
    def _last_vote(last: Mapping[str, Any]) -> str:
        ejected = last.get("ejected")
        votes = ", ".join(f"{_name(int(v))}->{'skip' if t is None else _name(t)}"
                          for v, t in sorted((last.get("votes") or {}).items(),
                                             key=lambda kv: int(kv[0])))
        if ejected is None:
            outcome = "nobody was ejected"
        else:
            role = f" (a {last['role']})" if last.get("role") else ""
            outcome = f"{_name(ejected)} was ejected{role}"
        return f"Last meeting ({last.get('meeting')}, step {last.get('step')}): {outcome}; " \
               f"votes: {votes or 'none'}."


# -- reading replies ----------------------------------------------------------------------------
def _objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in the text, in order."""
    decoder = json.JSONDecoder()
    found, at = [], text.find("{")
    while at != -1:
        try:
            value, end = decoder.raw_decode(text, at)
        except ValueError:
            at = text.find("{", at + 1)
            continue
        if isinstance(value, dict):
            found.append(value)
        at = text.find("{", end)
    return found


def _last_object(text: str, key: str) -> dict[str, Any] | None:
    """The last JSON object holding `key`."""
    for data in reversed(_objects(text)):
        if key in data:
            return data
    return None


def _keyed(text: str, key: str) -> dict[str, Any] | None:
    """A broken JSON answer (say, unescaped quotes in the thought): its last "action" or
    "vote" value, and for a vote any "Player_N": score pairs."""
    values = [m for m in _KEYED.finditer(text) if m.group(1) == key]
    if not values:
        return None
    raw = values[-1].group(2)
    value: Any = json.loads(raw)
    data: dict[str, Any] = {key: value}
    if key == "vote":
        pairs = re.findall(r'"([Pp]layer[_ ]?\d{1,2})"\s*:\s*"?(-?\d+(?:\.\d+)?)"?', text)
        data["trust_scores"] = {name: float(score) for name, score in pairs}
    return data


def _last_line(text: str) -> str | None:
    """A reply whose last line is a bare action (`3`, `MOVE_FORWARD`, `Action: 3`)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return None
    found = _LAST_LINE.match(lines[-1].strip())
    if found is None:
        return None
    try:
        syntax.parse_action(found.group(1))
    except syntax.AnswerError:
        return None
    return found.group(1)


def _thought(data: Mapping[str, Any]) -> str:
    thought = data.get("thought")
    return thought[:syntax.MAX_THOUGHT] if isinstance(thought, str) else ""


def _action_value(value: Any) -> Any:
    """An action as the model wrote it, reduced to an id or name when the text holds exactly
    one ("0 MOVE_FORWARD", "MOVE_FORWARD (0)"); anything else is left for the engine to refuse."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, str):
        return value
    upper = value.upper()
    ids = {int(n) for n in _NUMBER.findall(upper)}
    ids |= {a for a, name in ACTION_NAMES.items() if re.search(rf"\b{name}\b", upper)}
    return ids.pop() if len(ids) == 1 else value


def _clean_ballot(data: Mapping[str, Any]) -> dict[str, Any]:
    """A ballot with its trust scores as numbers ("0.8" -> 0.8); the engine clips scores to
    0..1 and drops what it cannot read."""
    vote = data.get("vote")
    ballot: dict[str, Any] = {"thought": _thought(data),
                              "vote": vote if isinstance(vote, str | None) else str(vote)}
    scores = data.get("trust_scores")
    trust: dict[str, Any] = {}
    if isinstance(scores, Mapping):
        for who, score in scores.items():
            if isinstance(score, str):
                try:
                    score = float(score.strip().rstrip("%")) / (100 if "%" in score else 1)
                except ValueError:
                    continue
            if isinstance(score, int | float) and not isinstance(score, bool):
                trust[str(who)] = score
    ballot["trust_scores"] = trust
    return ballot


def _log_sightings(log: dict[str, Any], view: Mapping[str, Any]) -> None:
    """Players and bodies in this step's observation, into the seat's log."""
    step = (view.get("public") or {}).get("step")
    observation = (view.get("private") or {}).get("observation") or {}
    players = observation.get("players") or {}
    for name, seen in players.items():
        log["seen"][name] = [step, seen.get("position")]
    known = {body[1] for body in log["bodies"]}
    for body in observation.get("corpses") or ():
        where = body.get("position")
        if where not in known and len(log["bodies"]) < MAX_BODIES:
            near = sorted(n for n, p in players.items()
                          if abs(p["pos"][0] - body["pos"][0]) + abs(p["pos"][1] - body["pos"][1])
                          <= NEAR_BODY)
            log["bodies"].append([step, where, near])


def _vote_notes(view: Mapping[str, Any], log: Mapping[str, Any]) -> str:
    """What the seat saw before this meeting, and the trust it gave at the last one."""
    lines = []
    for step, where, near in log.get("bodies") or ():
        around = f"; near it: {', '.join(near)}" if near else "; nobody near it"
        lines.append(f"- step {step}: you saw a body at {where}{around}")
    targets = (view.get("private") or {}).get("vote_targets") or ()
    for name in targets:
        seen = (log.get("seen") or {}).get(name)
        if seen:
            lines.append(f"- {name} was last seen by you at step {seen[0]}, at {seen[1]}")
    trust = (view.get("private") or {}).get("trust") or {}
    if trust:
        scores = ", ".join(f"{_name(int(s))} {t:g}" for s, t in sorted(
            trust.items(), key=lambda kv: int(kv[0])))
        lines.append(f"- your trust scores at the last meeting: {scores}")
    return "What you remember:\n" + "\n".join(lines) if lines else ""


def _check_ballot(action: str, view: Mapping[str, Any]) -> Verdict | None:
    public, private = view.get("public") or {}, view.get("private") or {}
    players = len(public.get("players") or ()) or 10
    try:
        ballot = syntax.parse_ballot(action, players)
    except syntax.AnswerError as e:
        return Verdict("unparseable", str(e))
    targets = list(private.get("vote_targets") or ())
    if ballot.target is not None and _name(ballot.target) not in targets:
        return Verdict("illegal", f"{_name(ballot.target)} cannot be voted for now; vote for "
                                  f"one of {', '.join(targets) or 'nobody'}, or skip",
                       f"vote {_name(ballot.target)}")
    return None
