"""The scripted SocialGrid impostor: its step (hunt lone crewmates, fake tasks in between) and
its ballot (never a teammate: frame a crewmate)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bots.scripted.socialgrid.map_memory import WALKING, Pos, manhattan
from bots.scripted.socialgrid.mind import Mind
from engine.socialgrid.moves import DO_TASK, KILL, NOOP

HUNT_SLACK = 5  # an impostor closes in when its cooldown ends within the walk plus this
LURK_STEPS = 4  # steps an impostor waits next to a crewmate before it looks busy again
HUNT_BREAK = 10  # and for how many steps it then leaves crewmates alone
LOOKOUT = 8  # a cautious impostor kills only when no other crewmate came close this recently


def impostor_step(mind: Mind, view: Mapping[str, Any], allowed: set[int],
                  rng: random.Random, cautious: bool = False) -> int:
    """Kill a crewmate in front when no other crewmate is in sight (and, when `cautious`, none
    came within two tiles in the last LOOKOUT steps either). Once the cooldown is about to
    end, close in on the nearest crewmate in sight (by the oracle's hint when it has one), or
    roam the rooms to find one; otherwise pretend to work at stations."""
    private = view["private"]
    pose = private["pose"]
    mates = set(private.get("teammates") or ())
    players = private["observation"]["players"]
    crew = {n: (p["pos"][0], p["pos"][1]) for n, p in players.items() if n not in mates}
    step = view["public"]["step"]
    if KILL in allowed and len(crew) == 1 and not (cautious and _watched(mind, crew, step)):
        mind.fake_station, mind.fake_left = None, 0  # then walk off to another station
        mind.potential_witness.pop(next(iter(crew)), None)
        return KILL
    for name, spot in crew.items():
        if manhattan(spot, pose) <= 2:
            mind.potential_witness[name] = step
    cooldown = private.get("kill_cooldown", 0)
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


def _watched(mind: Mind, victim: Mapping[str, Pos], step: int) -> bool:
    """Another crewmate came within two tiles in the last LOOKOUT steps: it may be near."""
    return any(step - seen <= LOOKOUT for name, seen in mind.potential_witness.items()
               if name not in victim)


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


def impostor_ballot(mind: Mind, view: Mapping[str, Any], cautious: bool = False
                    ) -> tuple[str | None, dict[str, float], str]:
    """Never a teammate: vote the crewmate who reported, else one the bot can place near a
    body, else a crewmate who was close to it lately (a possible witness); or skip. A
    `cautious` impostor frames nobody: it skips, as an innocent crewmate without evidence
    would. Trust teammates high and crewmates low-ish: the misdirection the paper reports."""
    private, public = view["private"], view["public"]
    mates = set(private.get("teammates") or ())
    crew = [n for n in private.get("vote_targets") or () if n not in mates]
    meeting = public.get("meeting") or {}
    target, thought = None, "Nothing points at anyone yet: I skip."
    if not cautious:
        target, thought = _frame(mind, meeting, crew) or (target, thought)
    trust = {n: 0.85 for n in mates if n in (private.get("vote_targets") or ())}
    for n in crew:
        trust[n] = 0.15 if n == target else 0.4
    return target, trust, thought


def _frame(mind: Mind, meeting: Mapping[str, Any], crew: list[str]) -> tuple[str, str] | None:
    """A crewmate to blame and the story: the reporter, else one seen near a body, else one
    that came close lately (a possible witness)."""
    caller = meeting.get("called_by")
    reporter = f"Player_{caller}" if caller is not None else None
    if meeting.get("reason") == "report" and reporter in crew:
        return reporter, (f"{reporter} reported the body but was near the body before anyone "
                          f"else; that is suspicious, so I vote {reporter}.")
    if near := sorted((mind.near_body[n][0], n) for n in crew if n in mind.near_body):
        target = near[0][1]
        return target, f"{target} was near the body when it was found. I vote {target}."
    if close := sorted((-step, n) for n, step in mind.potential_witness.items() if n in crew):
        target = close[0][1]
        return target, (f"{target} has been following people around and acting erratic. "
                        "I vote them.")
    return None
