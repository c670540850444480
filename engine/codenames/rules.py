"""Codenames rules (MindGames §4; docs/rules/codenames.md states every decision).

A team's turn: its spymaster gives a clue `[word n]` (or passes), then its operative guesses one
word at a time, up to n + 1 guesses, and may pass. A guess of the team's own word lets it go on;
a neutral or opponent word ends the turn; the assassin loses the game at once. A team wins by
revealing all its words, or when the other team reveals the last of them. A clue that is part of
a board word, or contains one (revealed words included), loses the game for the clue's team at
once (the only fatal error); any other bad answer skips the rest of the team's turn. Every
decision counts as a move; after `max_moves` the team with more of its words revealed wins.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from engine.codenames import syntax
from engine.codenames.actions import PASS, Clue
from engine.codenames.board import (
    clue_conflict,
    deal,
    example_clue,
    illegal_reason,
    key_by_label,
)
from engine.codenames.config import (
    ASSASSIN,
    BOARD_SIZE,
    MAX_CLUE_CHARS,
    OPERATIVE,
    OPERATIVE_OF,
    OTHER,
    RED,
    ROLES,
    SEAT_NAMES,
    SPYMASTER,
    SPYMASTER_OF,
    TEAMS,
    CodenamesConfig,
)
from engine.codenames.ending import TEAM_SEATS, Ending
from engine.core import (
    NO_ACTION,
    Action,
    ActionSpace,
    Env,
    Field,
    Game,
    InvalidMovePolicy,
    Option,
    derive_seed,
)
from engine.policy import FORFEIT, FORMAT, RULE, SKIP_TURN

HISTORY_WINDOW = 40  # finished turns a view holds (a paper game has at most 80 moves)
SKIP = InvalidMovePolicy(retries=0, then=SKIP_TURN)
LOSE = InvalidMovePolicy(retries=0, then=FORFEIT)
PASS_TEXT = "[pass]"


@lru_cache(maxsize=32)
def clue_space(max_number: int, example: str) -> ActionSpace:
    return ActionSpace(
        kind="form",
        prompt=f"Give a one-word clue and how many of your team's words it points to "
               f"(0-{max_number}).",
        syntax=f"[{example} 2]",
        fields=(Field("word", "Clue word", "text", max_chars=MAX_CLUE_CHARS),
                Field("number", "Number", "int", min=0, max=max_number, default=1)))


class CodenamesGame(Ending, Game):
    __slots__ = ("words", "labels", "revealed", "left", "team", "phase", "turn", "moves", "clue",
                 "guesses", "history", "example", "_index", "_key", "_fixed", "_illegal",
                 "_why", "_max_moves", "_max_number")
    config: CodenamesConfig

    def __init__(self, env: Env, config: CodenamesConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self.words, self.labels = deal(config, random.Random(derive_seed(seed, "board")))
        self._index = {w: i for i, w in enumerate(self.words)}
        self._key = list(self.labels)  # shared by spymasters' views, never changed
        self.revealed: list[str | None] = [None] * BOARD_SIZE
        self.left = {RED: config.red_words, OTHER[RED]: config.blue_words}
        self.team, self.phase, self.turn, self.moves = RED, "clue", 1, 0
        self.clue: dict[str, Any] | None = None  # replaced, never changed: views hold it
        self.guesses: list[dict[str, Any]] = []  # this turn's guesses
        self.history: list[dict[str, Any]] = []  # finished turns; entries never change
        self.example = example_clue()
        self._illegal: tuple[str, str] | None = None
        self._why = ""
        self._max_moves, self._max_number = config.max_moves, config.max_clue_number
        teams = {t: list(seats) for t, seats in zip(TEAMS, TEAM_SEATS, strict=True)}
        self._fixed = {"players": list(SEAT_NAMES), "teams": teams, "words": list(self.words),
                       "counts": config.counts(), "max_moves": self._max_moves,
                       "max_clue_number": self._max_number}
        self.emit("board_dealt", {"words": list(self.words), "counts": config.counts(),
                                  "first": RED})
        self._start_turn()

    # -- the contract ------------------------------------------------------------------------
    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return NO_ACTION
        if self.phase == "clue":
            return clue_space(self._max_number, self.example)
        hidden = [w for w, label in zip(self.words, self.revealed, strict=True) if label is None]
        clue = self.clue or {}
        return ActionSpace(
            kind="choice",
            prompt=f"Guess a word for the clue [{clue.get('word')} {clue.get('number')}], or "
                   f"pass to end your turn.",
            syntax=f"[{hidden[0]}] or {PASS_TEXT}",
            options=(*(Option(w, w) for w in hidden), Option("pass", "Pass: end the turn")))

    def _public_state(self) -> dict[str, Any]:
        public = self._fixed.copy()
        over = self._result is not None
        public["revealed"] = self.revealed[:]
        public["left"] = dict(self.left)
        public["team"] = self.team
        public["phase"] = "over" if over else self.phase
        public["to_act"] = None if over else min(self._waiting, default=None)
        public["turn"] = self.turn
        public["moves"] = self.moves
        public["clue"] = None if self.clue is None else dict(self.clue)
        public["this_turn"] = self.guesses[:]
        public["history"] = self.history[-HISTORY_WINDOW:]
        return public

    def _private_state(self, seat: int) -> dict[str, Any]:
        role = ROLES[seat]
        private: dict[str, Any] = {"role": role.name, "team": role.side}
        if role.name == SPYMASTER:
            private["key"] = self._key
        return private

    def default_action(self, seat: int) -> str:
        """Pass: a spymaster gives no clue, an operative stops; the turn goes on to the other
        team (made for a seat whose time ran out or whose bot failed)."""
        return PASS_TEXT

    def invalid_move_policy(self, seat: int, category: str) -> InvalidMovePolicy:
        """No retries: an illegal clue loses the game, anything else skips the turn."""
        return LOSE if self._illegal is not None else SKIP

    def hidden_setup(self) -> dict[str, Any]:
        return {"key": key_by_label(self.words, self.labels)}

    def _apply(self, seat: int, action: Action) -> str | None:
        self.moves += 1
        if self.phase == "clue":
            error = self._give_clue(seat, action)
        else:
            error = self._make_guess(seat, action)
        if self._result is None and self.moves >= self._max_moves:
            self._move_cap()
        return error

    # -- the spymaster -----------------------------------------------------------------------
    def _give_clue(self, seat: int, action: Action) -> str | None:
        parsed = syntax.parse_clue(action, self.example)
        if isinstance(parsed, syntax.ParseError):
            self._why = "unreadable clue" if parsed.kind == FORMAT else "clue number out of range"
            return self.reject(seat, parsed.message, "unreadable_clue" if parsed.kind == FORMAT
                               else "bad_number", error_class=parsed.kind, turn=self.turn)
        if parsed is PASS:
            self.emit("passed", {"seat": seat, "team": self.team, "role": SPYMASTER})
            self._end_turn("no clue")
            return None
        assert isinstance(parsed, Clue)
        conflict = clue_conflict(parsed.word, self.words)
        if conflict is not None:
            self._illegal = (parsed.word, conflict)
            return self.reject(seat, illegal_reason(parsed.word, conflict), "illegal_clue",
                               error_class=RULE, turn=self.turn, word=parsed.word,
                               board_word=conflict)
        if parsed.number > self._max_number:
            self._why = "clue number out of range"
            return self.reject(seat, f"the clue number must be between 0 and "
                                     f"{self._max_number}, not {parsed.number}", "bad_number",
                               error_class=RULE, turn=self.turn)
        self.clue = {"word": parsed.word, "number": parsed.number,
                     "guesses": parsed.number + 1, "made": 0}
        self.phase = "guess"
        self.clock = {"turn": self.turn, "team": self.team, "phase": "guess"}
        self._waiting = frozenset((OPERATIVE_OF[self.team],))
        self.emit("clue_given", {"seat": seat, "team": self.team, "word": parsed.word,
                                 "number": parsed.number, "guesses": parsed.number + 1})
        return None

    # -- the operative -----------------------------------------------------------------------
    def _make_guess(self, seat: int, action: Action) -> str | None:
        parsed = syntax.parse_guess(action)
        if isinstance(parsed, syntax.ParseError):
            self._why = "unreadable guess"
            return self.reject(seat, parsed.message, "unreadable_guess", error_class=FORMAT,
                               turn=self.turn)
        if parsed is PASS:
            self.emit("passed", {"seat": seat, "team": self.team, "role": OPERATIVE,
                                 "made": self.clue["made"]})  # type: ignore[index]
            self._end_turn("pass")
            return None
        word = getattr(parsed, "word", "")
        index = self._index.get(word)
        if index is None or self.revealed[index] is not None:
            self._why = "not a hidden board word"
            where = "is not on the board" if index is None else "is already revealed"
            return self.reject(seat, f"'{word}' {where}; guess a hidden board word or pass",
                               "not_on_board" if index is None else "already_revealed",
                               error_class=RULE, turn=self.turn)
        self._reveal(seat, index)
        return None

    def _reveal(self, seat: int, index: int) -> None:
        team, label, word = self.team, self.labels[index], self.words[index]
        self.revealed[index] = label
        if label in self.left:
            self.left = {**self.left, label: self.left[label] - 1}
        clue = self.clue or {"guesses": 1, "made": 0}
        made = clue["made"] + 1
        self.clue = {**clue, "made": made}
        self.guesses = [*self.guesses, {"word": word, "label": label}]
        correct = label == team
        left = clue["guesses"] - made if correct else 0
        self.emit("guess_made", {"seat": seat, "team": team, "word": word, "index": index,
                                 "label": label, "correct": correct, "left": left})
        name = SEAT_NAMES[seat]
        if label == ASSASSIN:
            self._win(OTHER[team], "assassin", f"{name} revealed the assassin ({word})")
        elif correct and self.left[team] == 0:
            self._win(team, "all_words", f"{name} revealed the last {team} word ({word})")
        elif correct:
            if left == 0:
                self._end_turn("limit")
        elif label == OTHER[team] and self.left[label] == 0:
            self._win(label, "opponent_last_word",
                      f"{name} revealed the last {label} word ({word}) for the other team")
        else:
            self._end_turn("wrong")

    # -- turns and the end -------------------------------------------------------------------
    def _start_turn(self) -> None:
        self.phase = "clue"
        self.clock = {"turn": self.turn, "team": self.team, "phase": "clue"}
        self._waiting = frozenset((SPYMASTER_OF[self.team],))
        self.emit("turn_started", {"turn": self.turn, "team": self.team})

    def _end_turn(self, ended: str) -> None:
        clue = self.clue
        self.history.append({"turn": self.turn, "team": self.team,
                             "clue": clue["word"] if clue else None,
                             "number": clue["number"] if clue else None,
                             "guesses": self.guesses, "ended": ended})
        self.clue, self.guesses = None, []
        if self.moves >= self._max_moves:  # _apply ends the game at the cap
            self._waiting = frozenset()
            return
        self.team = OTHER[self.team]
        self.turn += 1
        self._start_turn()

    def _on_skip_turn(self, seat: int) -> None:
        self.emit("turn_skipped", {"seat": seat, "team": self.team, "role": ROLES[seat].name,
                                   "why": self._why})
        self._end_turn("skipped")
