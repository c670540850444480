"""The cycle of a Secret Mafia game: night (the Mafia's vote, the Doctor, the Detective), dawn,
the day's discussion rounds and vote, and the win check after every death. `MafiaGame`
(rules.py) holds the state and judges each action; this class moves the game from one task to
the next and resolves each phase. Public draws (speaking and voting orders, the day vote's
tie-break) come from the game's rng; the night's hidden draws (the Mafia's voting order and
their tie-break) from a separate sub-seed, so that what everyone sees never depends on what
happened in secret.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.core import Game, derive_seed
from engine.deduction import drawn_order, living, living_of, plurality
from engine.secret_mafia.config import MAFIA_SIDE, VILLAGE_SIDE, MafiaConfig
from engine.secret_mafia.syntax import Target

NIGHT, DAY, VOTE, OVER = "night", "day", "vote", "over"  # the public phases
KILL, PROTECT, INVESTIGATE, SPEAK = "kill", "protect", "investigate", "speak"  # seats' tasks


class Cycle(Game):
    """The phases; the state lives in `MafiaGame`'s slots (annotated here for the reader)."""

    __slots__ = ()
    config: MafiaConfig
    mafia: frozenset[int]
    doctor: int
    detective: int
    alive: list[bool]
    day: int
    phase: str
    task: str
    queue: list[int]
    round: int
    order: list[int]
    vote_order: list[int]
    chat: list[dict[str, Any]]
    votes: list[dict[str, Any]]
    night_votes: list[dict[str, Any]]
    target: int | None
    protected: int | None
    unannounced: list[int]
    history: list[dict[str, Any]]
    protections: list[dict[str, Any]]
    findings: list[dict[str, Any]]
    mafia_log: list[dict[str, Any]]
    announced: set[int]
    _night_rng: random.Random | None

    @property
    def night_rng(self) -> random.Random:
        """The Mafia's hidden draws: drawing them from the public `rng` would shift the day's
        speaking order by how many Mafia are alive and whether they tied (a leak given the
        seed)."""
        if self._night_rng is None:
            self._night_rng = random.Random(derive_seed(self.seed, "night"))
        return self._night_rng

    def living(self) -> list[int]:
        return living(self.alive)

    def living_mafia(self) -> list[int]:
        return living_of(self.alive, self.mafia)

    def _done(self, seat: int) -> None:
        if self.queue and self.queue[0] == seat:
            self.queue.pop(0)
        self._advance()

    def _advance(self) -> None:
        """Wait for the next living seat of the current task, moving through tasks and phases
        (and resolving them) until someone must act or the game is over."""
        while self._result is None:
            queue = self.queue
            while queue and not self.alive[queue[0]]:
                queue.pop(0)
            if queue:
                self._waiting = frozenset((queue[0],))
                return
            self._next_task()

    def _next_task(self) -> None:
        task = self.task
        if task == KILL:
            self._choose_victim()
            self._begin(PROTECT, [self.doctor])
        elif task == PROTECT:
            self._begin(INVESTIGATE, [self.detective])
        elif task == INVESTIGATE:
            self._dawn()
        elif task == SPEAK and self.round < self.config.discussion_rounds:
            self.round += 1
            self.clock = {"day": self.day, "phase": DAY, "round": self.round}
            self.emit("discussion_round", {"day": self.day, "round": self.round,
                                           "rounds": self.config.discussion_rounds})
            self._begin(SPEAK, self.order)
        elif task == SPEAK:
            self._open_vote()
        else:
            self._close_vote()

    def _begin(self, task: str, queue: Sequence[int]) -> None:
        self.task = task
        self.queue = [s for s in queue if self.alive[s]]

    def _start_night(self) -> None:
        self.phase = NIGHT
        self.clock = {"day": self.day, "phase": NIGHT}
        self.night_votes, self.target, self.protected = [], None, None
        self.emit("night_started", {"day": self.day})
        mafia = self.living_mafia()
        self._begin(KILL, drawn_order(self.night_rng, mafia))

    def _choose_victim(self) -> None:
        votes = [v["target"] for v in self.night_votes]
        self.target, tied = self._plurality(votes, self.night_rng)
        entry = {"day": self.day, "target": self.target, "tied": tied,
                 "votes": [{"seat": v["seat"], "target": v["target"]} for v in self.night_votes]}
        self.mafia_log.append(entry)
        self.emit("mafia_target", entry, self.living_mafia())

    def _protect(self, seat: int, choice: Target) -> None:
        self.protected = choice.seat
        entry = {"day": self.day, "target": choice.seat}
        self.protections.append(entry)
        self.emit("protected", {"seat": seat, **entry}, (seat,))

    def _investigate(self, seat: int, choice: Target) -> None:
        found = None if choice.seat is None else choice.seat in self.mafia
        entry = {"day": self.day, "target": choice.seat, "mafia": found}
        self.findings.append(entry)
        self.emit("investigated", {"seat": seat, **entry}, (seat,))

    def _dawn(self) -> None:
        target = self.target
        alive = target is not None and self.alive[target]
        saved = alive and target == self.protected
        killed = target if alive and not saved else None
        if killed is not None:
            self.alive[killed] = False
        self.emit("night_resolved", {"day": self.day, "target": target, "killed": killed,
                                     "protected": self.protected, "saved": saved}, ())
        entry: dict[str, Any] = {"day": self.day, "kind": "dawn", "killed": killed,
                                 "overnight": self.unannounced}
        self.unannounced = []
        roles = self._reveal(([] if killed is None else [killed]) + entry["overnight"])
        if roles:
            entry["roles"] = roles
        self.history.append(entry)
        self.emit("dawn", entry)
        if not self._check_end():
            self._start_day()

    def _start_day(self) -> None:
        self.phase, self.round, self.votes = DAY, 1, []
        self.order = drawn_order(self.rng, self.living())
        self.clock = {"day": self.day, "phase": DAY, "round": 1}
        self.emit("day_started", {"day": self.day, "order": self.order[:],
                                  "rounds": self.config.discussion_rounds})
        self._begin(SPEAK, self.order)

    def _open_vote(self) -> None:
        self.phase = VOTE
        self.vote_order = drawn_order(self.rng, self.living())
        self.clock = {"day": self.day, "phase": VOTE}
        self.emit("voting_started", {"day": self.day, "order": self.vote_order[:]})
        self._begin(VOTE, self.vote_order)

    def _close_vote(self) -> None:
        out, tied = self._plurality([v["target"] for v in self.votes], self.rng)
        if out is not None:
            self.alive[out] = False
        entry: dict[str, Any] = {"day": self.day, "kind": "vote", "eliminated": out,
                                 "tied": tied,
                                 "votes": [{"seat": v["seat"], "target": v["target"]}
                                           for v in self.votes]}
        roles = self._reveal([] if out is None else [out])
        if roles:
            entry["roles"] = roles
        self.history.append(entry)
        self.emit("vote_result", entry)
        if not self._check_end():
            self.day += 1
            self._start_night()

    def _plurality(self, chosen: Sequence[int | None], rng: random.Random
                   ) -> tuple[int | None, list[int]]:
        """The most chosen living seat (passes and the dead do not count), ties broken by
        `rng`; and the tied seats when there was a tie."""
        tally = plurality(chosen, set(self.living()), ties="lot", rng=rng)
        return tally.chosen, list(tally.tied)

    def _reveal(self, seats: Sequence[int]) -> dict[str, str]:
        """The roles a death announcement names (only with `reveal_roles`)."""
        if not self.config.reveal_roles or not seats:
            return {}
        self.announced.update(seats)
        return {str(s): self.roles[s].name for s in seats}

    # -- the end ------------------------------------------------------------------------------
    def _check_end(self) -> bool:
        living = self.living()
        mafia = [s for s in living if s in self.mafia]
        if not mafia:
            self._win(VILLAGE_SIDE, "no Mafia member is left")
        elif 2 * len(mafia) >= len(living):
            self._win(MAFIA_SIDE, f"the Mafia are {len(mafia)} of the {len(living)} players "
                                  "left")
        else:
            return False
        return True

    def _win(self, side: str, why: str) -> None:
        if self.unannounced:  # out tonight for invalid moves, and no dawn will say so
            self.emit("left_overnight", {"day": self.day, "seats": self.unannounced})
            self.unannounced = []
        winners = tuple(s for s in range(self.players) if self.roles[s].side == side)
        rewards = {s: 1.0 if s in winners else -1.0 for s in range(self.players)}
        self.phase, self.queue = OVER, []
        who = "the village wins" if side == VILLAGE_SIDE else "the Mafia win"
        self.finish(rewards, winners, f"{who}: {why}")
