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

The texts live in socialgrid_text.py, the reading of replies in socialgrid_replies.py, and what
a seat remembers between turns in socialgrid_memory.py.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bots.prompts.base import PromptBuilder, Verdict, strip_reasoning
from bots.prompts.socialgrid_memory import log_sightings, vote_notes
from bots.prompts.socialgrid_replies import (
    action_value,
    check_ballot,
    clean_ballot,
    keyed_answer,
    last_line_action,
    last_object,
    thought_of,
)
from bots.prompts.socialgrid_text import (
    ACTION_HELP,
    COORDINATES,
    HABITS,
    LEGEND,
    MOVEMENT,
    RUBRIC,
    goal_text,
    identity_text,
    impostor_advice,
    last_vote_text,
    meetings_text,
    oracle_level,
    oracle_text,
    player_name,
    player_status,
    setup_text,
    step_format,
)
from engine.describe import with_article
from engine.socialgrid import syntax
from engine.socialgrid.moves import ACTION_NAMES, KILL

MAX_NOTE = 300  # characters of a mid-level plan carried to the next step


def _is_vote(view: Mapping[str, Any], legal: Mapping[str, Any]) -> bool:
    return legal.get("kind") == "form" or (view.get("public") or {}).get("phase") == "vote"



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
        parts = [identity_text(private), setup_text(view), goal_text(private),
                 "Actions (by number):\n" + "\n".join(
                     f"{a} {ACTION_NAMES[a]}: {ACTION_HELP[a]}" for a in ACTION_NAMES),
                 LEGEND, COORDINATES, MOVEMENT, meetings_text(public),
                 oracle_text(public, impostor),
                 HABITS]
        if impostor:
            parts.append(impostor_advice(private, public))
        else:
            parts.append(
                "Stay safe: any player near you may be an impostor, so treat players close to "
                "you as possible threats and avoid being alone with one when you can. When "
                "you see a body, REPORT_DEADBODY calls a meeting where everyone votes.")
        parts.append(step_format(public))
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
        players = "; ".join(player_status(p) for p in public.get("players") or ())
        targets = ", ".join(private.get("vote_targets") or ()) or "nobody"
        role = with_article(private.get("role", "player"))
        return "\n\n".join([
            f"You are {me}, {role}, in a meeting of SocialGrid, a game "
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
            lines.append("Players: " + "; ".join(player_status(p) for p in players) + ".")
        meeting = public.get("meeting") or {}
        dead = meeting.get("found_dead")
        if public.get("phase") == "vote" and dead is not None:
            found = ", ".join(player_name(s) for s in dead) or "nobody"
            lines.append(f"Found dead at this meeting: {found}.")
        last = public.get("last_vote")
        if last:
            lines.append(last_vote_text(last))
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
                f"{step_format(view.get('public') or {}, short=True)}")

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
        log_sightings(log, view)
        if oracle_level(view.get("public") or {}) != "mid":
            return
        data = last_object(strip_reasoning(reply), "action")
        plan = data.get("plan") if data else None
        step = (view.get("public") or {}).get("step")
        memory["notes"] = (f"(step {step}) {plan.strip()[:MAX_NOTE]}"
                           if isinstance(plan, str) and plan.strip() else "")

    def notes(self, view: Mapping[str, Any], legal: Mapping[str, Any],
              memory: Mapping[str, Any]) -> str:
        if _is_vote(view, legal):
            return vote_notes(view, memory.get("socialgrid") or {})
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
        data = last_object(text, key)
        if data is None:
            data = keyed_answer(text, key)
        if data is None:
            if key == "action":
                bare = last_line_action(text)
                return bare if bare is not None else text
            return text
        if key == "vote":
            return json.dumps(clean_ballot(data))
        return json.dumps({"thought": thought_of(data), "action": action_value(data["action"])})

    def check(self, action: str, view: Mapping[str, Any], legal: Mapping[str, Any]
              ) -> Verdict | None:
        """The engine's own parsers, then the rules' limits: ALLOWED_ACTIONS for a step, the
        living other players (or skip) for a vote."""
        if _is_vote(view, legal):
            return check_ballot(action, view)
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
