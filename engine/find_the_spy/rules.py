"""Find the Spy as a four-seat game (spec socialmaze §4; every decision in
docs/rules/find-the-spy.md).

Three seats (the civilians) share one word, the spy has the other word of a related pair;
every seat is told its own word only, never whether it is the spy. For `rounds` rounds every
seat, in seat order, describes its word in one sentence without saying it; then every seat
names the spy (itself included: a seat that thinks it holds the odd word names itself). Votes
are simultaneous and secret until all are in. A seat that names the spy is right (+1), any
other answer is wrong (-1).

A description saying the seat's own word (engine/wording.py `says`: also spelled out, disguised
by look-alike letters, invisible characters, accents or entities) is an invalid move: one
retry, then "(no description)" is recorded in its place. A description is only limited in
length (cut at `max_chars`), not in sentences. A vote that names nobody is an answer, scored
wrong, as in the paper; a vote naming a player who is not at the table is an invalid move (one
retry, then a vote naming nobody).

Passive mode (the paper's task): one seat, the recording's Player 1, is dealt its word, every
recorded description is shown at once, and it names the spy (engine/find_the_spy/passive.py).
"""

from __future__ import annotations

from typing import Any

from engine.core import NO_ACTION, Action, ActionSpace, Env, Game, Option
from engine.find_the_spy.config import (
    PLAYERS,
    FindTheSpyConfig,
    deal_words,
    seat_name,
    spy_seat,
)
from engine.find_the_spy.passive import Recording, bank_recording
from engine.find_the_spy.syntax import (
    ANSWER_SYNTAX,
    NO_DESCRIPTION,
    parse_description,
    parse_vote,
)
from engine.find_the_spy.words import Pair
from engine.policy import RULE
from engine.wording import says

DESCRIBE, VOTE, OVER = "describe", "vote", "over"


