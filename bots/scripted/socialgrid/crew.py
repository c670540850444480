"""The scripted SocialGrid crew: its step (report a body, work a task in front, walk to the
next task) and its ballot (vote on what it saw).

At oracle levels high and mid the crew follows BEST_ACTION_SUGGESTION, except with another
player within two tiles: around a doorway someone blocks, the oracle sends it on a long detour
and back as soon as the way clears, so there the planner takes over.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from bots.scripted.socialgrid.map_memory import front_of, manhattan
from bots.scripted.socialgrid.mind import Mind
from engine.socialgrid.moves import DO_TASK, KILL, NOOP, REPORT_DEADBODY

NEAR_VICTIM = 2  # distance to a victim, at its last sighting, that makes a player a suspect
CROWD = 2  # another player this close: the crew leaves the oracle for its own planner


def crowded(players: Mapping[str, Any], pose: list[int]) -> bool:
    """Someone within CROWD tiles: the oracle then advises long detours around a player in a
    doorway and back again as soon as it moves; the planner waits or steps aside instead."""
    return any(manhattan(p["pos"], pose) <= CROWD for p in players.values())


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


def crew_ballot(mind: Mind, view: Mapping[str, Any], cautious: bool = False
                ) -> tuple[str | None, dict[str, float], str]:
    """Vote for a player seen killing, else (unless `cautious`: then only strong evidence
    counts) the one seen closest to a body or to a victim; otherwise skip. Trust: suspects low,
    seen working high, the rest 0.5."""
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
    if suspects and not cautious:
        gap, name = suspects[0]
        how = near[name][1]
        where = how if how.startswith("standing") else f"{gap} tiles from the body at {how}"
        return name, trust, (f"{name} was near the body: {where}. It is weak evidence, but "
                             f"the best I have, so I vote {name}.")
    if suspects:
        return None, trust, (f"{suspects[0][1]} was near the body, but that is no proof: "
                             "I skip.")
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

