"""Prompts for the three-player iterated Prisoner's Dilemma. Each round has a chat turn (the
reply is the public message) and a decision turn (the reply's `[<id> cooperate|defect]` tokens,
read by the engine: the last token per opponent counts, a missing one means cooperate — so no
decision is ever invalid and none is re-asked). The per-turn text is the engine's render of the
view, which carries the chat and the round results the paper's agents see."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.prompts.base import PromptBuilder, Verdict


class IPDPrompts(PromptBuilder):
    history_unit = "rounds"

    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        seat = view["seat"]
        others = [s for s in range(3) if s != seat]
        pub = view["public"]
        pay = pub["payoffs"]
        return "\n".join([
            f"You are Player {seat} in a repeated Prisoner's Dilemma with three players "
            f"(Players {others[0]} and {others[1]} are your opponents). The game lasts "
            f"{pub['rounds']} rounds.",
            "Every round has two parts. First each player may send messages that everybody "
            "reads. Then each player privately chooses, separately for each opponent, to "
            "cooperate or to defect; choices are revealed when the round ends.",
            f"Points are scored pair by pair each round: both cooperate, {pay['R']} points each; "
            f"both defect, {pay['P']} point(s) each; if one defects while the other cooperates, "
            f"the defector gets {pay['T']} and the cooperator {pay['S']}. Your aim is the highest "
            "total score at the end.",
            "On a chat turn, your whole reply is your public message: write only what you want "
            "the others to read. On a decision turn, state one choice per opponent in square "
            f"brackets, e.g. [{others[0]} cooperate] [{others[1]} defect]; if you give several "
            "for one opponent the last counts, and an opponent you leave out gets cooperate.",
        ])

    def phase(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return "chat" if legal.get("kind") == "text" else "decide"

    def history_length(self, view: Mapping[str, Any]) -> int:
        return len(view["public"]["history"])

    def render(self, view: Mapping[str, Any], keep: int) -> str:
        pub = view["public"]
        history = pub["history"]
        if keep >= len(history):
            return self.env.render(view)
        kept = history[len(history) - keep:]
        first = kept[0]["round"] if kept else pub["round"]
        public = {**pub, "history": kept,
                  "chat": [m for m in pub["chat"] if m["round"] >= first]}
        return self.env.render({**view, "public": public})

    def summarize(self, view: Mapping[str, Any], cut: int) -> str:
        """What the cut rounds said about each opponent: how often they cooperated with us."""
        me = view["seat"]
        cut_rounds = view["public"]["history"][:cut]
        lines = [f"Summary of rounds 1-{cut} (their chat is left out):"]
        for opp in (s for s in range(3) if s != me):
            theirs = sum(h["decisions"][str(opp)][str(me)] == "cooperate" for h in cut_rounds)
            mine = sum(h["decisions"][str(me)][str(opp)] == "cooperate" for h in cut_rounds)
            lines.append(f"  Player {opp} cooperated with you in {theirs} of {cut} rounds; you "
                         f"cooperated with them in {mine}.")
        if cut_rounds:
            scores = "; ".join(f"Player {s} {v}" for s, v in enumerate(cut_rounds[-1]["scores"]))
            lines.append(f"  Scores after round {cut}: {scores}.")
        return "\n".join(lines)

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
