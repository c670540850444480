"""Codenames baselines built on our association groups (engine/codenames/associations.json: a
clue word and the board words it brings to mind, strongest first).

- The spymaster reads the key and tries every group as a clue. Its operative is expected to
  guess the clue's hidden board words in the group's order, so a clue is worth the number of the
  team's words that come first, before any other colour. Clues that would put the assassin in
  play are never given, and clues with the other team's words right after the team's are
  marked down. Every clue is checked with the engine's own illegal-clue rule. With no clue
  that leads straight to its words it picks one where only neutral words stand in the way, and
  with none of those either it passes (gives no clue).
- The operative guesses the clue's group in its own order, only as many words as the number
  says; its extra (n + 1) guess goes to a word an earlier clue of its team left unfound, and
  otherwise it stops. A clue that is not one of our groups (from a person or an LLM) is read
  through our cue list (bots/scripted/codenames_cues.txt: for each bank word, the words a
  person might give as a clue for it, so "bunny" finds rabbit and "insect" firefly), then
  through the groups the clue's word belongs to; it passes only when nothing relates. Its
  memory of the groups is a little noisy (a few links forgotten or swapped, fixed per bot
  seed), so the spymaster's plan does not always work — as with people.

`scripted:agent` (and its alias `scripted:team`) plays whichever role its seat has; the role
names `scripted:spymaster` and `scripted:operative` are the same player, named for seating
(`spymaster=scripted:spymaster`), and also play the other role if seated there.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted
from engine.codenames.board import clue_conflict
from engine.codenames.config import ASSASSIN, NEUTRAL, OTHER, SPYMASTER

ENV = "codenames"
FORGET, SWAP = 0.08, 0.15  # the operative's noise: links forgotten, neighbours swapped
OTHER_RISK, NEUTRAL_RISK = 0.6, 0.25  # how much a wrong card right after the plan costs


@cache
def groups() -> dict[str, tuple[str, ...]]:
    text = resources.files("engine.codenames").joinpath("associations.json").read_text("utf-8")
    return {clue: tuple(words) for clue, words in json.loads(text)["groups"].items()}


@cache
def themes_of() -> dict[str, tuple[str, ...]]:
    """Board word -> the clues whose group holds it."""
    found: dict[str, list[str]] = {}
    for clue, words in groups().items():
        for w in words:
            found.setdefault(w, []).append(clue)
    return {w: tuple(c) for w, c in found.items()}


# --------------------------------------------------------------------------------- spymaster
def plan_clue(words: Sequence[str], key: Sequence[str], revealed: Sequence[str | None],
              team: str, max_number: int, failed: frozenset[str] = frozenset()
              ) -> tuple[str, int] | None:
    """The best (clue, number) for `team`, or None when no group leads to its words safely.
    `failed`: clues the operative already missed entirely (it does not read them as we do)."""
    index = {w: i for i, w in enumerate(words)}
    best: tuple[float, int, str, int] | None = None
    spare: tuple[int, str] | None = None  # a clue behind neutral words only (see below)
    for clue, members in groups().items():
        hidden = [index[w] for w in members if w in index and revealed[index[w]] is None]
        if not hidden or clue in failed or clue_conflict(clue, words) is not None:
            continue
        labels = [key[i] for i in hidden]
        if ASSASSIN in labels:
            continue
        count = 0
        while count < len(labels) and labels[count] == team:
            count += 1
        if count == 0:
            blockers = labels.index(team) if team in labels else 0
            if blockers and set(labels[:blockers]) == {NEUTRAL} and \
                    (spare is None or (-blockers, clue) > (-spare[0], spare[1])):
                spare = (blockers, clue)
            continue
        after = labels[count:count + 2]
        risk = OTHER_RISK * after.count(OTHER[team]) + NEUTRAL_RISK * after.count(NEUTRAL)
        number = min(count, max_number)
        score = (number - risk, -len(labels), clue, number)
        if best is None or score > best:
            best = score
    if best is not None:
        return best[2], best[3]
    # Nothing leads straight to our words: a clue whose way to one of them is blocked by neutral
    # words only. The operative reveals a neutral word and the turn ends, but the way is clearer
    # next time; better than giving no clue, and it never hands the other team a word.
    return None if spare is None else (spare[1], 1)


def failed_clues(history: Sequence[Mapping[str, Any]], team: str) -> frozenset[str]:
    """The team's earlier clues its operative made nothing of (no guess at all): it does not
    read them as we do, so they are not given again."""
    return frozenset(t["clue"] for t in history if t["team"] == team and t["clue"]
                     and t["number"] and not t["guesses"])


# --------------------------------------------------------------------------------- operative
def recall(clue: str, seed: int) -> tuple[str, ...]:
    """The operative's memory of a group: a few of its words forgotten."""
    rng = random.Random(f"{seed}:{clue}")
    return tuple(w for w in groups().get(clue, ()) if rng.random() >= FORGET)


