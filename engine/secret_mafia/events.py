"""Secret Mafia's transcript lines: one line per event as a seat (or a spectator) reads it,
every seat named by the table's namer (the conformance suite checks that no line names a seat
otherwise)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.describe import Namer, describe_or_generic


def _names(seats: Sequence[int], name: Namer) -> str:
    return ", ".join(name(s) for s in seats)


def describe_event(kind: str, data: Mapping[str, Any], name: Namer) -> str:
    """One transcript line; every seat named by `name`."""
    return describe_or_generic(_describe, kind, data, name)


def _describe(kind: str, d: Mapping[str, Any], name: Namer) -> str | None:
    def who(seat: int | None, nobody: str = "nobody") -> str:
        return nobody if seat is None else name(seat)

    def role(seat: int) -> str:
        found = (d.get("roles") or {}).get(str(seat))
        return f" ({found})" if found else ""
    if kind == "game_started":
        c = d["composition"]
        return (f"Secret Mafia: {c['mafia']} Mafia, {c['doctor']} Doctor, {c['detective']} "
                f"Detective, {c['villager']} Villagers")
    if kind == "role_assigned":
        mates = d.get("teammates")
        extra = f"; your fellow Mafia: {_names(mates, name)}" if mates else ""
        return f"Your role: {d['role']}{extra}"
    if kind == "night_started":
        return f"── Night {d['day']} ──"
    if kind == "mafia_vote":
        note = f" — {d['note']}" if d.get("note") else ""
        return f"{name(d['seat'])} votes to kill {who(d['target'])}{note}"
    if kind == "mafia_target":
        tie = f" (a tie between {_names(d['tied'], name)}, drawn by lot)" if d["tied"] else ""
        return f"The Mafia's victim tonight: {who(d['target'])}{tie}"
    if kind == "protected":
        return f"You protect {who(d['target'])} tonight"
    if kind == "investigated":
        if d["target"] is None:
            return "You investigate nobody tonight"
        verdict = "IS" if d["mafia"] else "is NOT"
        return f"Investigation: {name(d['target'])} {verdict} a Mafia member"
    if kind == "night_resolved":
        saved = " (saved by the Doctor)" if d["saved"] else ""
        return f"Night {d['day']}: target {who(d['target'])}, protected " \
               f"{who(d['protected'])}{saved}"
    if kind == "dawn":
        line = f"Dawn: {name(d['killed'])}{role(d['killed'])} was killed in the night" \
            if d["killed"] is not None else "Dawn: nobody was killed in the night"
        if d["overnight"]:
            line += "; out for invalid moves: " + ", ".join(
                name(s) + role(s) for s in d["overnight"])
        return line
    if kind == "day_started":
        return f"── Day {d['day']} ── speaking order: {_names(d['order'], name)}"
    if kind == "discussion_round":
        return f"Discussion round {d['round']} of {d['rounds']}"
    if kind == "chat":
        return f"{name(d['seat'])}: {d['text']}" if d["text"] else f"{name(d['seat'])} says " \
                                                                    "nothing"
    if kind == "voting_started":
        return f"Voting, in this order: {_names(d['order'], name)}"
    if kind == "vote":
        return f"{name(d['seat'])} votes for {who(d['target'], 'nobody (no vote)')}"
    if kind == "vote_result":
        if d["eliminated"] is None:
            return "Nobody is eliminated"
        tie = f" after a tie between {_names(d['tied'], name)}, drawn by lot" if d["tied"] \
            else ""
        return f"{name(d['eliminated'])}{role(d['eliminated'])} is eliminated by the vote{tie}"
    if kind == "left_overnight":
        return f"Out for invalid moves tonight: {_names(d['seats'], name)}"
    if kind == "role_revealed":
        return f"{name(d['seat'])} was the {d['role']}"
    return None
