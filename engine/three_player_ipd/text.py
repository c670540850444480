"""The observation text of a three-player IPD view: what an LLM (or the transcript pane) reads.

It carries what the reference game tells a player: who you are, the payoff matrix, the round and
turn, the chat so far, the decision format, each round's pairwise choices and gains, the scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.textcache import LineCache

_ROUND_TEXT = LineCache()


def _rules(pub: Mapping[str, Any], seat: int | None) -> list[str]:
    p = pub["payoffs"]
    who = f"You are Player {seat}" if seat is not None else "You are watching"
    return [
        f"{who} in a three-player Iterated Prisoner's Dilemma lasting {pub['rounds']} rounds.",
        f"Each round: {pub['communication_turns']} chat turn(s) per player (Players 0, 1, 2 in "
        "order, seen by all), then one decision turn: one token per opponent, "
        "'[<opponent-id> cooperate]' or '[<opponent-id> defect]' (e.g. '[1 defect] [2 cooperate]'); "
        "an opponent you name no choice for gets cooperate.",
        "Payoffs for each pair of players, every round:",
        f"  both cooperate -> {p['R']} each; both defect -> {p['P']} each;",
        f"  you defect while they cooperate -> you {p['T']}, they {p['S']}.",
        "The highest total score at the end wins.",
    ]


def _round_lines(entry: Mapping[str, Any]) -> list[str]:
    lines = [f"Round {entry['round']} results:"]
    for pair in entry["pairs"]:
        a, b = pair["players"]
        ca, cb = pair["choices"]
        ga, gb = pair["gains"]
        lines.append(f"  Player {a} vs Player {b}: {ca} / {cb} "
                     f"(Player {a} +{ga}, Player {b} +{gb})")
    scores = "; ".join(f"Player {s} {v}" for s, v in enumerate(entry["scores"]))
    lines.append(f"  Scores: {scores}")
    return lines


def _round_block(entry: Mapping[str, Any] | None, chat: list[Mapping[str, Any]], rounds: int,
                 number: int | None = None) -> str:
    """A round's chat and, once resolved, its results."""
    lines = ["", f"--- Round {entry['round'] if entry else number} of {rounds} ---"]
    lines += [f"[Player {m['seat']}] {m['text'] or '(said nothing)'}" for m in chat]
    if entry is not None:
        lines += _round_lines(entry)
    return "\n".join(lines)


def render(view: Mapping[str, Any]) -> str:
    pub, priv, seat = view["public"], view["private"], view["seat"]
    lines = _rules(pub, seat)
    chat_by_round: dict[int, list[Mapping[str, Any]]] = {}
    for msg in pub["chat"]:
        chat_by_round.setdefault(msg["round"], []).append(msg)
    for entry in pub["history"]:  # finished rounds never change: their text is memoised
        lines.append(_ROUND_TEXT.get(entry, lambda e=entry: _round_block(
            e, chat_by_round.get(e["round"], []), pub["rounds"])))
    if not pub["over"]:
        lines.append(_round_block(None, chat_by_round.get(pub["round"], []), pub["rounds"],
                                  pub["round"]))
    lines.append("")
    if pub["over"]:
        result = pub["result"]
        lines.append(f"Game over: {result['reason']}.")
        if seat is not None:
            lines.append(f"Your reward: {result['rewards'][str(seat)]:+g}")
    elif pub["phase"] == "chat":
        if seat is not None and pub["speaker"] == seat:
            lines.append(f"Your turn to chat (round {pub['round']}, chat turn "
                         f"{pub['chat_turn'] + 1} of {pub['communication_turns']}): write one "
                         "message to the other players.")
        else:
            lines.append(f"Waiting for Player {pub['speaker']} to chat.")
    else:
        mine = priv.get("decisions") if priv else None
        if seat is None:
            lines.append(f"Decision turn of round {pub['round']}.")
        elif mine is not None:
            chosen = " ".join(f"[{o} {c}]" for o, c in mine.items())
            lines.append(f"You decided {chosen}; waiting for the others.")
        else:
            opp = priv["opponents"]
            lines.append(f"Your decision turn (round {pub['round']}): submit one token per "
                         f"opponent, e.g. [{opp[0]} cooperate] [{opp[1]} defect].")
    lines.append("Scores: " + "; ".join(f"Player {s} {v}" for s, v in enumerate(pub["scores"])))
    return "\n".join(lines)
