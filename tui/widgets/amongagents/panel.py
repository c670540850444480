"""AmongAgents' banner and side panel, as rich text built from the server's view: the role card,
where the seat is and who and what it sees there, its tasks and the way to each, what it saw
lately and did itself, the last camera view, the players (in or out), the meeting under way and
the past meetings' votes. Seats are named as every screen names them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text

Namer = Callable[[int], str]
ROLE_LINES = {
    "crew": "Do your tasks, watch who does what, vote the impostors off the ship.",
    "impostor": "Kill crewmates unseen, fake tasks, travel by vent; outlast the crew.",
}
SIDE_STYLE = {"crew": "bold cyan", "impostor": "bold red"}


def banner(public: Mapping[str, Any], private: Mapping[str, Any], me: int | None,
           my_turn: bool, name: Namer) -> Text:
    """The clock and phase, the meeting's stage and speaker, and whose move it is."""
    phase = public.get("phase")
    text = Text()
    if phase == "over":
        text.append("Game over", style="bold")
    elif phase == "meeting":
        text.append(f"Meeting at timestep {public.get('timestep')}", style="bold reverse")
        if public.get("voting"):
            text.append("  voting")
        else:
            text.append(f"  discussion round {public.get('discussion_round')}/"
                        f"{public.get('discussion_rounds')}")
        speaker = public.get("speaker")
        if isinstance(speaker, int):
            text.append(" — next: " + ("you" if speaker == me else name(speaker)))
    else:
        text.append(f"Timestep {public.get('timestep')}/{public.get('max_timesteps')}",
                    style="bold reverse")
        text.append("  task phase")
    if private.get("role"):
        text.append("  ·  you are ")
        text.append(str(private["role"]), style=SIDE_STYLE.get(private.get("side", ""), "bold"))
        if not private.get("alive", True):
            text.append(" (dead: you watch)", style="dim")
    if my_turn:
        text.append("  ▶ your move", style="bold")
    return text


def _line(entry: Mapping[str, Any], name: Namer) -> str:
    """One observed or own action, in the engine's words with our names."""
    verb = entry.get("verb", "")
    who = name(entry["seat"]) if isinstance(entry.get("seat"), int) else "someone"
    when = f"t{entry.get('timestep')}: " if entry.get("timestep") is not None else ""
    if verb in ("move", "vent"):
        how = "vents" if verb == "vent" else "moves"
        return f"{when}{who} {how} {entry.get('room')} → {entry.get('to')}"
    if verb == "speak":
        return f"{when}{who} says: {entry.get('text', '')}"
    if verb == "working":  # what others see of a task, real or fake
        return f"{when}{who} works on a task"
    if verb in ("task", "fake"):  # one's own, or the cameras' raw record
        task = entry.get("task") or {}
        return f"{when}{who} works on {task.get('name', 'a task')}"
    if verb == "kill":
        target = entry.get("target")
        return f"{when}{who} KILLS {name(target) if isinstance(target, int) else 'someone'}"
    if verb in ("report", "button"):
        return f"{when}{who} calls a meeting"
    if verb == "monitor":
        watched = f" on {entry['watched']}" if entry.get("watched") else ""
        return f"{when}{who} watches the cameras{watched}"
    if verb == "vote":
        target = entry.get("target")
        return f"{when}{who} votes {name(target) if isinstance(target, int) else 'skip'}"
    return f"{when}{who} {verb}".rstrip()


