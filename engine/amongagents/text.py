"""AmongAgents as text, in our own words: `render(view)` is the per-step text a player reads
(spec §9: time, phase, room and who is there, recent observations and own actions, tasks with
paths, the numbered actions), and `describe_event` one transcript line per event, every seat
named by the table's namer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.describe import Namer, describe_or_generic

ROLE_TEXT = {
    "Crewmate": "You are a Crewmate. Finish your tasks, watch who does what, and vote the "
                "impostors off the ship. The crew wins when every impostor is gone or every "
                "living crewmate's tasks are done.",
    "Impostor": "You are an Impostor. Kill crewmates without being caught, fake tasks to blend "
                "in and travel by vent. You win when the impostors are as many as the "
                "crewmates, or when time runs out.",
}
ENDING_TEXT = {"crew_eliminated": "the crewmates were outnumbered",
               "impostors_eliminated": "every impostor was ejected",
               "tasks_done": "all tasks were completed", "time_limit": "time ran out"}


def _names(seats: Sequence[int], name: Namer) -> str:
    return ", ".join(name(s) for s in seats) or "nobody"


def _act(d: Mapping[str, Any], name: Namer) -> str:
    """What a player did, as a line naming seats with `name`."""
    verb, room = d["verb"], d.get("room")
    if verb in ("move", "vent"):
        return f"{verb.upper()} from {room} to {d['to']}"
    if verb == "kill":
        return f"KILL {name(d['target'])}"
    if verb == "working":
        return f"seemingly doing a task in {room}"
    if verb == "task":
        return f"COMPLETE TASK - {d['task']['name']}" if "task" in d else "COMPLETE TASK"
    if verb == "fake":
        return f"COMPLETE FAKE TASK - {d['task']['name']}" if "task" in d else \
            "COMPLETE FAKE TASK"
    if verb == "speak":
        return f"SPEAK: {d.get('text', '')}"
    if verb == "monitor":
        return f"VIEW MONITOR {d.get('watched', '')}".rstrip()
    if verb == "report":
        return f"REPORT DEAD BODY at {room}"
    if verb == "button":
        return "CALL MEETING using the emergency button"
    if verb == "vote":
        return "VOTE " + ("nobody" if d.get("target") is None else name(d["target"]))
    if verb == "idle":
        return "standing quietly, doing nothing"
    return verb


def describe_event(kind: str, data: Mapping[str, Any], name: Namer) -> str:
    return describe_or_generic(_describe, kind, data, name)


def _describe(kind: str, d: Mapping[str, Any], name: Namer) -> str | None:
    if kind == "game_started":
        return (f"AmongAgents on The Skeld: {d['players']} players, {d['impostors']} "
                f"impostor(s), {d['max_timesteps']} timesteps")
    if kind == "role_assigned":
        mates = d.get("teammates")
        extra = f"; your fellow impostors: {_names(mates, name)}" if mates else ""
        tasks = ", ".join(f"{t['name']} ({t['room']})" for t in d["tasks"])
        return f"Your role: {d['role']}{extra}. Tasks: {tasks or 'none'}"
    if kind == "timestep":
        return f"── Timestep {d['timestep']}: task phase ──"
    if kind == "action":
        return f"Timestep {d['timestep']}: {name(d['seat'])} {_act(d, name)}"
    if kind == "task_worked":
        left = "done" if d["left"] == 0 else f"{d['left']} turn(s) left"
        fake = "fake " if d["verb"] == "fake" else ""
        return f"You work on the {fake}task {d['task']['name']} in {d['room']} ({left})"
    if kind == "camera":
        seen = "; ".join(f"{name(p['seat'])}: {_act(p['last'], name)}" for p in d["players"])
        dead = f"; dead: {_names(d['bodies'], name)}" if d["bodies"] else ""
        return f"Monitor of {d['room']}: {seen or 'nobody there'}{dead}"
    if kind == "meeting_called":
        if d["kind"] == "report":
            return f"{name(d['seat'])} reports a dead body in {d['room']}: " \
                   f"{_names(d['bodies'], name)}"
        return f"{name(d['seat'])} calls an emergency meeting"
    if kind == "meeting_started":
        dead = f"; dead since the last meeting: {_names(d['dead'], name)}" if d["dead"] \
            else "; nobody has died since the last meeting"
        return f"── Meeting (timestep {d['timestep']}) in the Cafeteria{dead} ──"
    if kind == "discussion_round":
        return f"Discussion round {d['round']} of {d['rounds']}"
    if kind == "speech":
        return f"{name(d['seat'])}: {d['text']}" if d["text"] else \
            f"{name(d['seat'])} says nothing"
    if kind == "voting_started":
        return f"Voting, in this order: {_names(d['order'], name)}"
    if kind == "vote":
        if d["skip"]:
            return f"{name(d['seat'])} skips"
        target = "nobody (no vote)" if d["target"] is None else name(d["target"])
        return f"{name(d['seat'])} votes for {target}"
    if kind == "vote_result":
        if d["ejected"] is None:
            tie = f" (a tie between {_names(d['tied'], name)})" if d["tied"] else ""
            return f"Nobody is ejected{tie}"
        role = f" — they were {d['role']}" if d.get("role") else ""
        return f"{name(d['ejected'])} is ejected{role}"
    if kind == "game_ended":
        return f"Game over at timestep {d['timestep']}: {ENDING_TEXT[d['ending']]}"
    return None


# -------------------------------------------------------------------------------- render
def render(view: Mapping[str, Any]) -> str:
    pub, priv, seat = view["public"], view["private"], view["seat"]
    players = pub["players"]

    def name(s: int) -> str:
        return players[s]["name"]

    lines = [f"Game Time: {pub['timestep']}/{pub['max_timesteps']}"]
    if pub["phase"] == "meeting":
        phase = "Meeting phase - Voting" if pub["voting"] else \
            f"Meeting phase - Discussion round ({pub['discussion_round']}/" \
            f"{pub['discussion_rounds']})"
    else:
        phase = {"task": "Task phase", "over": "Game over"}[pub["phase"]]
    lines.append(f"Current phase: {phase}")
    if seat is None:
        out = [p["name"] for p in players if p["out"]]
        lines.append("Players: " + ", ".join(p["name"] for p in players)
                     + (f" (out: {', '.join(out)})" if out else ""))
    else:
        lines += _seat_lines(pub, priv, name)
    lines += _meeting_lines(pub, name)
    if pub["over"] and pub["result"]:
        lines.append(f"Result: {pub['result']['reason']}")
    return "\n".join(lines)


def _seat_lines(pub: Mapping[str, Any], priv: Mapping[str, Any], name: Namer) -> list[str]:
    lines = [f"You are {priv['name']}. {ROLE_TEXT.get(priv['role'], '')}".rstrip()]
    if priv.get("teammates"):
        lines.append(f"Fellow impostors: {_names(priv['teammates'], name)}.")
    if not priv["alive"]:
        lines.append("You are dead: you take no more actions.")
        return lines
    room = priv["location"]
    here = [name(s) for s in priv["here"]] + [f"{name(s)} (dead)" for s in priv["dead_here"]]
    lines += [f"Current Location: {room}", f"Players in {room}: {', '.join(here) or 'nobody'}",
              f"Corridors from here: {', '.join(priv['exits'])}"]
    if "vents" in priv:
        lines.append(f"Vents from here: {', '.join(priv['vents']) or 'none'}; kill cooldown: "
                     f"{priv['kill_cooldown']}")
    if priv["seen"]:
        lines.append("Observations:")
        lines += [f"  Timestep {e['timestep']}: {name(e['seat'])} {_act(e, name)}"
                  for e in priv["seen"]]
    if priv["mine"]:
        lines.append("Your recent actions:")
        lines += [f"  Timestep {e['timestep']}: {_act(e, name)}" for e in priv["mine"]]
    if priv["camera"]:
        cam = priv["camera"]
        seen = "; ".join(f"{name(p['seat'])}: {_act(p['last'], name)}" for p in cam["players"])
        lines.append(f"Last monitor record (timestep {cam['timestep']}), {cam['room']}: "
                     f"{seen or 'no one here'}")
    if priv["tasks"]:
        lines.append("Your tasks:")
        for t in priv["tasks"]:
            state = "done" if t["done"] else (
                "Path: You are already at the task location." if t["room"] == room
                else "Path: " + "->".join(t["path"]))
            lines.append(f"  {t['type']}: {t['name']} ({t['room']}) — {state}")
    if priv["offers"]:
        lines.append("Available actions:")
        lines += [f"  {i}. {o['label']}" + (": <message>" if o["id"] == "speak" else "")
                  + (" <room>" if o["id"] == "monitor" else "")
                  for i, o in enumerate(priv["offers"], 1)]
    elif priv["turn"]:
        lines.append("Speak to the meeting (SPEAK: <message>).")
    return lines


def _meeting_lines(pub: Mapping[str, Any], name: Namer) -> list[str]:
    lines = []
    for m in pub["meetings"][-2:]:
        out = "nobody" if m["ejected"] is None else name(m["ejected"])
        lines.append(f"Meeting at timestep {m['timestep']}: ejected {out}.")
    if pub["speeches"]:
        lines.append("This meeting:")
        lines += [f"  [round {s['round']}] {name(s['seat'])}: {s['text']}"
                  for s in pub["speeches"]]
    if pub["votes"]:
        lines.append("Votes so far: " + ", ".join(
            f"{name(v['seat'])} -> {'skip' if v['skip'] else name(v['target'])}"
            if v["skip"] or v["target"] is not None else f"{name(v['seat'])} -> no vote"
            for v in pub["votes"]))
    return lines
