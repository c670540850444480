"""Prompts for AmongAgents (spec §9-§12), in our own words.

- System: who the seat is and its role (fellow impostors named), how a timestep, a meeting and
  the vote work, the ship's rooms and corridors (and, for impostors, the vents), a persona, and
  the reply format: `[Condensed Memory]` (a summary carried to the next turn), `[Thinking
  Process]` (reasoning and plan) and `[Action]` (one available action; `SPEAK: <message>` to
  talk).
- Each turn: the env's own rendering of the seat's view (the per-step text of §9: time, phase,
  room and who is there, recent observations and own actions, tasks with paths, the numbered
  actions), the seat's condensed memory from its last turn and, with the planner on, its last
  thinking (§11), then how to answer.

Personas: the eleven archetypes of the paper's Table 2 (five per role and the Random, for
both), written here by us. The `persona` setting names one (`persona=skeptic`), or `none`;
unset, each bot is dealt one of its role's six from its seed. `planner=off` drops the previous
thought from the prompt (the paper's ablation); the condensed memory is always carried.

Reading the answer: only what follows the last `[Action]` mark is the action, read by the
engine's own parser; a reply with memory or thinking sections but no `[Action]` gives nothing
(its thinking may name a kill it did not choose), and only a bare reply without sections is
read from its last line (a speech: the whole reply). The memory and thinking never choose a
move, and in a discussion they are never spoken. An answer that names no available action is
asked again once with the reason; if it still names none it goes to the engine, whose policy
asks once more and then makes the harmless default (a move, "...", a skip or no vote): never a
kill, a vent or a vote the model did not write.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from bots.llm.settings import LLMSettings, SettingsError
from bots.prompts.base import PromptBuilder, Verdict, strip_reasoning
from engine.amongagents.config import CREWMATE, IMPOSTOR
from engine.amongagents.ship import CORRIDOR_MAP, ROOMS, VENT_SETS
from engine.amongagents.syntax import ACTION_MARK, Offer, ParseError, read_choice
from engine.amongagents.text import ROLE_TEXT

MEMORY_MARK, THINKING_MARK = "[condensed memory]", "[thinking process]"
MAX_CARRIED = 1500  # characters of memory or thought carried to the next turn

# The paper's Table 2 archetypes, in our words: key -> (name, roles, how the persona plays).
PERSONAS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "strategist": ("The Strategist", ("Impostor",),
                   "You think several timesteps ahead. You do not kill at the first chance; "
                   "you wait for a kill nobody can pin on you, and you prepare a believable "
                   "account of where you were before anyone asks."),
    "manipulator": ("The Manipulator", ("Impostor",),
                    "You are warm and persuasive. You win people's trust early, then use it: "
                    "you point the group at an innocent player and steer the votes your way."),
    "lone-wolf": ("The Lone Wolf", ("Impostor",),
                  "You work alone and move a lot, by vents when no one is watching. You go "
                  "after players who wander off by themselves, and in meetings you say "
                  "little, and what you say leads people astray."),
    "paranoid": ("The Paranoid", ("Impostor",),
                 "You are always afraid of being found out. You stir up confusion, suspect "
                 "loudly and push hasty votes so that no one looks at you for long."),
    "cold-calculator": ("The Cold Calculator", ("Impostor",),
                        "You are methodical. You remove the crewmates most likely to expose "
                        "you first, and you keep a tidy, consistent alibi for every step."),
    "leader": ("The Leader", ("Crewmate",),
               "You take charge. You speak up, organise the others, share what you know and "
               "call a meeting as soon as you have something worth discussing."),
    "observer": ("The Observer", ("Crewmate",),
                 "You are quiet and watchful. You keep track of who was where and when, and "
                 "you speak when those details can catch a liar."),
    "skeptic": ("The Skeptic", ("Crewmate",),
                "You take nobody's word for it. You question every claim, ask for evidence "
                "and vote only on what holds up."),
    "loyal-companion": ("The Loyal Companion", ("Crewmate",),
                        "You stay close to a player you trust, get your tasks done quickly and "
                        "speak up for the people you have seen behave well."),
    "tech-expert": ("The Tech Expert", ("Crewmate",),
                    "You rely on information: you use the cameras in Security and report "
                    "exactly who you saw in which room."),
    "random": ("The Random", ("Crewmate", "Impostor"),
               "At the start of the game, pick one way of playing, any way you like, and "
               "stick to it until the end."),
}


# The interviewer (spec §14.1): five categories, what each asks of the player (the judge reads
# this too) and, in our words, the questions and when they come.
INTERVIEW_CATEGORIES = {
    "self_awareness": "knows its own role, its goal and what it takes to win",
    "memory": "recalls what it saw and did: where it went, where it last saw each player",
    "planning": "has a concrete plan for its next moves that serves its role",
    "reasoning": "draws conclusions from evidence: whom it suspects, how it votes, and why",
    "reflection": "looks back on the game: what went well or badly, and what it would change",
}
QUESTIONS = {
    "self_awareness": "What is your role in this game, what is your goal, and what do you need "
                      "to do to win?",
    "memory": "What do you remember of the last few timesteps: where have you been, and where "
              "did you last see each of the other players?",
    "planning:Crewmate": "What is your plan for your next few moves, and why?",
    "planning:Impostor": "What is your plan for your next few moves, and how will you keep "
                         "the others from suspecting you?",
    "reasoning:discussion": "Whom do you suspect at this meeting, if anyone, and on what "
                            "evidence?",
    "reasoning:vote": "Whom are you about to vote for, and why?",
    "reflection": "The game is over. What went well for you, what went badly, and what would "
                  "you do differently?",
}


def personas_for(role: str) -> list[str]:
    return [k for k, (_, roles, _) in PERSONAS.items() if role in roles]


def _is_discussion(legal: Mapping[str, Any]) -> bool:
    return legal.get("kind") == "text"


def _section(text: str, mark: str) -> str | None:
    """The text of a `[...]` section of the reply, up to the next section mark."""
    low = text.lower()
    at = low.rfind(mark)
    if at < 0:
        return None
    start = at + len(mark)
    ends = [i for m in (MEMORY_MARK, THINKING_MARK, ACTION_MARK)
            if (i := low.find(m, start)) >= 0]
    return text[start:min(ends, default=len(text))].strip()


def _has_sections(text: str) -> bool:
    low = text.lower()
    return MEMORY_MARK in low or THINKING_MARK in low


def _offers(legal: Mapping[str, Any]) -> list[Offer]:
    return [Offer(o["id"], o["label"], o["id"].partition(":")[0])
            for o in legal.get("options") or ()]


def _speech_limit(legal: Mapping[str, Any]) -> int:
    for o in legal.get("options") or ():
        if o["id"] == "speak" and o.get("arg"):
            return int(o["arg"].get("max_chars") or 300)
    return int(legal.get("max_chars") or 300)


def _moment(view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
    """The decision point (the same while the engine asks again for the same move)."""
    pub = view["public"]
    return json.dumps([pub["timestep"], pub["phase"], pub["discussion_round"], pub["voting"],
                       len(pub["speeches"]), len(pub["votes"]),
                       [o["id"] for o in legal.get("options") or ()]])


class AmongAgentsPrompts(PromptBuilder):
    history_unit = "observations"

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.planner = True
        self.persona = ""  # "": dealt from the seed per role
        self.interviewed = False
        self.seed = 0

    def configure(self, settings: LLMSettings, seed: int) -> None:
        if settings.persona and settings.persona not in (*PERSONAS, "none"):
            raise SettingsError(f"unknown persona {settings.persona!r}; valid: "
                                f"{', '.join(PERSONAS)}, none")
        self.planner = settings.planner is not False
        self.persona = settings.persona
        self.interviewed = bool(settings.interview)
        self.seed = seed

    def stamp(self) -> dict[str, Any]:
        """The planner and the persona setting, and the persona this seat plays in each role
        (dealt from the seat's seed before the role is known), so a report can say who played
        whom."""
        return {"planner": self.planner, "persona": self.persona or "dealt",
                "personas": {role: self.persona_of(role) for role in (CREWMATE, IMPOSTOR)},
                "interview": self.interviewed}

    def interview(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                  memory: dict[str, Any]) -> list[tuple[str, str]]:
        """The interviewer's questions at their moments (spec §14.1): self-awareness at the
        seat's first decision; memory and planning at its first decision of each task-phase
        timestep; reasoning at its first word of each meeting and before its vote. Reflection
        comes after the game (`debrief`)."""
        pub, priv = view["public"], view["private"]
        asked = memory.setdefault("interview", {})
        due: list[tuple[str, str]] = []
        if not asked.get("started"):
            asked["started"] = True
            due.append(("self_awareness", QUESTIONS["self_awareness"]))
        moment = pub["timestep"]
        if pub["phase"] == "task" and asked.get("timestep") != moment:
            asked["timestep"] = moment
            role = priv.get("role", CREWMATE)
            due += [("memory", QUESTIONS["memory"]),
                    ("planning", QUESTIONS[f"planning:{role}"])]
        elif pub["phase"] == "meeting":
            stage = "discussion" if _is_discussion(legal) else "vote"
            if asked.get(stage) != moment:
                asked[stage] = moment
                due.append(("reasoning", QUESTIONS[f"reasoning:{stage}"]))
        return due

    def debrief(self, view: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [("reflection", QUESTIONS["reflection"])] if self.interviewed else []

    def persona_of(self, role: str) -> str | None:
        """The persona key this seat plays (None: no persona)."""
        if self.persona == "none":
            return None
        if self.persona:
            return self.persona
        return random.Random(f"amongagents-persona:{self.seed}:{role}").choice(
            personas_for(role))

    # -- the conversation -------------------------------------------------------------------
    def phase(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        if _is_discussion(legal):
            return "discuss"
        return "vote" if view["public"]["phase"] == "meeting" else "task"

    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        pub, priv = view["public"], view["private"]
        role = priv.get("role", "Crewmate")
        names = {p["seat"]: p["name"] for p in pub["players"]}
        parts = [f"You are {priv.get('name', 'a player')} in AmongAgents, a text version of "
                 f"Among Us played on the spaceship The Skeld by {len(names)} players, "
                 f"{pub['impostors']} of them impostor(s). {ROLE_TEXT.get(role, '')}"]
        if priv.get("teammates"):
            parts.append("Your fellow impostors: "
                         + ", ".join(names[s] for s in priv["teammates"]) + ".")
        parts.append(self._rules(pub, role))
        parts.append(self._map(pub, role))
        key = self.persona_of(role)
        if key is not None:
            name, _, text = PERSONAS[key]
            parts.append(f"Your personality: {name}. {text}")
        parts.append(
            "Reply in exactly this format:\n[Condensed Memory]\n<a short summary of what you "
            "know so far: who was where, what you saw, what was said; it is given back to you "
            "next turn>\n[Thinking Process]\n<your reasoning and your plan>\n[Action] <one of "
            "the available actions, copied from the list or by its number; SPEAK: <message> to "
            "talk>\nOnly the [Action] line is played; the memory and thinking stay private.")
        return "\n\n".join(parts)

    @staticmethod
    def _rules(pub: Mapping[str, Any], role: str) -> str:
        skip = ("You may also skip; skips compete with the players, and if they lead nobody "
                "is ejected." if pub["allow_skip"] else "There is no skipping.")
        lines = [
            "How the game goes: in the task phase each living player takes one action per "
            "timestep, in seat order, and sees only what happens in its own room (moves are "
            "seen from both rooms; a task, real or fake, looks the same to onlookers). Players "
            "in the same room hear each other speak. A body stays where it fell until someone "
            "reports it.",
            f"A report or the emergency button in the Cafeteria (at most {pub['max_buttons']} "
            f"calls per game, reports included) starts a meeting: everyone goes to the "
            f"Cafeteria, talks for {pub['discussion_rounds']} rounds in seat order, then votes "
            f"in public, one after another. The player with the most votes is ejected; a tie "
            f"ejects nobody. {skip}",
            f"The game lasts at most {pub['max_timesteps']} timesteps (a meeting is one). The "
            f"crew wins when every impostor is ejected or every living crewmate's tasks are "
            f"done; the impostors win when they are as many as the crewmates, or when time "
            f"runs out.",
        ]
        if role == "Impostor":
            lines.append("As an impostor you may kill a crewmate in your room when your kill "
                         "cooldown is 0 (after a kill you wait a few of your own steps), travel "
                         "by vent, and fake tasks. The cameras in Security show a room's "
                         "players with their real last action, kills and vents included.")
        return "\n".join(lines)

    @staticmethod
    def _map(pub: Mapping[str, Any], role: str) -> str:
        lines = ["The Skeld's rooms and the rooms each corridor leads to:"]
        lines += [f"- {room}: {', '.join(CORRIDOR_MAP[room])}" for room in ROOMS]
        if role == "Impostor":
            vents = VENT_SETS.get(pub.get("vents", "declared"), ())
            lines.append("Vents (impostors only, both ways): "
                         + "; ".join(f"{a} - {b}" for a, b in vents) + ".")
        return "\n".join(lines)

    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        if _is_discussion(legal):
            return (f"{legal.get('prompt', 'Meeting discussion.')} Reply with [Condensed "
                    "Memory], [Thinking Process] and last [Action] SPEAK: <what you say to "
                    f"everyone> (at most {_speech_limit(legal)} characters). Only the words "
                    "after SPEAK: are heard.")
        options = legal.get("options") or ()
        example = next((o["label"] for o in options if o["id"] == "skip"),
                       options[0]["label"] if options else "")
        what = "your vote" if view["public"]["phase"] == "meeting" else "your action"
        return (f"Choose {what} from the available actions. Reply with [Condensed Memory], "
                "[Thinking Process] and last [Action] followed by one available action, copied "
                "from the list or by its number (SPEAK: <message>; VIEW MONITOR <room>). "
                f"Without the [Action] mark only your last line is read, for example "
                f"[{example}]")

    # -- memory: the condensed memory always, the last thought with the planner on -----------
    def notes(self, view: Mapping[str, Any], legal: Mapping[str, Any],
              memory: Mapping[str, Any]) -> str:
        mine = memory.get("amongagents") or {}
        parts = []
        if mine.get("memory"):
            parts.append(f"Your condensed memory from your last turn:\n{mine['memory']}")
        if self.planner and mine.get("thought"):
            parts.append(f"Your thinking at your last turn:\n{mine['thought']}")
        refused = mine.get("refused")
        if refused and refused[0] == _moment(view, legal):
            parts.append(f"Your last answer could not be played: {refused[1]}")
        return "\n\n".join(parts)

    def remember(self, view: Mapping[str, Any], legal: Mapping[str, Any], reply: str,
                 action: str, memory: dict[str, Any]) -> None:
        mine = memory.setdefault("amongagents", {"memory": "", "thought": ""})
        text = strip_reasoning(reply)
        for key, mark in (("memory", MEMORY_MARK), ("thought", THINKING_MARK)):
            found = _section(text, mark)
            if found:
                mine[key] = found[:MAX_CARRIED]
        verdict = self.check(action, view, legal)
        mine["refused"] = [_moment(view, legal), verdict.message] if verdict else None

    # -- reading the answer ---------------------------------------------------------------------
    def extract(self, reply: str, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        """What follows the last [Action] mark. Without one, a reply that has private
        sections gives nothing (its thinking may name a kill it never chose); a bare reply
        gives its last line (a choice) or the whole of it (a speech)."""
        text = strip_reasoning(reply)
        at = text.lower().rfind(ACTION_MARK)
        if at >= 0:
            return text[at + len(ACTION_MARK):].strip()
        if _has_sections(text):
            return ""
        if _is_discussion(legal):
            return text
        lines = [line for line in text.splitlines() if line.strip()]
        return lines[-1].strip() if lines else ""

    def check(self, action: str, view: Mapping[str, Any], legal: Mapping[str, Any]
              ) -> Verdict | None:
        if not action.strip() and not _is_discussion(legal):
            return Verdict("unparseable", "there is no [Action] line naming an available "
                                          "action")
        if _is_discussion(legal):
            if not action.strip():
                return Verdict("unparseable", "there is no [Action] SPEAK: <message> line")
            return None  # the engine cuts a long speech
        try:
            read_choice(action, _offers(legal), _speech_limit(legal))
        except ParseError as e:
            return Verdict("unparseable", str(e))
        return None

    def reask(self, verdict: Verdict, legal: Mapping[str, Any]) -> str:
        end = "[Action] SPEAK: <message>" if _is_discussion(legal) else \
            "[Action] followed by one available action (or its number)"
        return (f"Your answer could not be played: {verdict.message}. Answer again in the same "
                f"format, ending with {end}.")
