"""Three-player IPD baselines: `scripted:tit-for-tat` (per opponent, reacts to threats in chat),
`scripted:grim` and `scripted:always-defect`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted

ENV = "three-player-ipd"
_THREAT = re.compile(r"\b(defect|betray|backstab|cheat)\w*", re.IGNORECASE)
_EVERYONE = re.compile(r"\b(everyone|everybody|all of you|you all|both of you)\b", re.IGNORECASE)


def last_move_against(view: Mapping[str, Any], opponent: int, me: int) -> str | None:
    history = view["public"]["history"]
    return history[-1]["decisions"][str(opponent)][str(me)] if history else None


def betrayed_by(view: Mapping[str, Any], opponent: int, me: int) -> bool:
    return any(h["decisions"][str(opponent)][str(me)] == "defect"
               for h in view["public"]["history"])


def threatens(text: str, me: int) -> bool:
    """Does a chat line announce a defection aimed at seat `me` (by id or at everyone)?"""
    if not _THREAT.search(text):
        return False
    names_me = re.search(rf"(player\s*{me}\b|\bP{me}\b|\[{me}\b|\b{me}\b)", text, re.IGNORECASE)
    return bool(names_me or _EVERYONE.search(text))


class TitForTat(Bot):
    identity = "scripted:tit-for-tat"
    announcement = ("I play tit-for-tat with each of you: I cooperate first and then do to you "
                    "what you did to me last round. Threaten me and I defect on you.")

    def choice(self, view: Mapping[str, Any], opponent: int, me: int) -> str:
        round_ = view["public"]["round"]
        said = [m["text"] for m in view["public"]["chat"]
                if m["round"] == round_ and m["seat"] == opponent]
        if any(threatens(t, me) for t in said):
            return "defect"
        return last_move_against(view, opponent, me) or "cooperate"

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        if legal["kind"] == "text":
            return Decision(action=self.announcement)
        me = view["seat"]
        return Decision(action={f["name"]: self.choice(view, int(f["name"]), me)
                                for f in legal["fields"]})


class Grim(TitForTat):
    identity = "scripted:grim"
    announcement = "I cooperate until you defect on me once; after that I never forgive."

    def choice(self, view: Mapping[str, Any], opponent: int, me: int) -> str:
        return "defect" if betrayed_by(view, opponent, me) else "cooperate"


class AlwaysDefect(TitForTat):
    identity = "scripted:always-defect"
    announcement = "Let's all cooperate this round."

    def choice(self, view: Mapping[str, Any], opponent: int, me: int) -> str:
        return "defect"


register_scripted(ENV, "tit-for-tat", "tit-for-tat per opponent; defects on threats in chat")(
    lambda seed: TitForTat())
register_scripted(ENV, "grim", "cooperates until betrayed, then defects forever")(
    lambda seed: Grim())
register_scripted(ENV, "always-defect", "defects on everyone, talks of cooperation")(
    lambda seed: AlwaysDefect())
