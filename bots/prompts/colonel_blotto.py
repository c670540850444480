"""Prompts for Colonel Blotto. The per-turn text is the engine's render of the view (board,
resolved rounds, status); long games cut the oldest resolved rounds and summarise them. Answers
are checked with the engine's own parser and unit-budget rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.prompts.base import PromptBuilder, Verdict, last_bracket_group
from engine.colonel_blotto import syntax
from engine.colonel_blotto.rules import budget_problem


class BlottoPrompts(PromptBuilder):
    history_unit = "rounds"
    cut_public_history = True

    def system(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        pub, seat = view["public"], view["seat"]
        me, them = pub["commanders"][seat], pub["commanders"][1 - seat]
        fields = ", ".join(pub["fields"])
        how = "exactly" if pub["exact_units"] else "at most"
        return "\n".join([
            f"You are {me}, one of two commanders in a game of Colonel Blotto against {them}.",
            f"Every round, you and {them} each divide {how} {pub['units']} units among the "
            f"battlefields {fields} without seeing the other's split. Whoever puts more units on "
            f"a battlefield takes it; equal units mean nobody takes it. Taking more battlefields "
            f"than your opponent wins the round.",
            f"The game runs for {pub['rounds']} rounds and stops early when someone reaches "
            f"{pub['rounds_to_win']} round wins. More round wins at the end wins the game.",
            "Every allocation must be written as field letters with unit counts inside square "
            f"brackets, such as {pub['format']}. A field you leave out gets 0 units. An answer "
            "that cannot be read, or that uses more units than allowed, is an invalid move: "
            "one is forgiven with a chance to answer again, but two in a row lose the game.",
            "You may reason briefly before answering, but your reply must end with your "
            "allocation in square brackets; only the last bracketed allocation counts.",
        ])

    def phase(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return "allocate"

    def summarize(self, view: Mapping[str, Any], cut: int) -> str:
        pub, seat = view["public"], view["seat"]
        rounds = pub["history"][:cut]
        if not rounds:
            return ""
        names, fields = pub["commanders"], pub["fields"]
        wins = [sum(1 for r in rounds if r["winner"] == s) for s in (0, 1)]
        ties = len(rounds) - sum(wins)

        def average(s: int) -> str:
            split = [sum(r["allocations"][s][f] for r in rounds) / len(rounds) for f in fields]
            return " ".join(f"{f}{u:.1f}" for f, u in zip(fields, split, strict=True))

        first, last = rounds[0]["round"], rounds[-1]["round"]
        return (f"Rounds {first}-{last}: you ({names[seat]}) won {wins[seat]}, "
                f"{names[1 - seat]} won {wins[1 - seat]}, {ties} had no winner. Average "
                f"allocation in those rounds: you {average(seat)}; "
                f"{names[1 - seat]} {average(1 - seat)}.")

    def instruction(self, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        return (f"{legal.get('prompt', '')} End your reply with your allocation in square "
                f"brackets, for example {legal.get('syntax') or view['public']['format']}.")

    def extract(self, reply: str, view: Mapping[str, Any], legal: Mapping[str, Any]) -> str:
        """The last non-empty bracketed group (the answer's final allocation); the whole reply
        when there is none, so the engine judges exactly what the model wrote."""
        return last_bracket_group(reply)

    def check(self, action: str, view: Mapping[str, Any], legal: Mapping[str, Any]
              ) -> Verdict | None:
        pub = view["public"]
        names = tuple(pub["fields"])
        parsed = syntax.parse_text(action, names, pub["format"])
        if isinstance(parsed, syntax.ParseError):
            kind = "unparseable" if parsed.category == "format" else "illegal"
            return Verdict(kind, parsed.message)
        problem = budget_problem(parsed, pub["units"], pub["exact_units"])
        if problem is not None:
            return Verdict("illegal", problem, syntax.format_allocation(parsed.units, names))
        return None
