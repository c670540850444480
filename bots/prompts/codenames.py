"""Prompts for Codenames (MindGames §4, in our own words). Two kinds of turn:

- A spymaster's clue: the system prompt gives the role, the team, how clues work and the one
  rule that loses at once (a clue that is, contains or is part of a board word, revealed words
  included); the per-turn text is the engine's render of the view, which lists every word with
  its colour. The answer ends with `[word n]`, or `[pass]` to give no clue.
- An operative's guess: the same rules from the other side (colours show only once revealed);
  the answer ends with one hidden board word in brackets, or `[pass]`.

Reading the answer: the last non-empty bracket group of the reply (after any <think> block) is
the move, and it is checked with the engine's own parser and illegal-clue rule, so a re-ask
names the exact problem ("'sea' is part of the board word 'seal'"). The fallback is safe: a
reply with no bracket group goes to the engine whole, where an unreadable answer only skips the
team's turn (never a loss); the builder never makes up or repairs a move, so an illegal clue the
model insists on is judged as the model's own error, as in the paper's data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.prompts.base import PromptBuilder, Verdict, last_bracket_group
from engine.codenames import syntax
from engine.codenames.actions import PASS, Clue
from engine.codenames.board import clue_conflict, example_clue, illegal_reason
from engine.codenames.config import SPYMASTER

RULES = (
    "Codenames is played by two teams, red and blue, of two players each: a spymaster and an "
    "operative. The board holds 25 words. Each word is secretly red, blue, neutral or the "
    "assassin; the spymasters see every colour, the operatives only the colours of words already "
    "revealed. Red starts, and red has one word more than blue.\n"
    "A turn: the spymaster gives a clue, one word and a number, meaning 'this many of our words "
    "go with this word'. The operative then names board words one at a time, up to the number "
    "plus one, and may stop at any time with [pass]. A word of the team's own colour is revealed "
    "and the operative may go on; a neutral word or a word of the other team is revealed and ends "
    "the turn; the assassin loses the game at once.\n"
    "The first team whose words are all revealed wins, even when the other team revealed the "
    "last of them. The game also ends after {max_moves} moves (every clue, guess or pass is a "
    "move): then the team with more of its words revealed wins, and equal counts are a draw.")


class CodenamesPrompts(PromptBuilder):
    history_unit = "turns"
    cut_public_history = True

    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        pub, private = view["public"], view["private"]
        team, role = private.get("team", "red"), private.get("role", "operative")
        rules = RULES.format(max_moves=pub["max_moves"])
        if role == SPYMASTER:
            you = (f"You are the {team} spymaster. Your clue must be a single word of letters "
                   f"and a number from 0 to {pub['max_clue_number']}, written in square "
                   f"brackets like [{example_clue()} 2]. Never use a word that is on the board, "
                   "contains a board word, or is part of one (revealed words count too, case "
                   "does not matter): such a clue loses the game for your team at once. Aim "
                   "for clues that lead to several of your words and away from the assassin "
                   "and the other team's words. Write [pass] only if you want to give no clue; "
                   "the turn then goes to the other team.")
        else:
            you = (f"You are the {team} operative. Each turn, read your spymaster's clue and "
                   "name one hidden board word you think is yours, in square brackets like "
                   "[word], or [pass] to end the turn. You are asked again after each correct "
                   "guess while guesses remain. A word that is not a hidden board word wastes the "
                   "rest of the turn.")
        return (f"{rules}\n\n{you}\nYou may think briefly first; end your reply with your move "
                "in square brackets. Only the last bracketed move counts.")

    def phase(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return "clue" if view["public"].get("phase") == "clue" else "guess"

    # -- history: finished turns can be cut to fit a small context --------------------------
    def summarize(self, view: Mapping[str, Any], cut: int) -> str:
        turns = view["public"]["history"][:cut]
        if not turns:
            return ""
        clues = "; ".join(f"{t['team']} [{t['clue']} {t['number']}]" for t in turns if t["clue"])
        return f"Earlier clues (turns {turns[0]['turn']}-{turns[-1]['turn']}): {clues or 'none'}."

    # -- how to answer ---------------------------------------------------------------------
    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        pub = view["public"]
        if self.phase(view, legal) == "clue":
            return (f"Give your clue now. End your reply with it in square brackets, for example "
                    f"[{example_clue()} 2] (or [pass] to give no clue).")
        clue = pub["clue"] or {}
        left = clue.get("guesses", 1) - clue.get("made", 0)
        # The format is shown with a placeholder, not a board word, so that no word is suggested.
        return (f"The clue is [{clue.get('word')} {clue.get('number')}] and you have {left} "
                "guess(es) left this turn. Name one hidden board word: end your reply with it in "
                "square brackets, [word] with your word in place of 'word'. Or end your turn; "
                "for example [pass] stops guessing.")

    # -- reading the answer -------------------------------------------------------------------
    def extract(self, reply: str, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        """The last non-empty bracket group; the whole reply when there is none."""
        return last_bracket_group(reply)

    def check(self, action: str, view: Mapping[str, Any], legal: Mapping[str, Any]
              ) -> Verdict | None:
        pub = view["public"]
        if self.phase(view, legal) == "clue":
            parsed = syntax.parse_clue(action, example_clue())
            if isinstance(parsed, syntax.ParseError):
                return Verdict("unparseable" if parsed.kind == "format" else "illegal",
                               parsed.message)
            if parsed is PASS or not isinstance(parsed, Clue):
                return None
            conflict = clue_conflict(parsed.word, pub["words"])
            if conflict is not None:
                return Verdict("illegal", f"{illegal_reason(parsed.word, conflict)}, and such a "
                                          "clue loses the game", syntax.clue_text(parsed))
            if parsed.number > pub["max_clue_number"]:
                return Verdict("illegal", f"the number must be between 0 and "
                                          f"{pub['max_clue_number']}", syntax.clue_text(parsed))
            return None
        guess = syntax.parse_guess(action)
        if isinstance(guess, syntax.ParseError):
            return Verdict("unparseable", guess.message)
        if guess is PASS:
            return None
        hidden = {w for w, shown in zip(pub["words"], pub["revealed"], strict=True)
                  if shown is None}
        word = getattr(guess, "word", "")
        if word not in hidden:
            where = "is already revealed" if word in pub["words"] else "is not on the board"
            return Verdict("illegal", f"'{word}' {where}; name a hidden board word", f"[{word}]")
        return None