class FindTheSpyGame(Game):
    __slots__ = ("pair", "civilian_word", "spy_word", "spy", "words", "phase", "round",
                 "speaker", "descriptions", "votes", "recording", "table")
    config: FindTheSpyConfig

    def __init__(self, env: Env, config: FindTheSpyConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self.table = PLAYERS  # players at the table (in passive mode, only Player 1 is a seat)
        self.recording: Recording | None = None
        self.pair: Pair | None = None
        if config.recorded:
            self.recording = config.recording()
            self.spy = self.recording.spy
            self.civilian_word = self.recording.civilian_word
            self.spy_word = self.recording.words[self.spy]
        else:
            self.spy = spy_seat(seed, self.table)
            self.pair, self.civilian_word, self.spy_word = deal_words(seed)
        self.words = tuple(self.spy_word if s == self.spy else self.civilian_word
                           for s in range(self.table))
        self.phase = DESCRIBE
        self.round = 1
        self.speaker = 0
        self.descriptions: list[dict[str, Any]] = []  # {"round", "seat", "text"}, in order
        self.votes: dict[int, int | None] = {}  # seat -> player named (1-based) or None
        self.clock = {"round": 1, "phase": DESCRIBE}
        if config.passive:
            self._start_passive(seed)
            return
        self.emit("game_started", {"players": players, "rounds": config.rounds})
        for s in range(players):
            self.emit("word_dealt", {"seat": s, "word": self.words[s]}, (s,))
        self._start_round()

    def _start_passive(self, seed: int) -> None:
        """The recording (or one dealt from the seed) shown whole; then Player 1 votes."""
        rec = self.recording or bank_recording(seed, self.config.rounds, self.spy,
                                               self.civilian_word, self.spy_word)
        self.emit("game_started", {"players": self.table, "rounds": rec.rounds,
                                   "passive": True})
        self.emit("word_dealt", {"seat": 0, "word": self.words[0]}, (0,))
        for r, p, text in rec.descriptions:
            entry = {"round": r, "seat": p - 1, "text": text or NO_DESCRIPTION}
            self.descriptions.append(entry)
            self.emit("description", dict(entry))
        self.round = rec.rounds
        self._start_vote()

    # -- the contract ------------------------------------------------------------------------
    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return NO_ACTION
        if self.phase == DESCRIBE:
            return ActionSpace(
                kind="text", max_chars=self.config.max_chars,
                prompt=f"Round {self.round} of {self.config.rounds}: describe your word in one "
                       f"sentence, without saying it (nor any word containing it).")
        options = tuple(Option(str(p), seat_name(p - 1) + (" (yourself)" if p - 1 == seat
                                                             else ""))
                        for p in range(1, self.table + 1))
        return ActionSpace(kind="choice", prompt="Who is the spy? Name the player whose word "
                                                 "is the odd one out (yourself included).",
                           syntax=ANSWER_SYNTAX, options=options)

    def _public_state(self) -> dict[str, Any]:
        over = self.result is not None
        return {
            "players": [seat_name(s) for s in range(self.table)],
            "rounds": self.recording.rounds if self.recording else self.config.rounds,
            "passive": self.config.passive,
            "round": self.round,
            "phase": OVER if over else self.phase,
            "speaker": self.speaker if self.phase == DESCRIBE and not over else None,
            "descriptions": [dict(d) for d in self.descriptions],
            "voted": sorted(self.votes),  # who has voted, never for whom, until all are in
            "votes": ({str(s): p for s, p in sorted(self.votes.items())}
                      if self.phase == OVER else None),
            "max_chars": self.config.max_chars,
        }

    def _private_state(self, seat: int) -> dict[str, Any]:
        return {"word": self.words[seat], "my_vote": self.votes.get(seat),
                "voted": seat in self.votes, "last_error": self._last_errors[seat]}

    def default_action(self, seat: int) -> dict[str, str]:
        """No description ("(no description)" is recorded), or a vote naming nobody."""
        return {"text": ""} if self.phase == DESCRIBE else {"choice": ""}

    def hidden_setup(self) -> dict[str, Any]:
        setup = {**super().hidden_setup(), "spy": self.spy, "spy_player": self.spy + 1,
                 "civilian_word": self.civilian_word, "spy_word": self.spy_word,
                 "mode": self.config.mode}
        if self.recording is not None:
            setup["recording_id"] = self.recording.id
        return setup

    def _apply(self, seat: int, action: Action) -> str | None:
        if self.phase == DESCRIBE:
            return self._describe(seat, action)
        return self._vote(seat, action)

    # -- the rules -----------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.speaker = 0
        self.clock = {"round": self.round, "phase": DESCRIBE}
        self.emit("round_started", {"round": self.round, "rounds": self.config.rounds})
        self._waiting = frozenset((0,))

    def _describe(self, seat: int, action: Action) -> str | None:
        text = parse_description(action, self.config.max_chars).text
        found = says(text, self.words[seat])
        if found:
            return self.reject(seat, f'the description contains your word ("{found}"); '
                                     f"describe it without saying it", RULE, round=self.round)
        entry = {"round": self.round, "seat": seat, "text": text or NO_DESCRIPTION}
        self.descriptions.append(entry)
        self.emit("description", dict(entry))
        if seat + 1 < self.players:
            self.speaker = seat + 1
            self._waiting = frozenset((seat + 1,))
        elif self.round < self.config.rounds:
            self.round += 1
            self._start_round()
        else:
            self._start_vote()
        return None

    def _start_vote(self) -> None:
        self.phase = VOTE
        self.clock = {"round": self.round, "phase": VOTE}
        self.emit("voting_started", {"players": self.table})
        self._waiting = frozenset(range(self.players))

    def _vote(self, seat: int, action: Action) -> str | None:
        player = parse_vote(action).player
        if player is not None and not 1 <= player <= self.table:
            return self.reject(seat, f"there is no Player {player}; name one of Player 1 to "
                                     f"Player {self.table}", RULE)
        self.votes[seat] = player
        self.emit("vote", {"seat": seat, "player": player}, (seat,))
        self.emit("vote_cast", {"seat": seat})
        self._waiting = self._waiting - {seat}
        if self._waiting:
            return None
        self.phase = OVER
        self.clock = {"round": self.round, "phase": VOTE}
        spy_player = self.spy + 1
        right = [s for s in range(self.players) if self.votes[s] == spy_player]
        self.emit("votes_revealed", {"votes": {str(s): self.votes[s] for s in range(self.players)},
                                     "spy": self.spy, "right": right})
        rewards = {s: 1.0 if s in right else -1.0 for s in range(self.players)}
        names = ", ".join(seat_name(s) for s in right) or "nobody"
        self.finish(rewards, right, f"{seat_name(self.spy)} was the spy; named by {names}")
        return None


__all__ = ["DESCRIBE", "OVER", "PLAYERS", "VOTE", "FindTheSpyGame"]
