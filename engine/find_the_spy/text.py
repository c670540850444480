"""Find the Spy in words: a seat's view as text (bots' prompts, the generic widget) and each
event for the log. A seat's own word appears only in its own view's text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.describe import Naming, describe_generic


def _player(seat: int) -> str:
    return f"Player {seat + 1}"


def _named(player: int | None) -> str:
    return f"Player {player}" if player else "nobody"


def render(view: Mapping[str, Any]) -> str:
    pub = view["public"]
    seat = view.get("seat")
    mine = view.get("private") or {}
    n = len(pub["players"])
    lines = [f"Find the Spy: {n} players. {n - 1} of them share one word; the spy has a "
             f"different, related word. Nobody is told whether they are the spy."]
    if pub.get("passive"):
        lines.append("The descriptions below come from a recorded game; you play its Player 1 "
                     "and only have to name the spy.")
    if isinstance(seat, int):
        lines.append(f'You are {_player(seat)}. Your word is "{mine.get("word")}".')
    else:
        lines.append("You are watching.")
    lines.append(f"Round {pub['round']} of {pub['rounds']}; phase: {pub['phase']}.")
    for r in range(1, pub["round"] + 1):
        said = [d for d in pub["descriptions"] if d["round"] == r]
        if said:
            lines.append(f"Round {r} descriptions:")
            lines += [f"  {_player(d['seat'])}: {d['text']}" for d in said]
    if pub["phase"] == "vote":
        lines.append(f"Voted so far: {', '.join(_player(s) for s in pub['voted']) or 'nobody'}.")
    if isinstance(seat, int) and mine.get("voted"):
        lines.append(f"You named {_named(mine.get('my_vote'))} as the spy.")
    if pub.get("over"):
        votes = pub.get("votes") or {}
        lines.append("Votes: " + "; ".join(f"{_player(int(s))} named {_named(p)}"
                                           for s, p in votes.items()))
        setup = pub.get("setup") or {}
        if setup:
            lines.append(f"The spy was Player {setup['spy_player']}, with "
                         f"\"{setup['spy_word']}\"; the others had \"{setup['civilian_word']}\".")
        lines.append(f"Game over: {pub['result']['reason']}.")
    return "\n".join(lines)


def describe_event(type_: str, data: Mapping[str, Any], name: Naming) -> str:
    if type_ == "game_started":
        return f"Find the Spy: {data['players']} players, {data['rounds']} rounds."
    if type_ == "word_dealt":
        return f'{name(data["seat"])}, your word is "{data["word"]}".'
    if type_ == "description":
        return f"{name(data['seat'])}: {data['text']}"
    if type_ == "voting_started":
        return "Descriptions are over: everyone names the spy now (votes stay secret until all " \
               "are in)."
    if type_ == "vote":
        who = f"Player {data['player']}" if data["player"] else None
        named = name(data["player"] - 1) if who else "nobody"
        return f"{name(data['seat'])}, you named {named} as the spy."
    if type_ == "vote_cast":
        return f"{name(data['seat'])} has voted."
    if type_ == "votes_revealed":
        votes = "; ".join(f"{name(int(s))} named {name(p - 1) if p else 'nobody'}"
                          for s, p in data["votes"].items())
        return f"Votes: {votes}. The spy was {name(data['spy'])}."
    if type_ == "setup_revealed":
        return (f"The spy was {name(data['spy'])} with \"{data['spy_word']}\"; the others had "
                f"\"{data['civilian_word']}\".")
    return describe_generic(type_, data, name)
