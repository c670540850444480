"""Secret Mafia as text: `render(view)` is what an LLM (or a transcript pane) reads for one
seat (transcript lines per event are in events.py). Written in our own words.

A rendering carries what the reference game tells a player: who you are, your role and side,
your teammates if Mafia, the setup, how a game goes, who is still in, each day's dawn, speeches
and vote, your own night results, and what you must do now with the valid targets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.secret_mafia.events import describe_event  # noqa: F401  (the env's `text`)

DESCRIPTIONS = {
    "Mafia": "You are one of the Mafia. Each night the Mafia choose a victim together; by day "
             "you hide among the villagers.",
    "Doctor": "You are the Doctor, on the village side. Each night you protect one player: if "
              "the Mafia chose them, they survive.",
    "Detective": "You are the Detective, on the village side. Each night you investigate one "
                 "player and learn, privately, whether they are Mafia.",
    "Villager": "You are a Villager. You have no night action: find the Mafia by what people "
                "say and how they vote.",
}


def rules_text(pub: Mapping[str, Any]) -> str:
    """How a game goes, the same for every seat."""
    rounds, self_protect = pub["discussion_rounds"], pub["doctor_self_protect"]
    reveal, corrected = pub["reveal_roles"], pub["night_errors"] == "correct"
    protect = "any living player, themself included" if self_protect else \
        "any other living player"
    death = "names the role of the dead" if reveal else "never names a role"
    return "\n".join([
        "How a game goes:",
        "- Night: the Mafia vote in secret for a victim among the other players (the most "
        "votes, ties drawn by lot); the Doctor protects " + protect + "; the Detective "
        "investigates any other living player.",
        f"- Dawn: the victim dies unless protected; the announcement {death}.",
        f"- Day: {rounds} round(s) of discussion, every living player speaking once per round "
        "in an order drawn for the day; then everyone votes, one after another and in the "
        "open, for a living player to eliminate (the most votes, ties drawn by lot).",
        "- The village wins when no Mafia member is left; the Mafia win as soon as they are at "
        "least half of the living players. Everyone on the winning side wins, the dead too.",
        "- Night actions and votes are written as a player's number in square brackets, e.g. "
        "[3] or [Player 3]. An unreadable or invalid choice gets one retry; a second one in a "
        "row puts you out of the game." + (" (At night the Doctor and the Detective get no "
                                            "retry: an invalid choice of theirs just does "
                                            "nothing that night.)" if corrected else ""),
    ])


def _name(seat: Any) -> str:
    return f"Player {seat}"


def _intro(pub: Mapping[str, Any], priv: Mapping[str, Any], seat: int | None) -> list[str]:
    count = len(pub["players"])
    comp = pub["composition"]
    setup = (f"Setup: {comp['mafia']} Mafia, {comp['doctor']} Doctor, {comp['detective']} "
             f"Detective, {comp['villager']} Villagers.")
    if seat is None:
        return [f"You are watching a game of Secret Mafia with {count} players.", setup]
    role = priv["role"]
    lines = [f"You are Player {seat} in a game of Secret Mafia with {count} players "
             f"(Player 0 to Player {count - 1}).",
             f"Your role: {role} ({priv['side']} side). {DESCRIPTIONS.get(role, '')}".rstrip()]
    if "teammates" in priv:
        mates = ", ".join(_name(s) for s in priv["teammates"]) or "nobody"
        lines.append(f"Your fellow Mafia: {mates}. Never vote against them.")
    return [*lines, setup]


def _players(pub: Mapping[str, Any]) -> str:
    parts = []
    for p in pub["players"]:
        state = "in the game" if p["alive"] else "out"
        role = f", was {p['role']}" if p.get("role") else ""
        parts.append(f"{p['name']} ({state}{role})")
    return "Players: " + "; ".join(parts) + "."


def _dawn_line(h: Mapping[str, Any]) -> str:
    roles = h.get("roles") or {}

    def who(s: int) -> str:
        return _name(s) + (f" (the {roles[str(s)]})" if str(s) in roles else "")
    killed = h["killed"]
    text = f"{who(killed)} was killed in the night." if killed is not None else \
        "Nobody was killed in the night."
    if h["overnight"]:
        text += " Out for invalid moves overnight: " + ", ".join(who(s) for s in h["overnight"])
    return text


def _vote_line(h: Mapping[str, Any]) -> str:
    votes = ", ".join(f"{_name(v['seat'])} -> "
                      f"{'nobody' if v['target'] is None else _name(v['target'])}"
                      for v in h["votes"])
    out = h["eliminated"]
    roles = h.get("roles") or {}
    if out is None:
        result = "nobody was eliminated"
    else:
        role = f" (the {roles[str(out)]})" if str(out) in roles else ""
        tie = " after a tie drawn by lot" if h["tied"] else ""
        result = f"{_name(out)}{role} was eliminated{tie}"
    return f"Vote: {votes or 'no votes'}; {result}."


def _days(pub: Mapping[str, Any]) -> list[str]:
    """Each day so far: its dawn, its speeches, its vote (from the view's windows)."""
    days = sorted({h["day"] for h in pub["history"]} | {c["day"] for c in pub["chat"]})
    lines = []
    for day in days:
        lines.append(f"--- Day {day} ---")
        for h in pub["history"]:
            if h["day"] == day and h["kind"] == "dawn":
                lines.append(_dawn_line(h))
        lines += [f"[{_name(c['seat'])}] {c['text'] or '(says nothing)'}"
                  for c in pub["chat"] if c["day"] == day]
        for h in pub["history"]:
            if h["day"] == day and h["kind"] == "vote":
                lines.append(_vote_line(h))
    return lines


def _private(priv: Mapping[str, Any]) -> list[str]:
    lines = []
    for n in priv.get("nights") or ():
        target = "nobody" if n["target"] is None else _name(n["target"])
        lines.append(f"Night {n['day']}: the Mafia's choice was {target}.")
    for v in priv.get("night_votes") or ():
        choice = "no one" if v["target"] is None else _name(v["target"])
        note = f" ({v['note']})" if v.get("note") else ""
        lines.append(f"Tonight {_name(v['seat'])} voted for {choice}{note}.")
    for p in priv.get("protections") or ():
        who = "nobody" if p["target"] is None else _name(p["target"])
        lines.append(f"Night {p['day']}: you protected {who}.")
    for f in priv.get("investigations") or ():
        if f["target"] is not None:
            verdict = "IS" if f["mafia"] else "is NOT"
            lines.append(f"Night {f['day']}: {_name(f['target'])} {verdict} a Mafia member.")
    return (["Your own knowledge:", *lines]) if lines else []


def _now(pub: Mapping[str, Any], priv: Mapping[str, Any], seat: int | None) -> str:
    if pub["over"]:
        result = pub["result"] or {}
        mine = "" if seat is None else \
            f" Your reward: {result.get('rewards', {}).get(str(seat), 0):+g}."
        return f"Game over: {result.get('reason', '')}.{mine}"
    day, phase = pub["day"], pub["phase"]
    task = priv.get("task") if seat is not None else None
    rounds = f"discussion round {pub['discussion_round']} of {pub['discussion_rounds']}"
    valid = ", ".join(f"[{t}]" for t in priv.get("targets") or ())
    asks = {
        "kill": f"Night {day}: vote for the Mafia's victim. Valid targets: {valid}.",
        "protect": f"Night {day}: choose a player to protect. Valid targets: {valid}.",
        "investigate": f"Night {day}: choose a player to investigate. Valid targets: {valid}.",
        "speak": f"Day {day}, {rounds}: your turn to speak to everyone.",
        "vote": f"Day {day}: your vote. Valid targets: {valid}.",
    }
    if task in asks:
        return asks[task]
    if phase == "night":
        return f"Night {day}: the night is under way."
    if phase == "day":
        return f"Day {day}, {rounds}: {_name(pub['speaker'])} is speaking."
    return f"Day {day}: voting; {_name(pub['voter'])} votes next."


def render(view: Mapping[str, Any]) -> str:
    pub, priv, seat = view["public"], view["private"], view["seat"]
    parts = ["\n".join(_intro(pub, priv, seat)),
             rules_text(pub),
             _players(pub)]
    days = _days(pub)
    if days:
        parts.append("\n".join(days))
    if pub["phase"] == "vote":
        cast = ", ".join(f"{_name(v['seat'])} -> "
                         f"{'nobody' if v['target'] is None else _name(v['target'])}"
                         for v in pub["votes"])
        parts.append(f"Votes so far today: {cast or 'none'}.")
    mine = _private(priv)
    if mine:
        parts.append("\n".join(mine))
    parts.append(_now(pub, priv, seat))
    return "\n\n".join(parts)
