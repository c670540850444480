"""Three-player IPD baselines: `scripted:tit-for-tat` (per opponent, reacts to threats in chat),
`scripted:grim` and `scripted:always-defect`.

Everything is read from the seat's view: the recent resolved rounds (who chose what against whom)
and the recent chat. Views hold a bounded window of rounds, so grim also keeps its grudges in its
seat's memory: a betrayal older than the window is never forgiven.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted

ENV = "three-player-ipd"
COOPERATE, DEFECT = "cooperate", "defect"

_SENTENCES = re.compile(r"[^.!?;\n]+")
# Clauses: a sentence cut at commas, colons, dashes and at conjunctions that start a new
# statement ("cooperating with P1, defecting on P2", "... and defect on P2", "... but ..."). An
# "and" (or comma) followed by a player keeps a list together: "defect on P1 and P2".
_PLAYER = r"(?:\b(?:player|p|seat)\s*\d\b|#\d\b)"
_CLAUSES = re.compile(rf"\s*(?:[,:]|\s[-–—]\s)(?!\s*{_PLAYER}\s*(?:and\b|&|$))\s*"
                      rf"|\s+(?:but|while|whereas|though|although|yet|then|so|and then)\s+"
                      rf"|\s+(?:and|&)\s+(?!{_PLAYER})", re.IGNORECASE)
# Present or future only: "you defected on me" reports the past, it announces nothing.
_THREAT = re.compile(r"\b(defect|betray|backstab|cheat|double[- ]cross)(?!ed)\w*", re.IGNORECASE)
# "not", "never", "won't" ... up to two words before the verb: "I will not ever defect".
_NEGATED = re.compile(r"\b(not|never|no|won[’']?t|wont|don[’']?t|dont|can[’']?t|cannot|"
                      r"refuse to)\s+(\w+\s+){0,2}$", re.IGNORECASE)
# A condition ("if you defect, I defect") is a policy, not an announcement.
_CONDITIONAL = re.compile(r"\b(if|unless|until|whoever|anyone who|anybody who|should you|in case)\b",
                          re.IGNORECASE)
_EVERYONE = re.compile(r"\b(everyone|everybody|all of you|you all|both of you|you both|you two|"
                       r"each of you)\b", re.IGNORECASE)
# How a chat line refers to a seat: "Player 0", "P0", "seat 0", "#0" (a bare digit is too
# ambiguous: "round 2", "2 points").
_NAMES = re.compile(r"\b(?:player|p|seat)\s*(\d)\b|#(\d)\b", re.IGNORECASE)
_TOKEN = re.compile(r"\[\s*(\d)\s+(cooperate|defect)\s*\]", re.IGNORECASE)
# A clause that only calls someone: "Player 1", "hey P2", "P0 and P1".
_CALL = re.compile(rf"(?:(?:hey|hi|hello|ok|okay|so|well|look|listen|dear)\s+)?{_PLAYER}"
                   rf"(?:\s*(?:,|and|&)\s*{_PLAYER})*", re.IGNORECASE)
EVERYONE = -1  # in threat_targets: a defection announced against everyone


def _seats(text: str) -> list[tuple[int, int]]:
    """(position, seat) of every player named in `text`."""
    return [(m.start(), int(m.group(1) or m.group(2))) for m in _NAMES.finditer(text)]


def threat_targets(text: str) -> set[int]:
    """The seats a chat line announces a defection against (EVERYONE for "I defect on
    everyone"), read clause by clause: a defection is aimed at the players its own clause names
    after the verb ("cooperating with P1, defecting on P2" threatens P2 only), else those it names
    before it ("P2 gets defected on" — P2), else, when the clause names nobody, whoever the
    sentence calls ("Player 0, I will defect on you"). Negated verbs ("won't defect on P1"),
    the past ("defected") and conditions ("if you defect, I defect") announce nothing.
    A `[2 defect]` token is a threat to seat 2."""
    targets: set[int] = set()
    for sentence in _SENTENCES.findall(text):
        if _CONDITIONAL.search(sentence):
            continue
        for token in _TOKEN.finditer(sentence):
            if token.group(2).lower() == "defect":
                targets.add(int(token.group(1)))
        sentence = _TOKEN.sub(" ", sentence)
        clauses = [c.strip() for c in _CLAUSES.split(sentence) if c and c.strip()]
        called = [seat for c in clauses if _CALL.fullmatch(c) for _, seat in _seats(c)]
        for clause in clauses:
            named = _seats(clause)
            for verb in _THREAT.finditer(clause):
                if _NEGATED.search(clause[:verb.start()]):
                    continue
                after = [seat for at, seat in named if at >= verb.end()]
                before = [seat for at, seat in named if at < verb.start()]
                if after or before:
                    targets.update(after or before)
                elif _EVERYONE.search(clause):
                    targets.add(EVERYONE)
                else:
                    targets.update(called)
    return targets


def threatens(text: str, me: int) -> bool:
    """Does a chat line announce a defection aimed at seat `me` (by id, or at everyone)?"""
    targets = threat_targets(text)
    return me in targets or EVERYONE in targets


def moves_against(view: Mapping[str, Any], opponent: int, me: int) -> list[str]:
    """What `opponent` chose against `me` in each resolved round, oldest first."""
    return [h["decisions"][str(opponent)][str(me)] for h in view["public"]["history"]]


def threats_this_round(view: Mapping[str, Any], opponent: int, me: int) -> bool:
    public = view["public"]
    return any(m["seat"] == opponent and threatens(m["text"], me)
               for m in public["chat"] if m["round"] == public["round"])


def opponents(view: Mapping[str, Any], me: int) -> list[int]:
    return list(view["private"].get("opponents") or (o for o in range(3) if o != me))


class TitForTat(Bot):
    """Per opponent: cooperate first, then copy what that opponent did to me last round; defect
    pre-emptively on an opponent who announces a defection against me this round. It forgives as
    soon as the opponent cooperates again."""

    identity = "scripted:tit-for-tat"
    never_awaits = True
    policy = ("I play tit-for-tat with each of you separately: I cooperate first, then do to you "
              "what you did to me last round. Announce a defection against me and I defect on "
              "you that same round. Cooperate and we both gain.")
    grudge = "you defected on me last round; cooperate with me and I will cooperate again."

    def choice(self, view: Mapping[str, Any], opponent: int, me: int) -> str:
        if threats_this_round(view, opponent, me):
            return DEFECT
        past = moves_against(view, opponent, me)
        return past[-1] if past else COOPERATE

    def say(self, view: Mapping[str, Any], me: int) -> str:
        """Announce the policy, then say plainly whom it punishes this round and why."""
        public = view["public"]
        if public["round"] == 1 and public["chat_turn"] == 0:
            return self.policy
        lines = []
        for o in opponents(view, me):
            if threats_this_round(view, o, me):
                lines.append(f"Player {o}: you threatened me, so this round you get what you "
                             "announced.")
            elif self.choice(view, o, me) == DEFECT:
                lines.append(f"Player {o}: {self.grudge}")
        return " ".join(lines) or "I keep cooperating with everyone who cooperates with me."

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        me = view["seat"]
        if legal["kind"] == "text":
            return Decision(action={"text": self.say(view, me)[:legal.get("max_chars") or None]})
        return Decision(action={f["name"]: self.choice(view, int(f["name"]), me)
                                for f in legal["fields"]})


class Grim(TitForTat):
    identity = "scripted:grim"
    policy = ("I cooperate with each of you as long as you cooperate with me. The first time you "
              "don't, I stop for good.")
    grudge = "you defected on me, and I do not forgive."

    def __init__(self) -> None:
        self.grudges: list[int] = []

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        self.grudges = memory.setdefault("grudges", [])
        me = view["seat"]
        for o in opponents(view, me):
            if o not in self.grudges and DEFECT in moves_against(view, o, me):
                self.grudges.append(o)
        return await super().decide(view, legal, memory)

    def choice(self, view: Mapping[str, Any], opponent: int, me: int) -> str:
        if opponent in self.grudges or DEFECT in moves_against(view, opponent, me):
            return DEFECT
        return COOPERATE


class AlwaysDefect(TitForTat):
    """Defects on everyone and talks of cooperation: the cheater the others must learn to read."""

    identity = "scripted:always-defect"
    policy = "Let's all cooperate this round."

    def choice(self, view: Mapping[str, Any], opponent: int, me: int) -> str:
        return DEFECT

    def say(self, view: Mapping[str, Any], me: int) -> str:
        return self.policy


register_scripted(ENV, "tit-for-tat", "tit-for-tat per opponent; defects on threats in chat")(
    lambda seed: TitForTat())
register_scripted(ENV, "grim", "cooperates until betrayed, then defects forever")(
    lambda seed: Grim())
register_scripted(ENV, "always-defect", "defects on everyone, talks of cooperation")(
    lambda seed: AlwaysDefect())
