"""Secret Mafia baselines: `scripted:agent` plays whichever role its seat is dealt (seat it on
every seat, or on a side: `mafia=scripted:agent`); `scripted:cautious`, `scripted:aggressive`,
`scripted:quiet` and `scripted:loud` change one side of its play (`StyledBot`).

Everything is read from the seat's view: the speeches and votes of the whole game (a view keeps
them all) and the seat's own night results. Speeches use a few plain phrases the bots also
read back ("I am the Detective.", "Player 3 is Mafia.", "Player 2 is clear.", "I suspect
Player 4."), so claims and accusations travel between bots, and people can join in.

- Detective: investigates the most suspected unknown player; once it finds a Mafia member it
  claims the role and names them (with the players it cleared).
- Doctor: protects a credible Detective claimer, else itself when the rules allow, else a
  player who has accused someone (the Mafia's likely victim).
- Villager (and the others by day): votes a Mafia member named by its own finding or by the
  credible claimer (a claimer killed by the Mafia, else the first to claim), else the player
  most accused, ties drawn by the bot's rng.
- Mafia: kill a Detective claimer, else an accuser of the Mafia, else someone at random; the
  second voter follows the first. By day they pile on the most accused villager; a Mafia member
  named by a claim answers with a counter-claim naming the claimer.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.base import Bot, Decision
from bots.registry import register_scripted

ENV = "secret-mafia"
_CLAIM = re.compile(r"\bi am the detective\b", re.IGNORECASE)
_FINDING = re.compile(r"\bplayer\s*(\d+)\s+is\s+(not mafia|mafia|clear)\b", re.IGNORECASE)
_SUSPECT = re.compile(r"\b(?:suspect|vote for|voting for|vote out)\s+player\s*(\d+)",
                      re.IGNORECASE)
OPENERS = ("Quiet night. Let us hear everyone before we vote.",
           "No leads yet; I will follow the evidence.",
           "Whoever stays vague today worries me.")


@dataclass
class Table:
    """What the public record says: who is in, claims, accusations, night kills."""

    players: int
    alive: set[int]
    claims: dict[int, dict[int, bool]] = field(default_factory=dict)  # in order of first claim
    accused: dict[int, int] = field(default_factory=dict)  # seat -> times named as suspect
    accusers: dict[int, set[int]] = field(default_factory=dict)  # accuser -> seats named
    killed: set[int] = field(default_factory=set)  # killed by the Mafia at night
    votes: list[tuple[int, int]] = field(default_factory=list)  # (voter, target), past days


def read_table(public: Mapping[str, Any]) -> Table:
    players = len(public["players"])
    table = Table(players, {p["seat"] for p in public["players"] if p["alive"]})
    for h in public["history"]:
        if h.get("kind") == "dawn" and h.get("killed") is not None:
            table.killed.add(h["killed"])
        elif h.get("kind") == "vote":
            table.votes += [(v["seat"], v["target"]) for v in h["votes"]
                            if v["target"] is not None]
    for speech in public["chat"]:
        seat, text = speech["seat"], speech["text"]
        named: list[int] = []
        if _CLAIM.search(text):
            found = table.claims.setdefault(seat, {})
            for who, verdict in _FINDING.findall(text):
                found[int(who)] = verdict.lower() == "mafia"
                if verdict.lower() == "mafia":
                    named.append(int(who))
        named += [int(s) for s in _SUSPECT.findall(text)]
        for s in named:
            if 0 <= s < players and s != seat:
                table.accused[s] = table.accused.get(s, 0) + 1
                table.accusers.setdefault(seat, set()).add(s)
    return table


class MafiaBot(Bot):
    """One seat's play, whatever its role (see the module doc)."""

    identity = "scripted:agent"
    never_awaits = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.leaning: int | None = None  # whom this seat suspects, kept between turns

    async def decide(self, view: Mapping[str, Any], legal: Mapping[str, Any],
                     memory: dict[str, Any]) -> Decision:
        public, private, me = view["public"], view["private"], view["seat"]
        table = read_table(public)
        if legal["kind"] == "text":
            text = self.speak(public, private, me, table)
            return Decision(action={"text": text[:legal.get("max_chars") or None]})
        if legal["kind"] == "form":  # the Mafia's night vote
            options = [o["id"] for f in legal["fields"] if f["name"] == "target"
                       for o in f["options"]]
            target = self.kill(private, [int(o) for o in options], table)
            return Decision(action={"target": str(target), "note": f"Let us take Player {target}."})
        options = [int(o["id"]) for o in legal["options"]]
        task = private.get("task")
        if task == "protect":
            choice = self.protect(private, me, options, table)
        elif task == "investigate":
            choice = self.investigate(private, options, table)
        else:
            choice = self.vote(private, me, options, table)
        return Decision(action={"choice": str(choice)})

    # -- what the seat believes ------------------------------------------------------------
    def beliefs(self, private: Mapping[str, Any], me: int, table: Table
                ) -> tuple[set[int], set[int]]:
        """(known Mafia, known clear) for a village seat: its own findings, then the credible
        claimer's (a claimer killed at night, else the first to claim), unless they clash."""
        mafia = {f["target"] for f in private.get("investigations") or () if f["mafia"]}
        clear = {f["target"] for f in private.get("investigations") or ()
                 if f["target"] is not None and not f["mafia"]} | {me}
        claimers = [c for c in table.claims if c != me and c not in mafia]
        if claimers and not private.get("investigations"):
            trusted = next((c for c in claimers if c in table.killed), claimers[0])
            for seat, is_mafia in table.claims[trusted].items():
                if seat not in clear and seat != trusted:
                    (mafia if is_mafia else clear).add(seat)
            clear.add(trusted)
            mafia.discard(trusted)
        return mafia, clear

    def suspect(self, private: Mapping[str, Any], me: int, options: Sequence[int],
                table: Table) -> int:
        """A village seat's pick: a known Mafia member, else the unknown player with the most
        against them: accusations, and votes they cast against players known to be clear."""
        mafia, clear = self.beliefs(private, me, table)
        known = [s for s in options if s in mafia]
        if known:
            return known[0]
        pool = [s for s in options if s not in clear] or [s for s in options if s != me] \
            or list(options)
        against = dict(table.accused)
        for voter, target in table.votes:
            if target in clear and target != voter:
                against[voter] = against.get(voter, 0) + 2
        top = max(against.get(s, 0) for s in pool)
        leaders = [s for s in pool if against.get(s, 0) == top]
        if self.leaning not in leaders:  # keep a suspicion while it stays among the strongest
            self.leaning = self.rng.choice(leaders)
        return self.leaning

    @staticmethod
    def scapegoat(team: set[int], table: Table) -> int | None:
        """The Mafia's day target, the same for both members: a claimer who named one of them,
        else the most accused living villager (lowest seat on a tie)."""
        hunters = [c for c, found in table.claims.items()
                   if c in table.alive and c not in team and any(
                       v and s in team for s, v in found.items())]
        if hunters:
            return hunters[0]
        village = sorted(s for s in table.alive if s not in team)
        if not village:
            return None
        return max(village, key=lambda s: (table.accused.get(s, 0), -s))

    # -- night ------------------------------------------------------------------------------
    def kill(self, private: Mapping[str, Any], options: Sequence[int], table: Table) -> int:
        for vote in private.get("night_votes") or ():
            if vote["target"] in options:
                return vote["target"]  # agree with the teammate who voted first
        team = set(private.get("teammates", ()))
        claimers = [c for c in table.claims if c in options]
        if claimers:
            return claimers[0]
        hunters = [s for s in options if table.accusers.get(s, set()) & team]
        return hunters[0] if hunters else self.rng.choice(list(options))

    def protect(self, private: Mapping[str, Any], me: int, options: Sequence[int],
                table: Table) -> int:
        mafia, _ = self.beliefs(private, me, table)
        claimers = [c for c in table.claims if c in options and c not in mafia]
        if claimers:
            return next((c for c in claimers if c in table.killed), claimers[0])
        if me in options:
            return me
        vocal = [s for s in options if s in table.accusers and s not in mafia]
        return self.rng.choice(vocal or list(options))

    def investigate(self, private: Mapping[str, Any], options: Sequence[int],
                    table: Table) -> int:
        seen = {f["target"] for f in private.get("investigations") or ()}
        pool = [s for s in options if s not in seen] or list(options)
        top = max(table.accused.get(s, 0) for s in pool)
        return self.rng.choice([s for s in pool if table.accused.get(s, 0) == top])

    # -- day --------------------------------------------------------------------------------
    def vote(self, private: Mapping[str, Any], me: int, options: Sequence[int],
             table: Table) -> int:
        if private["role"] == "Mafia":
            team = {me, *private.get("teammates", ())}
            goat = self.scapegoat(team, table)
            if goat in options:
                return goat
            return next((s for s in options if s not in team), options[0])
        return self.suspect(private, me, options, table)

    def speak(self, public: Mapping[str, Any], private: Mapping[str, Any], me: int,
              table: Table) -> str:
        role = private["role"]
        if role == "Mafia":
            return self.deflect(public, {me, *private.get("teammates", ())}, me, table)
        if role == "Detective":
            found = [f for f in private.get("investigations") or () if f["target"] is not None]
            guilty = [f["target"] for f in found if f["mafia"] and f["target"] in table.alive]
            if guilty or (me in table.accused and found):
                named = " ".join(f"Player {f['target']} is {'Mafia' if f['mafia'] else 'clear'}."
                                 for f in found)
                return f"I am the Detective. {named} Vote with me."
        mafia, _ = self.beliefs(private, me, table)
        known = sorted(s for s in mafia if s in table.alive)
        if known:
            return f"I believe the Detective: Player {known[0]} is Mafia. I vote for Player " \
                   f"{known[0]}."
        if public["discussion_round"] == 1 and not table.accused:
            return self.rng.choice(OPENERS)
        pick = self.suspect(private, me, sorted(table.alive - {me}), table)
        return f"I suspect Player {pick}."

    def deflect(self, public: Mapping[str, Any], team: set[int], me: int, table: Table) -> str:
        goat = self.scapegoat(team, table)
        named_us = [c for c, found in table.claims.items()
                    if c not in team and any(v and s in team for s, v in found.items())]
        if named_us and me not in table.claims and not any(c in team for c in table.claims):
            return f"That claim is false. I am the Detective. Player {named_us[0]} is Mafia."
        if goat is None:
            return "Let us keep our heads."
        if public["discussion_round"] == 1 and not table.accused:
            return f"{self.rng.choice(OPENERS)} I suspect Player {goat}."
        return f"I suspect Player {goat}; their story does not add up."


