"""Prompts for Find the Spy, in our own words. Two kinds of turn:

- description: the whole reply (reasoning blocks dropped; after a `Description:` label when
  the model wrote one) is the seat's one-sentence description. The check is the engine's own
  leak check, so a reply that says the word is re-asked before it costs the seat its retry;
- vote: the reply ends with the paper's answer line, `Final Answer: Player X`, read by the last
  match as the engine reads it. A reply that names nobody is an answer, scored wrong, as in the
  paper, so it is not re-asked; one naming a player who is not at the table is.

The system prompt gives the rules, the seat's number and its word, and the point the paper's
task turns on: nobody is told whether they are the spy, so a seat whose word fits the others'
descriptions worse than theirs fit each other should name itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bots.prompts.base import PromptBuilder, Verdict, strip_reasoning
from engine.find_the_spy.syntax import ANSWER_SYNTAX, parse_vote
from engine.wording import says

_LABEL = re.compile(r"description\s*:\s*", re.IGNORECASE)


class FindTheSpyPrompts(PromptBuilder):
    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        pub = view["public"]
        n = len(pub["players"])
        me = view["seat"] + 1
        word = (view.get("private") or {}).get("word", "")
        return "\n".join([
            f"You are playing Find the Spy, a word game for {n} players numbered 1 to {n}.",
            f"Each player holds a secret word. {n - 1} players share the same word; one "
            "player, the spy, holds a different word that is closely related to it. No one is "
            "told whether they are the spy: you know only your own word, and it may be the "
            "odd one out.",
            ("The game was recorded earlier: you read every player's descriptions and only "
             "name the spy. " if pub.get("passive") else "") +
            f"For {pub['rounds']} rounds, every player in turn describes their word in one "
            "sentence. A description must not contain the player's own word, not even inside "
            "a longer word or as a plural; such a description is refused. Try a different "
            "angle each round, and do not be so precise that your word is given away.",
            "After the last round everyone names the spy at the same time. If the other "
            "descriptions seem to share a word that is not yours, the spy is you: name "
            "yourself. You score when you name the actual spy.",
            f'You are Player {me}. Your word is "{word}".',
        ])

    def phase(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return "describe" if legal.get("kind") == "text" else "vote"

    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        if legal.get("kind") == "text":
            return (f"{legal.get('prompt', '')} Reply with the sentence only, under "
                    f"{legal.get('max_chars', 200)} characters.")
        return (f"{legal.get('prompt', '')} You may reason briefly first. End your reply with "
                f"one line in exactly this form, where X is the player's number:\n"
                f"Final Answer: Player X\n(for instance: {ANSWER_SYNTAX})")

    def extract(self, reply: str, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        text = strip_reasoning(reply)
        if legal.get("kind") == "text":
            labels = list(_LABEL.finditer(text))
            if labels:
                text = text[labels[-1].end():]
            return " ".join(text.split()).strip("\"'")
        return text

    def check(self, action: str, view: Mapping[str, Any], legal: Mapping[str, Any]
              ) -> Verdict | None:
        if legal.get("kind") == "text":
            limit = legal.get("max_chars")
            if limit and len(action) > limit:
                return Verdict("illegal", f"the description has {len(action)} characters, more "
                                          f"than the limit of {limit}")
            found = says(action, (view.get("private") or {}).get("word", ""))
            if found:
                return Verdict("illegal", f'the description contains your word ("{found}"); '
                                          f"describe it without saying it")
            return None
        player = parse_vote(action).player
        players = len(view["public"]["players"])
        if player is not None and not 1 <= player <= players:
            return Verdict("illegal", f"there is no Player {player}; name one of Player 1 to "
                                      f"Player {players}", read_as=f"Player {player}")
        return None  # naming nobody is an answer, scored wrong
