"""The SocialGrid scripted bot (`SocialGridBot`): one `Mind` per seat, crew or impostor logic for
each step and ballot, and the ballot written as the meeting form's fields."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bots.base import Bot, Decision
from bots.scripted.socialgrid.crew import crew_ballot, crew_step
from bots.scripted.socialgrid.impostor import impostor_ballot, impostor_step
from bots.scripted.socialgrid.mind import Mind
from engine.socialgrid.moves import NOOP


def seat_of(name: str) -> int:
    return int(name.rpartition("_")[2])


def ballot_action(target: str | None, trust: Mapping[str, float], thought: str,
                  legal: Mapping[str, Any]) -> dict[str, Any]:
    """The ballot as the form's fields: vote by seat id (or skip), trust_<seat>, thought."""
    fields = {f["name"] for f in legal.get("fields", ())}
    action: dict[str, Any] = {"vote": "skip" if target is None else str(seat_of(target))}
    for name, value in trust.items():
        key = f"trust_{seat_of(name)}"
        if key in fields:
            action[key] = float(value)
    if "thought" in fields:
        action["thought"] = thought
    return action


def _end_of_meeting(mind: Mind) -> None:
    """Bodies are cleared at a meeting: what was seen around them is spent, kills are not."""
    mind.near_body.clear()
    mind.bodies.clear()
    mind.prev = {}
    mind.route = None


class SocialGridBot(Bot):
    """Crew logic, impostor logic, or (`plays=None`) whichever the seat's role is; with
    `oracle=False` it never reads the Planning Oracle's hints (it walks by its own map, as at a
    table whose oracle is low): the oracle ablation of the paper's Q1, as a league model. A
    `cautious` seat acts only on strong evidence: as crew it votes only for a kill it saw, as
    an impostor it frames nobody and kills only where nobody came close lately."""

    never_awaits = True

    def __init__(self, seed: int = 0, plays: str | None = None, oracle: bool = True,
                 name: str | None = None, cautious: bool = False) -> None:
        self.rng = random.Random(seed)
        self.plays = plays
        self.oracle = oracle
        self.cautious = cautious
        self.identity = f"scripted:{name or plays or 'agent'}"

    def _impostor(self, private: Mapping[str, Any]) -> bool:
        return (self.plays or private.get("role")) == "impostor"

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        if not self.oracle and "oracle" in view["private"]:
            view = {**view, "private": {k: v for k, v in view["private"].items()
                                        if k != "oracle"}}
        mind = memory.get("mind")
        if mind is None:
            mind = memory["mind"] = Mind(view)
        private = view["private"]
        impostor = self._impostor(private)
        if legal.get("kind") == "form":
            number = (view["public"].get("meeting") or {}).get("number", 0)
            ballot = impostor_ballot if impostor else crew_ballot
            target, trust, thought = ballot(mind, view, self.cautious)
            if number != mind.meeting:
                mind.meeting = number
                _end_of_meeting(mind)
            return Decision(action=ballot_action(target, trust, thought, legal))
        mind.observe(view)
        allowed = {int(o["id"]) for o in legal.get("options", ())}
        if impostor:
            action = impostor_step(mind, view, allowed, self.rng, self.cautious)
        else:
            action = crew_step(mind, view, allowed, self.rng)
        if action not in allowed:
            action = NOOP
        return Decision(action={"choice": str(action)})