class StyledBot(MafiaBot):
    """`scripted:agent` with one side of its play changed, so a tournament has several distinct
    scripted players (MG-Ref's Secret Mafia pool has four references). `village`: how a Villager,
    Doctor or Detective talks and votes by day; `mafia`: how a Mafia member talks. The rest
    (nights, the other side) is the agent's.

    - cautious village: accuses nobody until a finding or a credible claim names a Mafia
      member, and votes with the table (the most accused, lowest seat on a tie), never on a
      hunch; its Detective claims only with a Mafia member to name.
    - aggressive village: names a suspect from its first speech and calls for the vote, sticks
      to that suspect until it is dead or shown clear; its Detective claims after its first
      investigation, whatever it found.
    - quiet Mafia: bland speeches naming nobody, no counter-claims; votes with the table.
    - loud Mafia: claims to be the Detective on day 1 (unless a teammate already did), naming a
      villager as Mafia, and keeps pushing that villager; votes for them.
    """

    def __init__(self, seed: int = 0, village: str = "agent", mafia: str = "agent") -> None:
        super().__init__(seed)
        self.village, self.mafia = village, mafia
        self.target: int | None = None  # the aggressive villager's or loud Mafia's pick

    def speak(self, public: Mapping[str, Any], private: Mapping[str, Any], me: int,
              table: Table) -> str:
        role = private["role"]
        if role == "Mafia":
            team = {me, *private.get("teammates", ())}
            if self.mafia == "quiet":
                return self.rng.choice(OPENERS)
            if self.mafia == "loud":
                goat = self.pick(self.scapegoat(team, table), team, table)
                if goat is None:
                    return "Let us keep our heads."
                if not any(c in team for c in table.claims):
                    return f"I am the Detective. Player {goat} is Mafia. Vote for Player {goat}."
                return f"Player {goat} is Mafia. Vote for Player {goat}."
        elif self.village == "cautious":
            found = [f for f in private.get("investigations") or () if f["target"] is not None]
            if role == "Detective" and any(f["mafia"] and f["target"] in table.alive
                                           for f in found):
                return super().speak(public, private, me, table)
            mafia, _ = self.beliefs(private, me, table)
            known = sorted(s for s in mafia if s in table.alive)
            if known:
                return f"The evidence points to Player {known[0]}. I vote for Player {known[0]}."
            return "No leads yet; I will follow the evidence."
        elif self.village == "aggressive":
            found = [f for f in private.get("investigations") or () if f["target"] is not None]
            if role == "Detective" and found:
                named = " ".join(f"Player {f['target']} is {'Mafia' if f['mafia'] else 'clear'}."
                                 for f in found)
                return f"I am the Detective. {named} Vote with me."
            pick = self.vote(private, me, sorted(table.alive - {me}), table)
            return f"I suspect Player {pick}. I vote for Player {pick}."
        return super().speak(public, private, me, table)

    def vote(self, private: Mapping[str, Any], me: int, options: Sequence[int],
             table: Table) -> int:
        if private["role"] == "Mafia":
            team = {me, *private.get("teammates", ())}
            if self.mafia == "loud":
                goat = self.pick(self.scapegoat(team, table), team, table)
                if goat in options:
                    return goat
            return super().vote(private, me, options, table)
        mafia, clear = self.beliefs(private, me, table)
        known = [s for s in options if s in mafia]
        if self.village == "cautious":
            if known:
                return known[0]
            pool = [s for s in options if s not in clear] or list(options)
            return max(pool, key=lambda s: (table.accused.get(s, 0), -s))
        if self.village == "aggressive":
            if known:
                self.target = known[0]
            elif self.target not in options or self.target in clear:
                self.target = self.suspect(private, me, options, table)
            return self.target
        return super().vote(private, me, options, table)

    def pick(self, goat: int | None, team: set[int], table: Table) -> int | None:
        """The loud Mafia's villager to push: the one it first named while alive."""
        if self.target is None or self.target not in table.alive or self.target in team:
            self.target = goat
        return self.target


register_scripted(ENV, "agent", "plays its seat's role: the Mafia agree on a victim and "
                                "deflect; the village votes on claims and accusations")(
    lambda seed: MafiaBot(seed))
STYLES = {  # name -> (village style, Mafia style, description)
    "cautious": ("cautious", "agent", "the agent, but a cautious village: accuses only on a "
                                      "finding or a credible claim, votes with the table"),
    "aggressive": ("aggressive", "agent", "the agent, but an aggressive village: names a "
                                          "suspect at once, presses the vote, claims early"),
    "quiet": ("agent", "quiet", "the agent, but a quiet Mafia: names nobody, never "
                                "counter-claims, votes with the table"),
    "loud": ("agent", "loud", "the agent, but a loud Mafia: claims to be the Detective on day "
                              "1 and pushes one villager"),
}

for _name, (_village, _mafia, _text) in STYLES.items():
    register_scripted(ENV, _name, _text)(
        lambda seed, village=_village, mafia=_mafia: StyledBot(seed, village, mafia))
