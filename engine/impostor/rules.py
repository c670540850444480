"""The Impostor game (spec impostor §2-§3; every decision in docs/rules/impostor.md).

Four seats. Three hold the majority word, one (the impostor) the other word of a pair; each
seat is told its own word only, never its role. In a speaking order drawn fresh each game,
every seat describes its word in one or two sentences (at most 750 characters) without naming
it, seeing the descriptions before its own. A description breaking a rule is refused once,
with the reason told to its seat only; a second one is repaired and flagged in the record:
cut to two sentences and 750 characters, the word redacted (or the whole text withheld when
the word is disguised across words), or "(no description)" when it says nothing.

Then one simultaneous, secret ballot: a suspect, a confidence, a reasoning, a self-declaration
("I hold the different word") and a guess of the majority word (counted only with a
self-declaration). An unreadable ballot is refused once, then counts for nobody. The game is
resolved in spec §3.3's order and labelled with its `win_condition`:

1. the impostor self-declared: a right guess of the majority word wins for the impostor
   (`correct_guess`), a wrong one for the majority (`wrong_guess`);
2. a majority seat self-declared: the majority wins (`majority_self_declaration`);
3. two or more majority seats voted for the impostor: the majority wins (`conviction`);
4. the impostor has more valid votes than all other players together: the majority wins
   (`strict_plurality`);
5. otherwise the impostor wins: `tie` when two or more players share the most valid votes,
   else `evaded`.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import NO_ACTION, Action, ActionSpace, Env, Field, Game, Option, derive_seed
from engine.deduction import SimultaneousBallot, drawn_order, plurality
from engine.impostor.config import (
    IMPOSTOR_SIDE,
    MAJORITY_SIDE,
    MAX_CHARS,
    MAX_SENTENCES,
    PLAYERS,
    TEAM_AWARE,
    TEAM_SEMI_AWARE,
    ImpostorConfig,
    deal_pair,
    deal_teams,
    seat_name,
)
from engine.impostor.syntax import (
    MAX_GUESS,
    MAX_REASONING,
    NO_DESCRIPTION,
    BallotError,
    cut,
    description_text,
    first_sentences,
    parse_ballot,
    redact,
    sentences,
)
from engine.policy import FORMAT, RULE
from engine.wording import says

DESCRIBE, VOTE, OVER = "describe", "vote", "over"
RETRIES = 1  # a refused description or ballot may be tried once more
WITHHELD = "[description withheld: it named the word]"
CORRECT_GUESS, WRONG_GUESS = "correct_guess", "wrong_guess"
MAJORITY_SELF_DECLARATION, CONVICTION = "majority_self_declaration", "conviction"
STRICT_PLURALITY, EVADED, TIE = "strict_plurality", "evaded", "tie"
WIN_CONDITIONS = (CORRECT_GUESS, WRONG_GUESS, MAJORITY_SELF_DECLARATION, CONVICTION,
                  STRICT_PLURALITY, EVADED, TIE)
WHY = {CORRECT_GUESS: "the impostor declared itself and guessed the majority word",
       WRONG_GUESS: "the impostor declared itself but guessed the majority word wrong",
       MAJORITY_SELF_DECLARATION: "a majority player declared itself the impostor",
       CONVICTION: "two or more majority players voted for the impostor",
       STRICT_PLURALITY: "the impostor got more votes than all other players together",
       EVADED: "the impostor was not caught",
       TIE: "the top of the ballot was tied, and a tie goes to the impostor"}


def same_word(guess: str | None, word: str) -> bool:
    """A guess names the word when equal after trimming and case folding."""
    return guess is not None and guess.strip().casefold() == word.strip().casefold()


def resolve(impostor: int, ballots: dict[int, dict[str, Any]], majority_word: str
            ) -> tuple[str, str, tuple[int, ...]]:
    """(winning side, win_condition, seats tied at the top) from each seat's ballot as the
    game records it ({"valid": False} counts for nobody), in spec §3.3's order."""
    valid = {s: b for s, b in ballots.items() if b.get("valid")}
    tally = plurality((b["target"] for b in valid.values()), range(PLAYERS), ties="nobody")
    own = valid.get(impostor)
    if own is not None and own["self_declaration"]:
        if same_word(own["word_guess"], majority_word):
            return IMPOSTOR_SIDE, CORRECT_GUESS, tally.tied
        return MAJORITY_SIDE, WRONG_GUESS, tally.tied
    if any(b["self_declaration"] for s, b in valid.items() if s != impostor):
        return MAJORITY_SIDE, MAJORITY_SELF_DECLARATION, tally.tied
    if sum(1 for s, b in valid.items() if s != impostor and b["target"] == impostor) >= 2:
        return MAJORITY_SIDE, CONVICTION, tally.tied
    counts = dict(tally.counts)
    against = counts.get(impostor, 0)
    if against > sum(n for t, n in counts.items() if t != impostor):
        return MAJORITY_SIDE, STRICT_PLURALITY, tally.tied
    return IMPOSTOR_SIDE, TIE if tally.tied else EVADED, tally.tied


