"""A Colonel Blotto view as the text an LLM (or a transcript pane) reads.

It carries what the reference game tells a commander — who you are, the rules in brief, the answer
format, the round, rounds won, fields and units — plus the resolved rounds so far and, when the
last answer was rejected, why and what is at stake. Rendering runs for every decision, so the
rules text is built once per seat and config and the resolved rounds' text grows round by round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.colonel_blotto.syntax import format_allocation
from engine.describe import Namer, describe_generic, short
from engine.textcache import GrowingText, PerPart

_RULES: PerPart[str] = PerPart()
_LINES: PerPart[tuple[str, dict[Any, str]]] = PerPart()
_HISTORY = GrowingText()


def render(view: Mapping[str, Any]) -> str:
    pub, seat = view["public"], view["seat"]
    names, score, number = pub["commanders"], pub["score"], pub["round"]
    fields = pub["fields"]
    rules = _RULES.get(fields, seat) or _RULES.put(fields, seat, _rules(pub, seat))
    history = pub["history"]
    rounds = ("\n\nResolved rounds:\n" + _earlier(history) + _HISTORY.text(history, _round_line, pub)
              if history else "")
    return (f"{rules}\n\n=== Colonel Blotto: round {number} of {pub['rounds']} ===\n"
            f"Rounds won: {names[0]} {score[0]}, {names[1]} {score[1]}{rounds}\n\n"
            f"{_status(pub, view['private'], seat, names)}")


def _earlier(history: list[dict[str, Any]]) -> str:
    """A note when the view's window starts after round 1 (long games keep the latest rounds)."""
    first = history[0]["round"]
    return f"(rounds 1-{first - 1} are not shown)\n" if first > 1 else ""


def _rules(pub: Mapping[str, Any], seat: int | None) -> str:
    """Who you are, the rules, the answer format: the same for every view of a seat."""
    names, fields, units = pub["commanders"], ", ".join(pub["fields"]), pub["units"]
    how = "exactly" if pub["exact_units"] else "up to"
    if seat is None:
        who = f"You are watching Colonel Blotto: {names[0]} against {names[1]}."
    else:
        who = f"You are {names[seat]} in Colonel Blotto, playing against {names[1 - seat]}."
    lines = [
        who,
        f"Each round both commanders secretly split {how} {units} units across the fields "
        f"{fields}. A field is taken by whoever sends more units to it (equal units: nobody "
        f"takes it), and the round goes to whoever takes more fields.",
        f"The game lasts {pub['rounds']} rounds and ends early once a commander has won "
        f"{pub['rounds_to_win']} rounds; whoever has won more rounds wins the game.",
    ]
    if seat is not None:
        lines.append(f"Answer with your allocation in square brackets, for example "
                     f"{pub['format']}; fields you leave out get 0 units.")
    lines += ["", f"Fields: {fields}", f"Units to allocate: {how} {units}",
              f"Format: {pub['format']}"]
    return "\n".join(lines)


def _round_line(entry: Mapping[str, Any], pub: Mapping[str, Any]) -> str:
    fields = pub["fields"]
    template, label = _LINES.get(fields, None) or _LINES.put(fields, None, _line_template(pub))
    first, second = entry["allocations"]
    winner, score = entry["winner"], entry["score"]
    return template.format(entry["round"], *map(first.__getitem__, fields),
                           *map(second.__getitem__, fields),
                           *map(label.__getitem__, entry["field_winners"]),
                           label["verdict", winner], score[0], score[1])


def _line_template(pub: Mapping[str, Any]) -> tuple[str, dict[Any, str]]:
    """A resolved round's line as a format string, made once per config (rounds resolve on every
    other move), with the words for field and round winners."""
    names, fields = pub["commanders"], pub["fields"]
    literal = [str(x).replace("{", "{{").replace("}", "}}") for x in (*names, *fields)]
    a, b, letters = literal[0], literal[1], literal[2:]

    def units(name: str) -> str:
        return f"{name} [" + " ".join(f"{f}{{}}" for f in letters) + "]"

    template = (f"Round {{}}: {units(a)} vs {units(b)}; fields: "
                + ", ".join(f"{f}: {{}}" for f in letters) + "; {}; rounds won {}-{}")
    label: dict[Any, str] = {0: names[0], 1: names[1], None: "tie",
                             ("verdict", 0): f"won by {names[0]}",
                             ("verdict", 1): f"won by {names[1]}",
                             ("verdict", None): "no winner (equal fields)"}
    return template, label


def _status(pub: Mapping[str, Any], me: Mapping[str, Any], seat: int | None,
            names: list[str]) -> str:
    if pub["over"]:
        return f"Game over: {pub['result']['reason']}."
    if seat is None:
        waiting = [names[s] for s, done in enumerate(pub["submitted"]) if not done]
        return f"Waiting for {' and '.join(waiting)} to allocate for round {pub['round']}."
    other = names[1 - seat]
    if me["submitted"]:
        mine = format_allocation(list(me["allocation"].values()), tuple(me["allocation"]))
        return f"Your allocation for round {pub['round']} is {mine}; waiting for {other}."
    move = (f"Your move: allocate your units for round {pub['round']} ({other} "
            f"{'has already allocated' if pub['submitted'][1 - seat] else 'is allocating too'}).")
    if not me["last_error"]:
        return move
    left = me["retries_left"]
    stake = ("another invalid answer in a row loses the game" if left == 0 else
             f"{left} more invalid answer{'s' if left > 1 else ''} in a row will still be "
             f"retried, then one more loses the game")
    return (f"Your last answer was rejected: {me['last_error']}. Please resubmit a valid "
            f"allocation; {stake}.\n{move}")


def describe_event(kind: str, data: Mapping[str, Any], name: Namer) -> str:
    """One transcript line for a Blotto event."""
    try:
        if kind == "allocation_submitted":
            return f"{name(data['seat'])} has allocated"
        if kind == "round_resolved":
            winner = data["winner"]
            outcome = "a tie" if winner is None else f"{name(winner)} wins the round"
            shown = "  vs  ".join(f"{name(i)} {short(a)}"
                                  for i, a in enumerate(data["allocations"]))
            return f"Round {data['round']}: {shown} → {outcome} " \
                   f"(score {'–'.join(map(str, data['score']))})"
    except (KeyError, TypeError, IndexError):
        pass
    return describe_generic(kind, data, name)
