"""Secret Mafia's side panel and banner, as rich text built from the server's view: the seat's
role card (with what only it knows), the players (in or out, and how they went), today's votes
and the last vote, the Mafia's night channel for a Mafia seat, and every role once revealed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text

Namer = Callable[[int], str]
ROLE_LINES = {
    "Mafia": "Each night the Mafia choose a victim; by day, blend in.",
    "Doctor": "Each night you protect one other player from the Mafia.",
    "Detective": "Each night you learn whether one player is Mafia.",
    "Villager": "No night action: find the Mafia by talk and votes.",
}
SIDE_STYLE = {"mafia": "bold red", "village": "bold green"}


def banner(public: Mapping[str, Any], me: int | None, task: str | None, name: Namer) -> Text:
    """The phase (night or day, round) and whose turn it is."""
    text = Text()
    day, phase = public.get("day", 1), public.get("phase")
    if phase == "over":
        return Text("Game over", style="bold")
    if phase == "night":
        text.append(f"Night {day}", style="bold reverse")
        text.append("  secret night actions", style="dim")
    elif phase == "day":
        text.append(f"Day {day}", style="bold reverse")
        text.append(f"  discussion round {public.get('discussion_round')}/"
                    f"{public.get('discussion_rounds')}")
        speaker = public.get("speaker")
        if isinstance(speaker, int):
            text.append(" — speaking: " + ("you" if speaker == me else name(speaker)))
    else:
        text.append(f"Day {day} — vote", style="bold reverse")
        voter = public.get("voter")
        if isinstance(voter, int):
            text.append("  next: " + ("you" if voter == me else name(voter)))
    if task:
        text.append("  ▶ your turn", style="bold")
    return text


def _roles(public: Mapping[str, Any], over: Mapping[str, Any] | None) -> dict[int, str]:
    """Roles known to everyone: announced at a death, or all of them at the end."""
    roles = {p["seat"]: p["role"] for p in public.get("players") or () if p.get("role")}
    dealt = (public.get("setup") or {}).get("roles") or []
    roles |= {s: r["name"] for s, r in enumerate(dealt) if isinstance(r, Mapping)}
    result = (over or {}).get("result") or public.get("result") or {}
    roles |= {s: r for s, r in enumerate(result.get("roles") or ())}
    return roles


def _fates(public: Mapping[str, Any]) -> dict[int, str]:
    fates: dict[int, str] = {}
    for h in public.get("history") or ():
        if h.get("kind") == "dawn":
            if h.get("killed") is not None:
                fates[h["killed"]] = f"killed, night {h['day']}"
            for s in h.get("overnight") or ():
                fates[s] = f"out for invalid moves, night {h['day']}"
        elif h.get("eliminated") is not None:
            fates[h["eliminated"]] = f"voted out, day {h['day']}"
    return fates


def _votes(votes: Any, name: Namer) -> str:
    return ", ".join(f"{name(v['seat'])}→{'—' if v['target'] is None else name(v['target'])}"
                     for v in votes or ()) or "none yet"


def panel(public: Mapping[str, Any], private: Mapping[str, Any], me: int | None,
          name: Namer, over: Mapping[str, Any] | None = None) -> Text:
    text = Text()
    role = private.get("role")
    if role:
        text.append("Your role: ")
        text.append(f"{role}", style=SIDE_STYLE.get(private.get("side", ""), "bold"))
        text.append(f", {private.get('side')} side" + ("" if private.get("alive", True) else
                                                       " — out of the game") + "\n")
        text.append(ROLE_LINES.get(role, "") + "\n", style="dim")
        mates = private.get("teammates")
        if mates:
            text.append("Fellow Mafia: " + ", ".join(name(s) for s in mates) + "\n")
        for line in _knowledge(private, name):
            text.append(line + "\n")
    roles, fates = _roles(public, over), _fates(public)
    text.append("Players\n", style="bold")
    for p in public.get("players") or ():
        seat = p["seat"]
        mark, style = ("●", "") if p.get("alive") else ("✝", "dim")
        # The seat number too: bots and prompts call players "Player 3", targets are "[3]".
        line = f"{mark} {seat} {name(seat)}" + (" (you)" if seat == me else "")
        if seat in roles:
            line += f" — {roles[seat]}"
        if seat in fates:
            line += f" ({fates[seat]})"
        text.append(line + "\n", style=style)
    if public.get("phase") == "vote":
        text.append("\nVotes today: ", style="bold")
        text.append(_votes(public.get("votes"), name) + "\n")
    last = next((h for h in reversed(public.get("history") or ()) if h.get("kind") == "vote"),
                None)
    if last is not None:
        out = "nobody" if last["eliminated"] is None else name(last["eliminated"])
        text.append(f"\nVote of day {last['day']}: ", style="bold")
        text.append(f"{out} out ({_votes(last.get('votes'), name)})\n")
    return text


def _knowledge(private: Mapping[str, Any], name: Namer) -> list[str]:
    """What only this seat knows: Mafia votes tonight, protections, findings."""
    lines = []
    for v in private.get("night_votes") or ():
        note = f" “{v['note']}”" if v.get("note") else ""
        target = "nobody" if v["target"] is None else name(v["target"])
        lines.append(f"Tonight {name(v['seat'])} votes {target}{note}")
    for n in (private.get("nights") or ())[-3:]:
        lines.append(f"Night {n['day']}: the Mafia chose "
                     f"{'nobody' if n['target'] is None else name(n['target'])}")
    for p in private.get("protections") or ():
        lines.append(f"Night {p['day']}: you protected "
                     f"{'nobody' if p['target'] is None else name(p['target'])}")
    for f in private.get("investigations") or ():
        if f["target"] is not None:
            verdict = "IS Mafia" if f["mafia"] else "is not Mafia"
            lines.append(f"Night {f['day']}: {name(f['target'])} {verdict}")
    return lines
