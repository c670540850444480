"""Hidden Role Deduction as a one-seat game: the puzzle's statements are revealed a round at a
time (all of a round together, Player 1's own among them), and after each round the seat answers
who the criminal is and what its own role is (or Unknown). Nothing about its answers' worth is
shown until the end, when the deal, the per-round scores and the deduction are revealed.

Answers are read as the paper reads a model's (engine/hidden_role/scoring.py): a typed reply
with "Final Criminal Is Player N. My Role Is R" anywhere in it, last match wins; the form's
fields are the same answer for people. A reply that says neither is not an invalid move: it is
an answer, scored wrong, as in the paper.
"""

from __future__ import annotations

from typing import Any

from engine.core import NO_ACTION, Action, ActionSpace, Env, Field, Game, Option, derive_seed
from engine.hidden_role.config import HiddenRoleConfig
from engine.hidden_role.dataset import content_hash
from engine.hidden_role.explain import explain
from engine.hidden_role.generator import generate
from engine.hidden_role.instance import UNKNOWN, Instance
from engine.hidden_role.roles import ROLE_ORDER, could_be, describe_composition
from engine.hidden_role.scoring import read_reply, score_reply

ANSWER_SYNTAX = "Final Criminal Is Player 3. My Role Is Rumormonger"


class HiddenRoleGame(Game):
    __slots__ = ("puzzle", "round", "answers")
    config: HiddenRoleConfig

    def __init__(self, env: Env, config: HiddenRoleConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self.puzzle: Instance = config.puzzle() if config.instance else generate(
            config.variant, config.players, config.rounds, config.p1,
            derive_seed(seed, "puzzle"), instance_id=f"hr-{seed}")
        self.round = 1
        self.answers: list[dict[str, Any]] = []  # per round: what the seat said and its scores
        self.clock = {"round": 1}
        self._waiting = frozenset((0,))
        self._reveal()

    def _reveal(self) -> None:
        said = [[s.speaker, s.target, s.claim] for s in self.puzzle.round_statements(self.round)]
        self.emit("statements", {"round": self.round, "statements": said})

    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return NO_ACTION
        n = self.puzzle.n
        return ActionSpace(
            kind="form",
            prompt=f"After round {self.round} of {self.puzzle.rounds}: who is the criminal, and "
                   f"what is your own role?",
            syntax=ANSWER_SYNTAX,
            fields=(Field("criminal", "The criminal", "choice",
                          options=tuple(Option(str(p), f"Player {p}") for p in range(1, n + 1))),
                    Field("role", "Your role", "choice",
                          options=tuple(Option(r, r) for r in (*self._roles_for_me(), UNKNOWN)),
                          default=UNKNOWN)))

    def _roles_for_me(self) -> tuple[str, ...]:
        """The roles Player 1 may pick: the two its told role leaves, if the game has them."""
        return tuple(r.value for r in could_be(self.puzzle.told) if self.puzzle.composition.get(r))

    def _public_state(self) -> dict[str, Any]:
        p = self.puzzle
        shown = [[s.round, s.speaker, s.target, s.claim] for s in p.upto(self.round)]
        return {"players": p.n, "rounds": p.rounds, "round": self.round,
                "composition": {r.value: p.composition.get(r, 0) for r in ROLE_ORDER},
                "composition_text": describe_composition(p.composition),
                "told": p.told.value,  # Player 1's told role: the seat's, and no secret
                "statements": shown, "answered": len(self.answers)}

    def _private_state(self, seat: int) -> dict[str, Any]:
        mine = [{"round": a["round"], "criminal": a["criminal"], "role": a["role"]}
                for a in self.answers]
        return {"last_error": self._last_errors[seat], "my_answers": mine}

    def default_action(self, seat: int) -> dict[str, str] | None:
        return {"role": UNKNOWN}  # no criminal named: scored wrong, as an unreadable reply

    def pace(self, seat: int) -> float | None:
        """A person's time for each round's answer when the config sets one
        (`seconds_per_round`): then an overdue answer is the default one (wrong) and the next
        round comes."""
        seconds = self.config.seconds_per_round
        return float(seconds) if seconds else None

    def hidden_setup(self) -> dict[str, Any]:
        p = self.puzzle
        return {"true_roles": {f"Player {i}": r.value for i, r in enumerate(p.roles, 1)},
                "answer": {"criminal": p.answer[0], "role": p.answer[1]},
                "instance_id": p.id, "content_hash": content_hash(p),
                "explanation": explain(p)}

    def _apply(self, seat: int, action: Action) -> str | None:
        if isinstance(action, str):
            text = action
        else:
            criminal, role = action.get("criminal"), action.get("role") or UNKNOWN
            text = (f"Final Criminal Is Player {criminal}. " if criminal else "") + \
                f"My Role Is {role}"
        reply = read_reply(text)
        score = score_reply(text, self.puzzle.answer)
        entry = {"round": self.round, "criminal": reply.criminal, "role": reply.role,
                 "crim": score.crim, "self": score.self_role, "both": score.both}
        self.answers.append(entry)
        self.emit("answer_scored", entry, visible_to=())  # for the record and metrics only
        if self.round < self.puzzle.rounds:
            self.round += 1
            self.clock = {"round": self.round}
            self._reveal()
            return None
        final = self.answers[-1]
        self.emit("scores", {"rounds": [{k: a[k] for k in ("round", "crim", "self", "both")}
                                        for a in self.answers]})
        # +1 solved, -1 not: a puzzle is won or lost, never drawn (the -1..+1 reward scale)
        self.finish({0: 1.0 if final["both"] else -1.0}, (0,) if final["both"] else (),
                    "solved" if final["both"] else
                    f"not solved: the criminal was Player {self.puzzle.answer[0]} and you were "
                    f"the {self.puzzle.answer[1]}")
        return None