def panel(public: Mapping[str, Any], private: Mapping[str, Any], me: int | None, name: Namer,
          over: Mapping[str, Any] | None) -> Text:
    text = _meeting(public, me, name)
    side = private.get("side")
    if private.get("role"):
        text.append(f"{private['role']}\n", style=SIDE_STYLE.get(side or "", "bold"))
        text.append(ROLE_LINES.get(side or "", "") + "\n", style="dim")
        mates = private.get("teammates") or []
        if mates:
            text.append("Fellow impostors: " + ", ".join(name(s) for s in mates) + "\n")
        if side == "impostor" and private.get("alive", True):
            cooldown = private.get("kill_cooldown")
            text.append("Kill: ready\n" if not cooldown else f"Kill: in {cooldown} steps\n")
    room = private.get("location")
    if room and private.get("alive", True):
        text.append(f"\nIn {room}\n", style="bold")
        here = private.get("here") or []
        text.append("With: " + (", ".join(name(s) for s in here) if here else "nobody") + "\n")
        for body in private.get("dead_here") or []:
            text.append(f"✝ the body of {name(body)}\n", style="bold red")
        text.append("Corridors: " + ", ".join(private.get("exits") or []) + "\n")
        if private.get("vents"):
            text.append("Vents: " + ", ".join(private["vents"]) + "\n", style="magenta")
    tasks = private.get("tasks") or []
    if tasks:
        done = sum(1 for t in tasks if t.get("done"))
        fake = " (fake: you only pretend)" if side == "impostor" else ""
        text.append(f"\nTasks {done}/{len(tasks)}{fake}\n", style="bold")
        for t in tasks:
            mark = "✓" if t.get("done") else "!"
            turns = t.get("turns", 1)
            progress = f" {turns - t.get('left', turns)}/{turns}" if turns > 1 else ""
            text.append(f"{mark} {t.get('name')} ({t.get('room')}){progress}\n",
                        style="dim" if t.get("done") else "")
            path = t.get("path") or []
            if not t.get("done") and len(path) > 1:
                text.append("   via " + " → ".join(path[1:]) + "\n", style="dim")
    camera = private.get("camera")
    if camera:
        text.append(f"\nCamera on {camera.get('room')} (t{camera.get('timestep')})\n",
                    style="bold")
        for p in camera.get("players") or []:
            text.append("  " + _line({**p.get("last", {}), "seat": p.get("seat")}, name) + "\n")
        for body in camera.get("bodies") or []:
            text.append(f"  ✝ the body of {name(body)}\n")
        if not camera.get("players") and not camera.get("bodies"):
            text.append("  nobody there\n")
    seen = private.get("seen") or []
    if seen:
        text.append("\nYou saw\n", style="bold")
        for entry in seen:
            text.append("  " + _line(entry, name) + "\n")
    mine = private.get("mine") or []
    if mine:
        text.append("\nYou did\n", style="bold")
        for entry in mine:
            text.append("  " + _line({**entry, "seat": me} if me is not None else entry,
                                     name) + "\n")
    text.append_text(_players(public, me, name, over))
    text.append_text(_meetings(public, name))
    return text


def _meeting(public: Mapping[str, Any], me: int | None, name: Namer) -> Text:
    """The meeting under way: who called it and why, and what has been said so far."""
    text = Text()
    called = public.get("called")
    if public.get("phase") != "meeting" or not called:
        return text
    caller = name(called["seat"]) if isinstance(called.get("seat"), int) else "someone"
    why = ("reported " + ", ".join(f"the body of {name(b)}" for b in called.get("bodies") or ())
           if called.get("kind") == "report" else "pressed the emergency button")
    text.append(f"{caller} {why} in {called.get('room')}\n", style="bold")
    for s in public.get("speeches") or []:
        who = name(s["seat"]) + (" (you)" if s["seat"] == me else "")
        text.append(f"[r{s.get('round')}] ", style="dim")
        text.append(f"{who}: ", style="bold")
        text.append((s.get("text") or "(says nothing)") + "\n")
    return text


def _players(public: Mapping[str, Any], me: int | None, name: Namer,
             over: Mapping[str, Any] | None) -> Text:
    text = Text("\nPlayers\n", style="bold")
    roles = (over or {}).get("result", {}).get("roles") if over else None
    for p in public.get("players") or []:
        seat = p["seat"]
        line = name(seat) + (" (you)" if seat == me else "")
        role = p.get("role") or (roles[seat] if roles and seat < len(roles) else None)
        if role:
            line += f" · {role}"
        text.append(("✝ " if p.get("out") else "  ") + line + "\n",
                    style="dim" if p.get("out") else "")
    return text


def _meetings(public: Mapping[str, Any], name: Namer) -> Text:
    text = Text()
    votes = public.get("votes") or []
    if votes:
        text.append("\nVotes so far\n", style="bold")
        for v in votes:
            text.append(f"  {name(v['seat'])} → "
                        f"{'skip' if v.get('skip') else name(v['target'])}\n")
    for m in reversed(public.get("meetings") or []):
        ejected = m.get("ejected")
        outcome = (f"{name(ejected)} ejected" if isinstance(ejected, int)
                   else "a tie: nobody ejected" if m.get("tied") else "nobody ejected")
        text.append(f"\nMeeting at t{m.get('timestep')}: {outcome}\n", style="bold")
        for v in m.get("votes") or []:
            text.append(f"  {name(v['seat'])} → "
                        f"{'skip' if v.get('skip') else name(v['target'])}\n", style="dim")
    return text
