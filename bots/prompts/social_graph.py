"""Prompts for Social Graph Analysis, in our words: the rules of good and bad terms and of
groups (the kit's rules text), that the questions come one at a time about the same people, and
the paper's answer format for the question asked now. The reply is scored as written (its last
`Final Answer:` line), so nothing is re-asked: a reply without one is a wrong answer, as in the
paper."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.prompts.base import AnswerPrompts
from engine.social_graph.queries import Kind, answer_instructions
from engine.social_graph.text import RULES


class SocialGraphPrompts(AnswerPrompts):
    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        pub = view["public"]
        return "\n".join([
            "You are solving a logic puzzle about how some people get along.",
            RULES,
            f"You will be asked {pub['questions']} question{'s' if pub['questions'] > 1 else ''}"
            " about the same people, one at a time. Each reply of yours is taken as your final "
            "answer to the question asked then; you are not told whether it was right.",
            "You may reason step by step first. Only the last line that starts with "
            "`Final Answer:` counts, so write exactly one, at the end, in the format asked for.",
        ])

    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        kind = Kind(view["public"]["question"]["kind"])
        return f"{legal.get('prompt', '')}\n{answer_instructions(kind)}"
