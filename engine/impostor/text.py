"""The Impostor game in words: a seat's view as text (bots' prompts, the generic widget) and
each event for the log. A seat's own word appears only in its own view's text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.describe import Naming, describe_generic


def _player(seat: int) -> str:
    return f"Player {seat + 1}"


def _team_line(team: Mapping[str, Any] | None) -> str | None:
    if team is None:
        return None
    if team.get("teammate") is None:
        return ("One of the other three players is your teammate (not told who). Teams are "
                "not roles: your teammate may share your word or be the impostor.")
    return (f"You and {_player(team['teammate'])} are teammates. Teams are not roles: your "
            f"teammate may share your word or be the impostor; there is exactly one impostor.")


def _ballot(b: Mapping[str, Any]) -> str:
    if not b.get("valid"):
        return "no valid ballot"
    text = f"voted {_player(b['target'])}"
    if b.get("confidence") is not None:
        text += f" (confidence {b['confidence']:.2f})"
    if b.get("self_declaration"):
        text += f", declared itself the impostor, guessing \"{b.get('word_guess') or ''}\""
    return text


def render(view: Mapping[str, Any]) -> str:
    pub = view["public"]
    seat = view.get("seat")
    mine = view.get("private") or {}
    lines = ["The Impostor game: 4 players. Three share one word; one, the impostor, has a "
             "different word. Nobody is told whether they are the impostor. Each player "
             "describes their word in one or two sentences without saying it; then everyone "
             "votes, at once, for who holds the different word."]
    if isinstance(seat, int):
        lines.append(f'You are {_player(seat)}. Your word is "{mine.get("word")}". You speak '
                     f"in position {mine.get('position', 0) + 1} of 4.")
        team = _team_line(mine.get("team"))
        if team:
            lines.append(team)
    else:
        lines.append("You are watching.")
    lines.append("Speaking order: " + ", ".join(_player(s) for s in pub["order"]) + ".")
    if pub["descriptions"]:
        lines.append("Descriptions so far:")
        lines += [f"  {_player(d['seat'])}: {d['text']}" for d in pub["descriptions"]]
    if pub["phase"] == "describe" and pub.get("speaker") is not None:
        lines.append(f"Now describing: {_player(pub['speaker'])}.")
    if pub["phase"] == "vote":
        lines.append(f"Voted so far: {', '.join(_player(s) for s in pub['voted']) or 'nobody'}.")
    if isinstance(seat, int) and mine.get("my_ballot"):
        lines.append(f"Your ballot: {_ballot(mine['my_ballot'])}.")
    if isinstance(seat, int) and mine.get("last_error"):
        lines.append(f"Last answer refused: {mine['last_error']}")
    if pub.get("over"):
        for s, b in (pub.get("ballots") or {}).items():
            lines.append(f"{_player(int(s))} {_ballot(b)}.")
        setup = pub.get("setup") or {}
        if setup:
            lines.append(f"The impostor was Player {setup['impostor_player']}, with "
                         f"\"{setup['impostor_word']}\"; the others had "
                         f"\"{setup['majority_word']}\" ({setup['tier']} pair).")
        lines.append(f"Game over: {pub['result']['reason']}.")
    return "\n".join(lines)


def describe_event(type_: str, data: Mapping[str, Any], name: Naming) -> str:
    if type_ == "game_started":
        return "The Impostor game: speaking order " + ", ".join(name(s) for s in data["order"]) \
            + "."
    if type_ == "word_dealt":
        return f'{name(data["seat"])}, your word is "{data["word"]}".'
    if type_ == "team_told":
        if data.get("teammate") is None:
            return f"{name(data['seat'])}, one of the other three players is your teammate."
        return f"{name(data['seat'])}, your teammate is {name(data['teammate'])}."
    if type_ == "description":
        flags = f" [{', '.join(data['flags'])}]" if data.get("flags") else ""
        return f"{name(data['seat'])}: {data['text']}{flags}"
    if type_ == "voting_started":
        return "Descriptions are over: everyone votes now (ballots stay secret until all are in)."
    if type_ == "ballot":
        if not data.get("valid"):
            return f"{name(data['seat'])}, your ballot counts for nobody."
        return f"{name(data['seat'])}, you voted {name(data['target'])}."
    if type_ == "ballot_cast":
        return f"{name(data['seat'])} has voted."
    if type_ == "ballots_revealed":
        parts = []
        for s, b in data["ballots"].items():
            if not b.get("valid"):
                parts.append(f"{name(int(s))}: no valid ballot")
                continue
            said = f"{name(int(s))} voted {name(b['target'])}"
            if b.get("self_declaration"):
                said += f" and declared itself (guess \"{b.get('word_guess') or ''}\")"
            parts.append(said)
        return "Ballots: " + "; ".join(parts) + "."
    if type_ == "game_ended":
        side = "The impostor" if data["winner"] == "impostor" else "The majority"
        return f"{side} wins ({data['win_condition'].replace('_', ' ')}); the impostor was " \
               f"{name(data['impostor'])}."
    if type_ == "setup_revealed":
        return (f"The impostor was {name(data['impostor'])} with \"{data['impostor_word']}\"; "
                f"the others had \"{data['majority_word']}\".")
    return describe_generic(type_, data, name)
