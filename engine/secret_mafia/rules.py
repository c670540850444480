"""Secret Mafia's rules (spec §5; every decision in docs/rules/secret-mafia.md).

One seat acts at a time. Night: each living Mafia member votes a victim (in a random order, each
seeing the votes before theirs), the plurality is the target (ties broken by a hidden sub-seed);
the Doctor protects one player; the Detective learns whether one player is Mafia. Dawn: the
target dies unless protected. Day: `discussion_rounds` rounds of speeches in an order drawn for
the day, then a public vote in a fresh random order; the plurality is eliminated (random
tie-break; no valid vote, nobody). The village wins when no Mafia member is left, the Mafia as
soon as they are at least half of the living; every member of a side shares its reward.

Invalid targets: one retry, then the player is eliminated (or, with `night_errors="correct"`,
the Doctor's or Detective's action is replaced by their pass). At night, only the seat (and its
living Mafia teammates) hears of its errors, default moves and elimination until dawn: a public
notice would tell everyone that the seat acts at night.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.core import Action, ActionSpace, Env, InvalidMovePolicy
from engine.policy import DEFAULT, FORMAT, RULE
from engine.records import Visibility
from engine.secret_mafia import views
from engine.secret_mafia.config import COMPOSITION, DETECTIVE, DOCTOR, MAFIA, MafiaConfig, seat_name
from engine.secret_mafia.cycle import INVESTIGATE, KILL, NIGHT, PROTECT, SPEAK, VOTE, Cycle
from engine.secret_mafia.syntax import AnswerError, parse_speech, parse_target

CORRECTED = InvalidMovePolicy(retries=0, then=DEFAULT)  # the paper's silent correction
# Notices the base class makes public, kept to the seat's night audience while it is night.
class MafiaGame(Cycle):
    __slots__ = ("mafia", "doctor", "detective", "alive", "day", "phase", "task", "queue",
                 "round", "order", "vote_order", "chat", "votes", "night_votes", "target",
                 "protected", "unannounced", "history", "protections", "findings",
                 "mafia_log", "announced", "_night_rng")
    config: MafiaConfig

    def __init__(self, env: Env, config: MafiaConfig, seed: int, players: int) -> None:
        self.phase = NIGHT  # read by `emit`, so set before anything is emitted
        super().__init__(env, config, seed, players)
        roles = self.roles
        self.mafia = frozenset(s for s in range(players) if roles[s].name == MAFIA)
        self.doctor = next(s for s in range(players) if roles[s].name == DOCTOR)
        self.detective = next(s for s in range(players) if roles[s].name == DETECTIVE)
        self.alive = [True] * players
        self.day = 1  # night n comes before day n
        self.task = KILL
        self.queue: list[int] = []  # who acts next in the current task, first first
        self.round = 0
        self.order: list[int] = []  # today's speaking order
        self.vote_order: list[int] = []
        self.chat: list[dict[str, Any]] = []
        self.votes: list[dict[str, Any]] = []  # today's votes, in the order cast
        self.night_votes: list[dict[str, Any]] = []  # tonight's Mafia votes
        self.target: int | None = None
        self.protected: int | None = None
        self.unannounced: list[int] = []  # eliminated tonight for invalid moves
        self.history: list[dict[str, Any]] = []  # dawns and vote results (public)
        self.protections: list[dict[str, Any]] = []  # the Doctor's nights
        self.findings: list[dict[str, Any]] = []  # the Detective's results
        self.mafia_log: list[dict[str, Any]] = []  # each night's votes and target
        self.announced: set[int] = set()  # seats whose role a death announcement named
        self._night_rng: random.Random | None = None  # made on first use (see Cycle.night_rng)
        self.emit("game_started", {"players": players, "composition": dict(COMPOSITION),
                                   "discussion_rounds": config.discussion_rounds})
        for seat in range(players):
            data: dict[str, Any] = {"seat": seat, "role": roles[seat].name}
            if seat in self.mafia:
                data["teammates"] = sorted(self.mafia - {seat})
            self.emit("role_assigned", data, (seat,))
        self._start_night()
        self._advance()

    # -- the contract ------------------------------------------------------------------------
    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return views.NO_ACTION
        return views.action_space(self, seat)

    def _public_state(self) -> dict[str, Any]:
        return views.public_state(self)

    def _private_state(self, seat: int) -> dict[str, Any]:
        return views.private_state(self, seat)

    def default_action(self, seat: int) -> dict[str, Any]:
        """Say nothing in a discussion; otherwise pass (no vote, protection or investigation)."""
        return {"text": ""} if self.task == SPEAK else {"pass": True}

    def invalid_move_policy(self, seat: int, category: str) -> InvalidMovePolicy:
        if self.config.night_errors == "correct" and self.task in (PROTECT, INVESTIGATE):
            return CORRECTED
        return self.env.invalid_moves

    def revealed_roles(self) -> frozenset[str]:
        return frozenset(self.roles[s].name for s in self.announced)

    def notice_audience(self, seat: int) -> Visibility | Sequence[int]:
        """At night, notices about a seat's move reach only those who may know of its night."""
        return self.night_audience(seat) if self.phase == NIGHT else "all"

    def _apply(self, seat: int, action: Action) -> str | None:
        if self.task == SPEAK:
            entry = {"day": self.day, "round": self.round, "seat": seat,
                     "text": parse_speech(action, self.config.max_chat_chars).text}
            self.chat.append(entry)
            self.emit("chat", entry)
            return self._done(seat)
        try:
            choice = parse_target(action, self.config.max_chat_chars)
        except AnswerError as e:
            return self.reject(seat, str(e), FORMAT, day=self.day)
        if choice.seat is not None and choice.seat not in self.targets(seat):
            return self.reject(seat, self._refusal(seat, choice.seat), RULE, day=self.day)
        if self.task == KILL:
            entry = {"day": self.day, "seat": seat, "target": choice.seat, "note": choice.note}
            self.night_votes.append(entry)
            self.emit("mafia_vote", entry, self.living_mafia())
        elif self.task == PROTECT:
            self._protect(seat, choice)
        elif self.task == INVESTIGATE:
            self._investigate(seat, choice)
        else:
            entry = {"day": self.day, "seat": seat, "target": choice.seat}
            self.votes.append(entry)
            self.emit("vote", entry)
        return self._done(seat)

    def _on_eliminate(self, seat: int, why: str) -> None:
        """Out for invalid moves: announced at dawn if it is night, at once by day."""
        self.alive[seat] = False
        self.queue = [s for s in self.queue if s != seat]
        if self.phase == NIGHT:
            self.unannounced.append(seat)
        else:
            roles = self._reveal([seat])
            if roles:
                self.emit("role_revealed", {"seat": seat, "role": roles[str(seat)]})
        if not self._check_end():
            self._advance()

    # -- who may be chosen -------------------------------------------------------------------
    def night_audience(self, seat: int) -> tuple[int, ...]:
        """Who may hear of `seat`'s night: itself, and the living Mafia if it is one of them."""
        return tuple(sorted({seat, *self.living_mafia()})) if seat in self.mafia else (seat,)

    def targets(self, seat: int) -> list[int]:
        """The seats `seat` may choose for its task now."""
        living = self.living()
        if self.task == KILL:
            return [s for s in living if s not in self.mafia]
        if self.task == PROTECT:
            return [s for s in living if s != seat or self.config.doctor_self_protect]
        if self.task == INVESTIGATE:
            return [s for s in living if s != seat]
        return living if self.task == VOTE else []

    def _refusal(self, seat: int, chosen: int) -> str:
        """Why a target is refused, in words that name no role (a day's refusal is public)."""
        valid = ", ".join(f"[{s}]" for s in self.targets(seat))
        if not 0 <= chosen < self.players:
            why = f"there is no player {chosen}"
        elif not self.alive[chosen]:
            why = f"{seat_name(chosen)} is no longer in the game"
        elif chosen == seat:
            why = "you cannot choose yourself"
        else:
            why = f"{seat_name(chosen)} cannot be chosen"
        return f"{why}; valid targets: {valid}"
