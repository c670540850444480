"""Prompts for Hidden Role Deduction, in our words: the setup, the four roles and how each
speaks, that only Investigators are always truthful, who the bot is told it is, and the paper's
answer lines. The reply is scored as written (the last "Final Criminal Is Player N." and "My
Role Is R" in it), so nothing is re-asked: a reply without them is a wrong answer, as in the
paper."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.prompts.base import AnswerPrompts
from engine.hidden_role.rules import ANSWER_SYNTAX


class HiddenRolePrompts(AnswerPrompts):
    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        pub = view["public"]
        return "\n".join([
            f"You are solving a deduction puzzle with {pub['players']} players, numbered 1 to "
            f"{pub['players']}. The roles in play are: {pub['composition_text']}.",
            f"The game lasts {pub['rounds']} rounds. In every round each player makes exactly "
            "one public statement about one other player: either that this player is the "
            "criminal, or that this player is not the criminal. You receive the statements "
            "one round at a time.",
            "How the roles behave:",
            "- An Investigator knows who the criminal is and always tells the truth.",
            "- The Criminal knows it is the criminal and speaks to mislead.",
            "- A Rumormonger believes it is an Investigator, but its statements are true or "
            "false at random.",
            "- A Lunatic believes it is the Criminal and speaks like one, to mislead.",
            "Only Investigators are reliably truthful; everyone else may say anything.",
            f"You are Player 1 and you have been told you are the {pub['told']}. Your own "
            "statements are in the list too; remember that what you were told may not be your "
            "true role.",
            "After every round, give your best answer so far in exactly these two lines:",
            "Final Criminal Is Player N.",
            "My Role Is R",
            "where N is a player's number and R is Investigator, Criminal, Rumormonger, "
            "Lunatic or Unknown. Only the last such lines of your reply count.",
        ])

    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return (f"{legal.get('prompt', '')} You may reason first; end your reply with the two "
                f"answer lines, e.g.\n{ANSWER_SYNTAX.replace('. ', '.' + chr(10))}")
