"""Prompts for the three-player iterated Prisoner's Dilemma. Each round has a chat turn (the
reply is the public message) and a decision turn (the reply's `[<id> cooperate|defect]` tokens,
read by the engine: the last token per opponent counts, a missing one means cooperate — so no
decision is ever invalid and none is re-asked). The per-turn text is the engine's render of the
view, which carries the chat and the round results the paper's agents see."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.prompts.base import PromptBuilder, Verdict

HISTORY_KEYS = ("history", "rounds_played", "results")


class IPDPrompts(PromptBuilder):
    history_unit = "rounds"

    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        seat = view["seat"]
        others = [s for s in range(3) if s != seat]
        pub = view.get("public", {})
        rounds = pub.get("rounds") or pub.get("num_rounds")
        length = f"{rounds} rounds" if isinstance(rounds, int) else "several rounds"
        return "\n".join([
            f"You are Player {seat} in a repeated Prisoner's Dilemma with three players "
            f"(Players {others[0]} and {others[1]} are your opponents). The game lasts {length}.",
            "Every round has two parts. First each player may send one message that everybody "
            "reads. Then each player privately chooses, separately for each opponent, to "
            "cooperate or to defect; choices are revealed when the round ends.",
            "Points are scored pair by pair each round: both cooperate, 3 points each; both "
            "defect, 1 point each; if one defects while the other cooperates, the defector gets "
            "5 and the cooperator 0. Your aim is the highest total score at the end.",
            "On a chat turn, your whole reply is your public message: write only what you want "
            "the others to read. On a decision turn, state one choice per opponent in square "
            f"brackets, e.g. [{others[0]} cooperate] [{others[1]} defect]; if you give several "
            "for one opponent the last counts, and an opponent you leave out gets cooperate.",
        ])

    def phase(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return "chat" if legal.get("kind") == "text" else "decide"

    def _history(self, view: Mapping[str, Any]) -> tuple[str | None, list[Any]]:
        pub = view.get("public", {})
        for key in HISTORY_KEYS:
            if isinstance(pub.get(key), list):
                return key, pub[key]
        return None, []

    def history_length(self, view: Mapping[str, Any]) -> int:
        return len(self._history(view)[1])

    def render(self, view: Mapping[str, Any], keep: int) -> str:
        key, history = self._history(view)
        if key is None or keep >= len(history):
            return self.env.render(view)
        public = {**view["public"], key: history[len(history) - keep:]}
        return self.env.render({**view, "public": public})

    def summarize(self, view: Mapping[str, Any], cut: int) -> str:
        return (f"Rounds 1-{cut} are left out; the scores shown below include them. Remember "
                f"how the others treated you then only from what follows.")

    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        if self.phase(view, legal) == "chat":
            limit = legal.get("max_chars")
            size = f" (at most {limit} characters)" if limit else ""
            return f"Chat turn: write your public message to the other players{size}."
        example = legal.get("syntax") or "[1 cooperate] [2 defect]"
        return (f"Decision turn: {legal.get('prompt', '')} End your reply with one choice per "
                f"opponent in square brackets, for example {example}.")

    def check(self, action: str, view: Mapping[str, Any], legal: Mapping[str, Any]
              ) -> Verdict | None:
        if self.phase(view, legal) == "decide":
            return None  # the engine reads any text (missing choices mean cooperate)
        return super().check(action, view, legal)
