"""The text of a Codenames view (what an LLM or a transcript pane reads) and transcript lines.

A spymaster's text lists every word with its colour; an operative's and a spectator's show a
colour only once the word is revealed. Everything comes from the view itself, so the text of a
view and of its JSON copy are the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.codenames.board import example_clue
from engine.codenames.config import ROLES, SPYMASTER
from engine.describe import Namer, describe_generic

ENDED = {"wrong": "ended on a wrong guess", "limit": "ended when the guesses ran out",
         "pass": "ended with a pass", "skipped": "was skipped (an invalid answer)",
         "no clue": "ended without a clue"}
HOW = {"all_words": "revealed all its words", "assassin": "the other team found the assassin",
       "opponent_last_word": "the other team revealed its last word",
       "illegal_clue": "the other team gave an illegal clue",
       "forfeit": "the other team forfeited", "move_cap": "it had more words revealed at the cap"}


def _intro(pub: Mapping[str, Any], private: Mapping[str, Any]) -> str:
    team, role = private.get("team"), private.get("role")
    rules = ("Codenames: two teams, red and blue, each of a spymaster and an operative. The "
             "spymaster gives a clue, one word and a number; the operative then guesses board "
             "words one at a time, up to the number plus one, and may pass. A wrong colour ends "
             "the turn, the assassin loses the game, and the first team with all its words "
             "revealed wins.")
    if role == SPYMASTER:
        who = (f"You are the {team} spymaster. You see the key: the colour of every word. "
               f"Your operative sees only the colours of revealed words.")
    elif role:
        who = (f"You are the {team} operative. You see the colour of a word only once it is "
               f"revealed; your spymaster sees them all.")
    else:
        who = "You are watching; the key stays hidden until the game ends."
    return f"{rules}\n{who}"


def _board(pub: Mapping[str, Any], key: Sequence[str] | None) -> str:
    lines = ["Board (25 words; a revealed word shows its colour):"]
    for i, word in enumerate(pub["words"]):
        shown = pub["revealed"][i]
        if key is not None:
            mark = f"{key[i]}  (revealed)" if shown else key[i]
        else:
            mark = f"{shown}  (revealed)" if shown else ""
        lines.append(f"  {word:<12} {mark}".rstrip())
    return "\n".join(lines)


def _guesses(guesses: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(f"{g['word']} ({g['label']})" for g in guesses) or "no guesses"


def _turn_line(entry: Mapping[str, Any]) -> str:
    clue = f"clue [{entry['clue']} {entry['number']}]" if entry["clue"] else "no clue"
    return (f"  Turn {entry['turn']}, {entry['team']}: {clue} -> {_guesses(entry['guesses'])}; "
            f"the turn {ENDED.get(entry['ended'], entry['ended'])}.")


def _history(pub: Mapping[str, Any]) -> str:
    history = pub["history"]
    if not history:
        return "No turns played yet."
    lines = ["Turns so far:"]
    if history[0]["turn"] > 1:
        lines.append(f"  (turns 1-{history[0]['turn'] - 1} are not shown)")
    lines += [_turn_line(e) for e in history]
    return "\n".join(lines)


def _status(pub: Mapping[str, Any], seat: int | None) -> str:
    if pub["over"]:
        result = pub["result"]
        mine = f"\nYour reward: {result['rewards'][str(seat)]:+g}" if seat is not None else ""
        return f"Game over: {result['reason']}.{mine}"
    clue, team, actor = pub["clue"], pub["team"], pub["to_act"]
    lines = [f"Turn {pub['turn']}: the {team} team plays."]
    if clue is not None:
        left = clue["guesses"] - clue["made"]
        lines.append(f"The clue is [{clue['word']} {clue['number']}]; guessed so far: "
                     f"{_guesses(pub['this_turn'])}; {left} guess(es) left.")
    if actor is None:
        return "\n".join(lines)
    if actor != seat:
        lines.append(f"Waiting for the {team} {ROLES[actor].name}.")
    elif ROLES[actor].name == SPYMASTER:
        lines.append(f"Your turn: give a clue, one word and a number, written like "
                     f"[{example_clue()} 2]. The number says how many of your words the clue "
                     f"points to (0 to {pub['max_clue_number']}); your operative may guess that "
                     "many plus one. The clue must not be a board word, part of one, or contain "
                     "one, revealed words included: such a clue loses the game at once.")
    else:
        lines.append("Your turn: guess one hidden board word, written like [word], or end the "
                     "turn with [pass].")
    return "\n".join(lines)


def render(view: Mapping[str, Any]) -> str:
    pub, seat, private = view["public"], view["seat"], view["private"]
    key = private.get("key")
    if key is None and pub.get("setup"):  # the game is over: the key is public
        key = _key_list(pub)
    left, counts = pub["left"], pub["counts"]
    score = (f"Words still hidden: red {left['red']} of {counts['red']}, blue {left['blue']} of "
             f"{counts['blue']}. Move {pub['moves']} of {pub['max_moves']} (at the cap the team "
             f"with more of its words revealed wins; equal is a draw).")
    return "\n\n".join([_intro(pub, private), _board(pub, key), score, _history(pub),
                        _status(pub, seat)])


def _key_list(pub: Mapping[str, Any]) -> list[str]:
    where = {w: label for label, words in pub["setup"]["key"].items() for w in words}
    return [where.get(w, "?") for w in pub["words"]]


# -------------------------------------------------------------------------------- transcript
def describe_event(kind: str, data: Mapping[str, Any], name: Namer) -> str:
    """One transcript line for a Codenames event; seats are named by `name`."""
    try:
        line = _describe(kind, data, name)
    except (KeyError, TypeError, ValueError, IndexError):
        line = None
    return line or describe_generic(kind, data, name)


def _describe(kind: str, data: Mapping[str, Any], name: Namer) -> str | None:
    if kind == "board_dealt":
        c = data["counts"]
        return (f"New board: {c['red']} red, {c['blue']} blue, {c['neutral']} neutral and "
                f"{c['assassin']} assassin; {data['first']} starts")
    if kind == "turn_started":
        return f"── Turn {data['turn']}: {data['team']} ──"
    if kind == "clue_given":
        return (f"{name(data['seat'])} gives the clue [{data['word']} {data['number']}] "
                f"(up to {data['guesses']} guesses)")
    if kind == "guess_made":
        return _guess_line(data, name)
    if kind == "passed":
        if data["role"] == SPYMASTER:
            return f"{name(data['seat'])} gives no clue: the {data['team']} turn ends"
        return f"{name(data['seat'])} passes"
    if kind == "turn_skipped":
        return f"{name(data['seat'])} gave an invalid answer ({data['why']}): the turn is skipped"
    if kind == "game_decided":
        found = data["revealed"]
        score = f"red {found['red']}, blue {found['blue']} words revealed"
        if data["winner"] is None:
            return f"Draw at the move cap: {score}"
        return f"The {data['winner']} team wins: {HOW.get(data['how'], data['how'])} ({score})"
    if kind == "forfeit" and "invalid move" in str(data.get("reason")):
        # The one fatal invalid move here is an illegal clue (the base words it generically).
        return f"{name(data['seat'])} loses the game for the {ROLES[data['seat']].side} team"
    if kind == "setup_revealed":
        key = data["key"]
        return "The key: " + "; ".join(f"{label}: {', '.join(words) or '-'}"
                                       for label, words in key.items())
    return None


def _guess_line(data: Mapping[str, Any], name: Namer) -> str:
    who, word, label = name(data["seat"]), data["word"], data["label"]
    if data["correct"]:
        more = f"{data['left']} guess(es) left" if data["left"] else "no guesses left"
        return f"{who} guesses {word}: {label}, correct ({more})"
    if label == "assassin":
        return f"{who} guesses {word}: the assassin!"
    return f"{who} guesses {word}: {label} — the turn ends"
