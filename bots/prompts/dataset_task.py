"""Prompts for SocialMaze's dataset tasks (rating-estimation, review-decision, user-profile), in
our words: the task's rules (its kit's text), that a multi-stage instance asks again after each
stage, and the paper's answer format. The reply is scored as written (the last match of each
answer field), so nothing is re-asked: a reply without an answer is a wrong answer, as in the
paper."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.prompts.base import AnswerPrompts


class DatasetTaskPrompts(AnswerPrompts):
    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        task = self.env.task  # type: ignore[attr-defined]
        stages = view["public"]["stages"]
        lines = [f"You are solving a social reasoning task: {task.title}.", task.rules]
        if stages > 1:
            lines.append(f"The information comes in {stages} stages. After each stage you give "
                         "your prediction from what you have seen so far; every prediction is "
                         "scored, and you are not told whether it was right.")
        lines.append("You may reason step by step first. Only the last answer in the format "
                     "asked for counts, so write it once, at the end.")
        return "\n".join(lines)

    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        task = self.env.task  # type: ignore[attr-defined]
        return f"{legal.get('prompt', '')}\n{task.instructions()}"