class ImpostorGame(Game):
    __slots__ = ("impostor", "tier", "pair_index", "majority_word", "impostor_word", "words",
                 "teams", "order", "phase", "turn", "descriptions", "ballot", "ballots",
                 "outcome")
    config: ImpostorConfig

    def __init__(self, env: Env, config: ImpostorConfig, seed: int, players: int) -> None:
        super().__init__(env, config, seed, players)
        self.impostor = next(s for s in range(players) if self.roles[s].side == IMPOSTOR_SIDE)
        self.tier, self.pair_index, (self.majority_word, self.impostor_word) = \
            deal_pair(config, seed)
        self.words = tuple(self.impostor_word if s == self.impostor else self.majority_word
                           for s in range(players))
        self.teams = deal_teams(config, seed)
        self.order = drawn_order(random.Random(derive_seed(seed, "order")), range(players))
        self.phase = DESCRIBE
        self.turn = 0  # speaking position of the seat describing now
        self.descriptions: list[dict[str, Any]] = []
        self.ballot = SimultaneousBallot(frozenset(range(players)))
        self.ballots: dict[int, dict[str, Any]] = {}
        self.outcome: dict[str, Any] | None = None
        self.clock = {"phase": DESCRIBE}
        self.emit("game_started", {"players": players, "mode": config.mode,
                                   "order": list(self.order)})
        for s in range(players):
            self.emit("word_dealt", {"seat": s, "word": self.words[s]}, (s,))
            team = self.team_info(s)
            if team is not None:
                self.emit("team_told", {"seat": s, **team}, (s,))
        self._waiting = frozenset((self.order[0],))

    # -- what each seat is told ----------------------------------------------------------------
    def teammate(self, seat: int) -> int:
        return next(s for s in range(self.players)
                    if s != seat and self.teams[s] == self.teams[seat])

    def team_info(self, seat: int) -> dict[str, Any] | None:
        """Team-aware: who the teammate is; semi-aware: that one of the other three is, not
        who; otherwise (team-blind included) nothing."""
        if self.config.mode == TEAM_AWARE:
            return {"teammate": self.teammate(seat)}
        if self.config.mode == TEAM_SEMI_AWARE:
            return {"teammate": None}
        return None

    # -- the contract ------------------------------------------------------------------------
    def legal(self, seat: int) -> ActionSpace:
        if seat not in self._waiting:
            return NO_ACTION
        if self.phase == DESCRIBE:
            return ActionSpace(
                kind="text", max_chars=MAX_CHARS,
                prompt=f"Describe your word in one or two sentences (at most {MAX_CHARS} "
                       f"characters) without saying it or any form of it.")
        players = tuple(Option(str(p), seat_name(p - 1) + (" (yourself)" if p - 1 == seat
                                                             else ""))
                        for p in range(1, self.players + 1))
        return ActionSpace(
            kind="form", prompt="Who holds the different word? Vote for one player; declare "
                                "yourself if you think it is you, and then guess the others' "
                                "word.",
            syntax='{"suspected_impostor_id": 3, "confidence": 0.7, "reasoning": "...", '
                   '"self_declaration": false, "word_guess": null}',
            fields=(Field("suspected_impostor_id", "Suspect", "choice", options=players),
                    Field("confidence", "Confidence (0 to 1)", "float", min=0.0, max=1.0,
                          optional=True),
                    Field("reasoning", "Reasoning", "text", max_chars=MAX_REASONING,
                          optional=True),
                    Field("self_declaration", "I hold the different word", "bool",
                          optional=True),
                    Field("word_guess", "The others' word (with a self-declaration)", "text",
                          max_chars=MAX_GUESS, optional=True)))

    def _public_state(self) -> dict[str, Any]:
        over = self.phase == OVER
        return {
            "players": [seat_name(s) for s in range(self.players)],
            "mode": self.config.mode,
            "order": list(self.order),
            "phase": self.phase,
            "speaker": self.order[self.turn] if self.phase == DESCRIBE else None,
            "descriptions": [dict(d) for d in self.descriptions],
            "voted": sorted(self.ballot.cast_votes),  # who has voted, never for whom
            "ballots": ({str(s): dict(b) for s, b in sorted(self.ballots.items())}
                        if over else None),
            "outcome": dict(self.outcome) if self.outcome else None,
            "max_chars": MAX_CHARS,
        }

    def _private_state(self, seat: int) -> dict[str, Any]:
        mine = self.ballots.get(seat)
        return {"word": self.words[seat], "position": self.order.index(seat),
                "team": self.team_info(seat), "my_ballot": dict(mine) if mine else None,
                "last_error": self._last_errors[seat]}

    def default_action(self, seat: int) -> dict[str, Any]:
        """No description, or an abstention (a ballot that counts for nobody)."""
        return {"text": NO_DESCRIPTION} if self.phase == DESCRIBE else {"abstain": True}

    def hidden_setup(self) -> dict[str, Any]:
        setup = {**super().hidden_setup(), "impostor": self.impostor,
                 "impostor_player": self.impostor + 1, "majority_word": self.majority_word,
                 "impostor_word": self.impostor_word, "tier": self.tier,
                 "pair_index": self.pair_index}
        if self.teams:
            setup["teams"] = list(self.teams)
        return setup

    def _apply(self, seat: int, action: Action) -> str | None:
        if self.phase == DESCRIBE:
            return self._describe(seat, action)
        return self._vote(seat, action)

    # -- descriptions --------------------------------------------------------------------------
    def _describe(self, seat: int, action: Action) -> str | None:
        text = description_text(action)
        word = self.words[seat]
        if text == NO_DESCRIPTION:
            return self._said(seat, text, ["none"])
        problems = _problems(text, word)
        if not problems:
            return self._said(seat, text, [])
        if self.errors_in_a_row(seat) < RETRIES:
            return self.reject(seat, "Your description was refused: " + "; ".join(problems)
                               + ". Write it again.", RULE, position=self.turn)
        return self._said(seat, *self._repaired(text, word, len(sentences(text))))

    def preview(self, seat: int, action: Action) -> list[str]:
        """A description's problems before it is sent (its own word only: a person typing is
        warned of naming it); nothing once the descriptions are over."""
        if self.phase != DESCRIBE or seat not in self.pending():
            return []
        text = description_text(action)
        return [] if text == NO_DESCRIPTION else _problems(text, self.words[seat])

    def _repaired(self, text: str, word: str, count: int) -> tuple[str, list[str]]:
        """A description refused twice, made to fit the rules, and what was done to it."""
        if count == 0:
            return NO_DESCRIPTION, ["empty"]
        flags = []
        if count > MAX_SENTENCES:
            text, flags = first_sentences(text, MAX_SENTENCES), ["sentences"]
        if len(text) > MAX_CHARS:
            text = cut(text, MAX_CHARS)
            flags.append("length")
        if says(text, word, whole_words=True):
            text = redact(text, word) or WITHHELD
            flags.append("redacted" if text != WITHHELD else "withheld")
        return text, flags

    def _said(self, seat: int, text: str, flags: list[str]) -> None:
        entry = {"seat": seat, "position": self.turn, "text": text, "flags": flags}
        self.descriptions.append(entry)
        self.emit("description", dict(entry, flags=list(flags)))
        self.turn += 1
        if self.turn < self.players:
            self._waiting = frozenset((self.order[self.turn],))
            return
        self.phase = VOTE
        self.clock = {"phase": VOTE}
        self.emit("voting_started", {"players": self.players})
        self._waiting = self.ballot.waiting
        return

    # -- the ballot ----------------------------------------------------------------------------
    def _vote(self, seat: int, action: Action) -> str | None:
        if isinstance(action, dict) and action.get("abstain") is True and len(action) == 1:
            self._cast(seat, {"valid": False, "why": "abstained"})
            return None
        try:
            ballot = parse_ballot(action)
        except BallotError as e:
            return self.reject(seat, f"Your ballot could not be read: {e}.", FORMAT)
        if not 1 <= ballot.target <= self.players:
            return self.reject(seat, f"There is no Player {ballot.target}: name one of Player "
                                     f"1 to Player {self.players}.", RULE)
        self._cast(seat, {"valid": True, "target": ballot.target - 1,
                          "confidence": ballot.confidence, "reasoning": ballot.reasoning,
                          "self_declaration": ballot.self_declaration,
                          "word_guess": ballot.word_guess})
        return None

    def _on_void_ballot(self, seat: int) -> None:
        self._cast(seat, {"valid": False, "why": "unreadable"})

    def _cast(self, seat: int, ballot: dict[str, Any]) -> None:
        self.ballot.cast(seat, ballot.get("target"))
        self.ballots[seat] = ballot
        self.emit("ballot", {"seat": seat, **ballot}, (seat,))
        self.emit("ballot_cast", {"seat": seat})
        self._waiting = self.ballot.waiting
        if not self.ballot.complete:
            return
        side, condition, tied = resolve(self.impostor, self.ballots, self.majority_word)
        self.phase = OVER
        self.outcome = {"winner": side, "win_condition": condition, "tied": list(tied)}
        self.emit("ballots_revealed", {"ballots": {str(s): dict(b) for s, b
                                                   in sorted(self.ballots.items())},
                                       "impostor": self.impostor})
        self.emit("game_ended", {"winner": side, "win_condition": condition,
                                 "tied": list(tied), "impostor": self.impostor})
        winners = [s for s in range(self.players) if self.roles[s].side == side]
        rewards = {s: 1.0 if s in winners else -1.0 for s in range(self.players)}
        who = "the impostor" if side == IMPOSTOR_SIDE else "the majority"
        self.finish(rewards, winners, f"{who} wins: {WHY[condition]} "
                                      f"({seat_name(self.impostor)} was the impostor)")


__all__ = ["DESCRIBE", "OVER", "VOTE", "WIN_CONDITIONS", "ImpostorGame", "resolve"]


def _problems(text: str, word: str) -> list[str]:
    """Why a description breaks the rules (spec §3.1), in words for the one who wrote it."""
    problems = []
    leak = says(text, word, whole_words=True)
    count = len(sentences(text))
    if leak:
        problems.append(f'it names your word ("{leak}")')
    if count == 0:
        problems.append("it says nothing: write one or two sentences")
    elif count > MAX_SENTENCES:
        problems.append(f"it has {count} sentences, at most {MAX_SENTENCES} are allowed")
    if len(text) > MAX_CHARS:
        problems.append(f"it has {len(text)} characters, at most {MAX_CHARS} are allowed")
    return problems
