"""The observation text of a three-player IPD view: what an LLM (or the transcript pane) reads.

It carries what the reference game tells a player: who you are, the payoff matrix, the round and
turn, the chat so far, the decision format, each round's pairwise choices and gains, the scores.
Rendering runs for every decision of every seat, so the parts that do not change are built once:
the rules text per (seat, config), and the text of the resolved rounds, extended round by round.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from engine.describe import Namer, describe_generic
from engine.textcache import GrowingText, PerPart

_ROUND = itemgetter("round")
_REWARD_TEXT = {
    "rank": "The highest total score at the end wins (+1), the lowest loses (-1), a total in "
            "between gets 0; equal totals share a place, and if all three are equal nobody wins.",
    "paper": "The highest total score at the end wins (+1; equal top totals all win); everyone "
             "else gets -1, and if all three are equal nobody wins.",
}


def _preamble(pub: Mapping[str, Any], seat: int | None) -> str:
    """Who you are and the rules: the same for every view of a seat."""
    pay, turns = pub["payoffs"], pub["communication_turns"]
    r, t, s, p = pay["R"], pay["T"], pay["S"], pay["P"]
    who = f"You are Player {seat}" if seat is not None else "You are watching"
    return "\n".join([
        f"{who} in a three-player Iterated Prisoner's Dilemma lasting {pub['rounds']} rounds.",
        f"Each round: {turns} chat turn(s) per player (Players 0, 1, 2 in order, seen by all), "
        "then one decision turn: one token per opponent, '[<opponent-id> cooperate]' or "
        "'[<opponent-id> defect]' (e.g. '[1 defect] [2 cooperate]'); an opponent you name no "
        "choice for gets cooperate.",
        "Payoffs for each pair of players, every round:",
        f"  both cooperate -> {r} each; both defect -> {p} each;",
        f"  you defect while they cooperate -> you {t}, they {s}.",
        _REWARD_TEXT.get(pub["reward_rule"], _REWARD_TEXT["rank"]),
    ])


def _chat_lines(chat: Sequence[Mapping[str, Any]]) -> str:
    """Each message on its own line, every line starting with a newline."""
    return "".join([f"\n[Player {m['seat']}] {m['text'] or '(said nothing)'}" for m in chat])


def _chat_of(chat: Sequence[Mapping[str, Any]], number: int) -> Sequence[Mapping[str, Any]]:
    """The messages of round `number` (the log is in round order)."""
    start = bisect_left(chat, number, key=_ROUND)
    end = bisect_left(chat, number + 1, lo=start, key=_ROUND)
    return chat[start:end]


def _latest_chat(chat: Sequence[Mapping[str, Any]], number: int) -> Sequence[Mapping[str, Any]]:
    """The messages of round `number` when it is the latest round in the log (the usual case:
    the round being played), found from the end."""
    start = len(chat)
    while start and chat[start - 1]["round"] == number:
        start -= 1
    return chat[start:]


# A resolved round: its chat, each pair's choices and gains, the scores after it. Values go in as
# format arguments, so braces in chat stay literal.
_PAIR = "\n  Player {{{0}}} vs Player {{{1}}}: {{{2}}} / {{{3}}} (Player {{{0}}} +{{{4}}}, " \
        "Player {{{1}}} +{{{5}}})"
_BLOCK = ("\n--- Round {0} of {1} ---{2}\nRound {0} results:"
          + "".join(_PAIR.format(*range(3 + 6 * k, 9 + 6 * k)) for k in range(3))
          + "\n  Scores: Player 0 {21}; Player 1 {22}; Player 2 {23}")


def _round_block(entry: Mapping[str, Any], pub: Mapping[str, Any]) -> str:
    number = entry["round"]
    p0, p1, p2 = entry["pairs"]
    return _BLOCK.format(number, pub["rounds"], _chat_lines(_chat_of(pub["chat"], number)),
                         *p0["players"], *p0["choices"], *p0["gains"],
                         *p1["players"], *p1["choices"], *p1["gains"],
                         *p2["players"], *p2["choices"], *p2["gains"], *entry["scores"])


_PREAMBLE: PerPart[str] = PerPart()
_HISTORY = GrowingText()


def render(view: Mapping[str, Any]) -> str:
    pub, seat = view["public"], view["seat"]
    payoffs = pub["payoffs"]
    rules = _PREAMBLE.get(payoffs, seat) or _PREAMBLE.put(payoffs, seat, _preamble(pub, seat))
    history, number = pub["history"], pub["round"]
    # The chat of resolved rounds never changes, so `pub` is a valid context for their text.
    past = "\n" + _HISTORY.text(history, _round_block, pub) if history else ""
    if history and history[0]["round"] > 1:  # long games: the view keeps the latest rounds
        past = f"\n\n(rounds 1-{history[0]['round'] - 1} are not shown){past}"
    now = "" if pub["over"] else \
        f"\n\n--- Round {number} of {pub['rounds']} ---{_chat_lines(_latest_chat(pub['chat'], number))}"
    a, b, c = pub["scores"]
    return (f"{rules}{past}{now}\n\n{_status(pub, view['private'], seat)}\n"
            f"Scores: Player 0 {a}; Player 1 {b}; Player 2 {c}")


def _status(pub: Mapping[str, Any], priv: Mapping[str, Any], seat: int | None) -> str:
    """What happens now, and what (if anything) this seat must do."""
    if pub["over"]:
        result = pub["result"]
        mine = f"\nYour reward: {result['rewards'][str(seat)]:+g}" if seat is not None else ""
        return f"Game over: {result['reason']}.{mine}"
    if pub["phase"] == "chat":
        if seat is not None and pub["speaker"] == seat:
            return (f"Your turn to chat (round {pub['round']}, chat turn {pub['chat_turn'] + 1} "
                    f"of {pub['communication_turns']}): write one message to the other players.")
        return f"Waiting for Player {pub['speaker']} to chat."
    if seat is None:
        return f"Decision turn of round {pub['round']}."
    mine = priv.get("decisions")
    if mine is not None:
        chosen = " ".join(f"[{o} {c}]" for o, c in mine.items())
        return f"You decided {chosen}; waiting for the others."
    opp = priv["opponents"]
    return (f"Your decision turn (round {pub['round']}): submit one token per opponent, e.g. "
            f"[{opp[0]} cooperate] [{opp[1]} defect].")


def describe_event(kind: str, data: Mapping[str, Any], name: Namer) -> str:
    """One transcript line for an IPD event; every seat is named by `name`."""
    try:
        if kind == "chat":
            if not data["text"]:
                return f"{name(data['seat'])} says nothing"
            return f"{name(data['seat'])}: {data['text']}"
        if kind == "decisions_open":
            return f"Decision turn of round {data['round']}"
        if kind == "decision_submitted":
            return f"{name(data['seat'])} has decided"
        if kind == "round_resolved":
            return _round_line(data, name)
    except (KeyError, TypeError, ValueError, IndexError):
        pass
    return describe_generic(kind, data, name)


def _pair_text(pair: Mapping[str, Any], name: Namer) -> str:
    """What one pair chose and gained, e.g. "Ann defects on Bo, who cooperates (Ann +5, Bo +0)"."""
    (a, b), (ca, cb), (ga, gb) = pair["players"], pair["choices"], pair["gains"]
    na, nb = name(a), name(b)
    if ca == cb:
        both = "cooperate" if ca == "cooperate" else "defect on each other"
        return f"{na} and {nb} {both} (+{ga} each)"
    if ca != "defect":  # the defector first
        na, nb, ga, gb = nb, na, gb, ga
    return f"{na} defects on {nb}, who cooperates ({na} +{ga}, {nb} +{gb})"


def _round_line(data: Mapping[str, Any], name: Namer) -> str:
    """A resolved round: each pair's choices and gains, each player's points for the round,
    and the totals ("level" only when all three totals are equal)."""
    pairs = "; ".join(_pair_text(p, name) for p in data["pairs"])
    gains = ", ".join(f"{name(s)} +{g}" for s, g in enumerate(data["gains"]))
    scores = data["scores"]
    if len(set(scores)) == 1:
        totals = f"all three level on {scores[0]}"
    else:
        totals = ", ".join(f"{name(s)} {v}" for s, v in enumerate(scores))
    return f"Round {data['round']}: {pairs}. This round: {gains}. Totals: {totals}."
