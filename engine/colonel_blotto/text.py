"""A Colonel Blotto view as the text an LLM (or a transcript pane) reads.

It carries what the reference game tells a commander — who you are, the rules in brief, the answer
format, the round, rounds won, fields and units — plus the resolved rounds so far and, when the
last answer was rejected, why and what is at stake.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from engine.colonel_blotto.syntax import format_allocation
from engine.textcache import GrowingText


def render(view: Mapping[str, Any]) -> str:
    pub, me, seat = view["public"], view["private"], view["seat"]
    names = pub["commanders"]
    lines = [_introduction(pub, seat), ""]
    lines += _board(pub)
    if pub["history"]:
        lines.append("")
        lines.append("Resolved rounds:")
        lines.append(_history_text(pub))
    lines.append("")
    lines.append(_status(pub, me, seat, names))
    return "\n".join(lines)


_HISTORY = GrowingText()


def _history_text(pub: Mapping[str, Any]) -> str:
    """All resolved rounds shown, one line each (memoised per game as the history grows)."""
    return _HISTORY.text(pub["history"], lambda e: _round_line(e, pub))


def _introduction(pub: Mapping[str, Any], seat: int | None) -> str:
    return _introduction_text(seat, tuple(pub["commanders"]), tuple(pub["fields"]), pub["units"],
                              pub["exact_units"], pub["rounds"], pub["rounds_to_win"],
                              pub["format"])


@lru_cache(maxsize=256)  # the same for every view of a seat in a game: built once
def _introduction_text(seat: int | None, names: tuple[str, ...], field_names: tuple[str, ...],
                       units: int, exact: bool, rounds: int, to_win: int, example: str) -> str:
    fields = ", ".join(field_names)
    how = "exactly" if exact else "up to"
    if seat is None:
        who = f"You are watching Colonel Blotto: {names[0]} against {names[1]}."
    else:
        who = f"You are {names[seat]} in Colonel Blotto, playing against {names[1 - seat]}."
    lines = [
        who,
        f"Each round both commanders secretly split {how} {units} units across the fields "
        f"{fields}. A field is taken by whoever sends more units to it (equal units: nobody "
        f"takes it), and the round goes to whoever takes more fields.",
        f"The game lasts {rounds} rounds and ends early once a commander has won "
        f"{to_win} rounds; whoever has won more rounds wins the game.",
    ]
    if seat is not None:
        lines.append(f"Answer with your allocation in square brackets, for example "
                     f"{example}; fields you leave out get 0 units.")
    return "\n".join(lines)


def _board(pub: Mapping[str, Any]) -> list[str]:
    names, score = pub["commanders"], pub["score"]
    how = "exactly" if pub["exact_units"] else "up to"
    return [
        f"=== Colonel Blotto: round {pub['round']} of {pub['rounds']} ===",
        f"Rounds won: {names[0]} {score[0]}, {names[1]} {score[1]}",
        f"Fields: {', '.join(pub['fields'])}",
        f"Units to allocate: {how} {pub['units']}",
        f"Format: {pub['format']}",
    ]


def _round_line(entry: Mapping[str, Any], pub: Mapping[str, Any]) -> str:
    names, fields = pub["commanders"], pub["fields"]
    shown = [format_allocation([a[f] for f in fields], tuple(fields)) for a in entry["allocations"]]
    taken = ", ".join(f"{f}: {'tie' if w is None else names[w]}"
                      for f, w in zip(fields, entry["field_winners"], strict=True))
    winner = entry["winner"]
    verdict = "no winner (equal fields)" if winner is None else f"won by {names[winner]}"
    score = entry["score"]
    return (f"Round {entry['round']}: {names[0]} {shown[0]} vs {names[1]} {shown[1]}; "
            f"fields: {taken}; {verdict}; rounds won {score[0]}-{score[1]}")


def _status(pub: Mapping[str, Any], me: Mapping[str, Any], seat: int | None,
            names: list[str]) -> str:
    if pub["over"]:
        return f"Game over: {pub['result']['reason']}."
    waiting = [names[s] for s, done in enumerate(pub["submitted"]) if not done]
    if seat is None:
        return f"Waiting for {' and '.join(waiting)} to allocate for round {pub['round']}."
    if me["submitted"]:
        mine = format_allocation(list(me["allocation"].values()), tuple(me["allocation"]))
        return (f"Your allocation for round {pub['round']} is {mine}; "
                f"waiting for {names[1 - seat]}.")
    lines = []
    if me["last_error"]:
        left = me["retries_left"]
        stake = ("another invalid answer in a row loses the game" if left == 0 else
                 f"{left} more invalid answer{'s' if left > 1 else ''} in a row will still be "
                 f"retried, then one more loses the game")
        lines.append(f"Your last answer was rejected: {me['last_error']}. "
                     f"Please resubmit a valid allocation; {stake}.")
    other = "has already allocated" if pub["submitted"][1 - seat] else "is allocating too"
    lines.append(f"Your move: allocate your units for round {pub['round']} "
                 f"({names[1 - seat]} {other}).")
    return "\n".join(lines)
