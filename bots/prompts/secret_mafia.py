"""Prompts for Secret Mafia, in our own words. Three kinds of turn:

- night (Mafia victim, Doctor protection, Detective investigation) and day vote: the answer ends
  with a target in square brackets, e.g. `[3]`;
- discussion: the whole reply is the public speech.

The system prompt gives the seat's role, side, teammates (Mafia), what each phase asks, how to
win and advice for the role, including keeping private reasoning out of public speech (the
paper's agents often leaked their role that way). The per-turn text is the env's own rendering
of the view (the whole game so far; older days can be cut to a summary of deaths and votes).

Extraction: of a target answer, the last line holding a bracketed target (a model's final
answer comes last, while the engine reads the first line holding one), so reasoning before it
never decides the move, nor reaches Mafia teammates as a note; of a speech, the reply without
reasoning blocks. Checks use the engine's own parser and the view's valid targets. The safe
fallback: an answer that still does not read after the re-ask goes to the engine unchanged, whose
policy judges it (a retry first); a speech is never refused (too long is cut, empty is silence).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.prompts.base import PromptBuilder, Verdict, strip_reasoning
from engine.secret_mafia.syntax import AnswerError, read_target
from engine.secret_mafia.text import DESCRIPTIONS

ADVICE = {
    "Mafia": "Advice: agree with your teammate on one victim (you see each other's night "
             "votes); by day sound like a villager, never name your teammate or vote against "
             "them, and steer suspicion onto villagers. If someone claims to be the Detective "
             "and accuses you, you may dispute the claim.",
    "Detective": "Advice: investigate players you know nothing about. Sharing a finding helps "
                 "the village vote well, but a Detective who speaks up becomes the Mafia's "
                 "next target; choose your moment.",
    "Doctor": "Advice: protect the players the Mafia most want dead, such as someone who "
              "credibly claimed to be the Detective. Keep your own role to yourself.",
    "Villager": "Advice: weigh claims and votes. Players who push suspicion without reasons, "
                "or whose votes protect each other, may be Mafia.",
}
ASKS = {
    "kill": "Night: vote for the Mafia's victim",
    "protect": "Night: choose the player you protect",
    "investigate": "Night: choose the player you investigate",
    "vote": "Day vote: choose the player to eliminate",
}


def _name(seat: Any) -> str:
    return f"Player {seat}"


def _task(view: Mapping[str, Any]) -> str | None:
    return (view.get("private") or {}).get("task")


def _past_days(public: Mapping[str, Any]) -> list[int]:
    """Days before the current one (every day once the game is over), oldest first."""
    days = {h["day"] for h in public.get("history") or ()} | \
        {c["day"] for c in public.get("chat") or ()}
    now = public.get("day", 0)
    return sorted(d for d in days if public.get("over") or d < now)


class SecretMafiaPrompts(PromptBuilder):
    history_unit = "days"

    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        seat, private = view["seat"], view.get("private") or {}
        players = ", ".join(_name(p["seat"]) for p in view["public"]["players"])
        role = private.get("role", "Villager")
        lines = [f"Welcome to Secret Mafia. You are {_name(seat)}.",
                 f"Your role: {role}. Your side: {private.get('side', 'village')}. "
                 f"{DESCRIPTIONS.get(role, '')}".rstrip(),
                 f"Players: {players}."]
        if "teammates" in private:
            mates = ", ".join(_name(s) for s in private["teammates"]) or "nobody"
            lines.append(f"Your fellow Mafia: {mates}. Only the Mafia see the Mafia's night "
                         "votes and notes.")
        lines += [
            "The village wins when every Mafia member is out; the Mafia win once they are at "
            "least half of the players still in. The whole side shares the result.",
            "How to answer:",
            "- Night actions and day votes: end your reply with one player's number in square "
            "brackets, e.g. [3], on a line of its own. Choose only among the valid targets you "
            "are given; an invalid choice gets one retry, and a second one puts you out.",
            "- Discussion: your whole reply is what you say aloud to everyone, as it will be "
            "read. Do not include your private reasoning or anything you want to keep secret.",
            ADVICE.get(role, ""),
        ]
        return "\n".join(line for line in lines if line)

    def phase(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        task = _task(view)
        if task in ("kill", "protect", "investigate"):
            return "night"
        return "speak" if legal.get("kind") == "text" else "vote"

    # -- the game text, with older days cuttable -------------------------------------------
    def history_length(self, view: Mapping[str, Any]) -> int:
        return len(_past_days(view["public"]))

    def render(self, view: Mapping[str, Any], keep: int) -> str:
        public = view["public"]
        past = _past_days(public)
        if keep >= len(past):
            return self.env.render(view)
        cut = set(past[:len(past) - keep])
        kept = {**public,
                "chat": [c for c in public["chat"] if c["day"] not in cut],
                "history": [h for h in public["history"] if h["day"] not in cut]}
        return self.env.render({**view, "public": kept})

    def summarize(self, view: Mapping[str, Any], cut: int) -> str:
        """Deaths and votes of the cut days (their speeches are left out)."""
        days = _past_days(view["public"])[:cut]
        lines = [f"Summary of days {days[0]}-{days[-1]} (speeches left out):"] if days else []
        for h in view["public"]["history"]:
            if h["day"] not in days:
                continue
            if h["kind"] == "dawn":
                dead = "nobody" if h["killed"] is None else _name(h["killed"])
                lines.append(f"  Night before day {h['day']}: killed {dead}.")
            else:
                votes = ", ".join(f"{_name(v['seat'])}->{_name(v['target'])}"
                                  for v in h["votes"] if v["target"] is not None)
                out = "nobody" if h["eliminated"] is None else _name(h["eliminated"])
                lines.append(f"  Day {h['day']} vote ({votes or 'no votes'}): out {out}.")
        return "\n".join(lines)

    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        if legal.get("kind") == "text":
            limit = legal.get("max_chars")
            size = f" (at most {limit} characters; longer is cut)" if limit else ""
            return (f"Discussion: write what you say to everyone{size}. Your whole reply is "
                    "read aloud; an empty reply means you keep quiet.")
        task = _task(view) or "vote"
        targets = (view.get("private") or {}).get("targets") or []
        valid = ", ".join(f"[{t}]" for t in targets)
        note = " Before it you may write a short note: your teammate reads your reply." \
            if task == "kill" else ""
        example = legal.get("syntax") or (f"[{targets[0]}]" if targets else "[0]")
        return (f"{ASKS.get(task, ASKS['vote'])}. Valid targets: {valid}.{note} End your "
                f"reply with your choice in square brackets, for example {example}")

    # -- reading the answer ---------------------------------------------------------------
    def extract(self, reply: str, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        text = strip_reasoning(reply)
        if legal.get("kind") == "text":
            return text
        for line in reversed(text.splitlines()):
            try:
                target = read_target(line, 1)
            except AnswerError:
                continue
            if "[" in line:
                return line.strip()
            return f"[{target.seat}]"  # a bare last line: "3" or "Player 3"
        return text

    def check(self, action: str, view: Mapping[str, Any], legal: Mapping[str, Any]
              ) -> Verdict | None:
        if legal.get("kind") == "text":
            return None  # the engine cuts a long speech; an empty one is silence
        try:
            target = read_target(action, 1)
        except AnswerError as e:
            return Verdict("unparseable", str(e))
        targets = (view.get("private") or {}).get("targets") or []
        if target.seat not in targets:
            valid = ", ".join(f"[{t}]" for t in targets)
            return Verdict("illegal", f"{_name(target.seat)} is not a valid target now; valid "
                                      f"targets: {valid}", f"[{target.seat}]")
        return None
