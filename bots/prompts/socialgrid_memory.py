"""What a SocialGrid seat remembers between turns for its LLM prompts (a view holds only the
present): where each player was last seen and the bodies seen since the last meeting, and the
notes made of them for the next vote."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.prompts.socialgrid_text import player_name

MAX_BODIES = 10  # bodies remembered between meetings
NEAR_BODY = 3  # Manhattan distance at which a player counts as near a body


def log_sightings(log: dict[str, Any], view: Mapping[str, Any]) -> None:
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


def vote_notes(view: Mapping[str, Any], log: Mapping[str, Any]) -> str:
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
        scores = ", ".join(f"{player_name(int(s))} {t:g}" for s, t in sorted(
            trust.items(), key=lambda kv: int(kv[0])))
        lines.append(f"- your trust scores at the last meeting: {scores}")
    return "What you remember:\n" + "\n".join(lines) if lines else ""