def misread(found: list[str], clue: str, seed: int) -> list[str]:
    """Neighbours on the board swapped now and then: which of two words fits a clue better is
    where people (and this bot) slip. Fixed per seed, clue and the words still hidden."""
    rng = random.Random(f"{seed}:{clue}:{'|'.join(found)}")
    for i in range(len(found) - 1):
        if rng.random() < SWAP:
            found[i], found[i + 1] = found[i + 1], found[i]
    return found


def forms(clue: str) -> tuple[str, ...]:
    """The clue and the singulars it may be ("insects", "bunnies", "boxes")."""
    found = [clue]
    if clue.endswith("ies"):
        found.append(clue[:-3] + "y")
    if clue.endswith("es"):
        found.append(clue[:-2])
    if clue.endswith("s"):
        found.append(clue[:-1])
    return tuple(found)


def candidates(clue: str, hidden: set[str], seed: int, *, loosely: bool = True) -> list[str]:
    """Hidden board words the clue brings to mind, most likely first: the clue's group (as
    remembered), then words the clue is a cue for (codenames_cues.txt: "bunny" for rabbit),
    then, `loosely`, words sharing groups with the clue when it is a bank word itself."""
    clue = clue.lower()
    found: list[str] = []
    for form in forms(clue):
        if form in groups():
            found = misread([w for w in recall(form, seed) if w in hidden], form, seed)
            break
    cued = sorted((rank, w) for form in forms(clue) for w, rank in cued_by().get(form, ())
                  if w in hidden)
    found += [w for _, w in cued if w not in found]
    if loosely:
        shared: dict[str, int] = {}
        for theme in themes_of().get(clue, ()):
            for w in recall(theme, seed):
                if w in hidden and w != clue and w not in found:
                    shared[w] = shared.get(w, 0) + 1
        found += sorted(shared, key=lambda w: -shared[w])
    return found


@cache
def cued_by() -> dict[str, tuple[tuple[str, int], ...]]:
    """Cue -> (board word, the cue's rank among that word's cues), from our cue list."""
    text = resources.files("bots.scripted").joinpath("codenames_cues.txt").read_text("utf-8")
    found: dict[str, list[tuple[str, int]]] = {}
    for line in text.splitlines():
        word, _, cues = line.partition(":")
        if line.startswith("#") or not cues:
            continue
        for rank, cue in enumerate(cues.split()):
            found.setdefault(cue, []).append((word.strip(), rank))
    return {cue: tuple(words) for cue, words in found.items()}


def choose_guess(public: Mapping[str, Any], team: str, seed: int) -> str:
    """A hidden board word, or "pass" when unsure."""
    hidden = {w for w, shown in zip(public["words"], public["revealed"], strict=True)
              if shown is None}
    clue = public["clue"]
    found = candidates(clue["word"], hidden, seed)
    if clue["made"] < clue["number"] and found:
        return found[0]
    for turn in reversed(public["history"]):  # the extra guess: an earlier clue's leftover
        if turn["team"] != team or not turn["clue"] or not turn["number"]:
            continue
        hits = sum(1 for g in turn["guesses"] if g["label"] == team)
        if hits < turn["number"]:  # only words the clue surely meant: this guess is a bonus
            left = candidates(turn["clue"], hidden, seed, loosely=False)
            if left:
                return left[0]
    return "pass"


# ------------------------------------------------------------------------------------- bots
class CodenamesBot(Bot):
    identity = "scripted:agent"
    never_awaits = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        public, private = view["public"], view["private"]
        if private.get("role") == SPYMASTER and legal.get("kind") == "form":
            team = private["team"]
            plan = plan_clue(public["words"], private["key"], public["revealed"], team,
                             public["max_clue_number"], failed_clues(public["history"], team))
            if plan is None:
                return Decision(action="[pass]")
            return Decision(action={"word": plan[0], "number": plan[1]})
        if legal.get("kind") == "choice":
            return Decision(action={"choice": choose_guess(public, private["team"], self.seed)})
        return Decision(action="[pass]")


for _name, _what in (
        ("agent", "plays its seat's role: clues from our association groups, careful guesses"),
        ("team", "the same player as scripted:agent (seat a whole team with red=scripted:team)"),
        ("spymaster", "clues for several of its words from our association groups; never "
                      "illegal, never near the assassin"),
        ("operative", "guesses from the same groups, only as many as the clue says; stops "
                      "when unsure")):
    register_scripted(ENV, _name, _what)(CodenamesBot)
