"""SocialGrid as text: a view rendered the way the paper's agents read it (spec §9: name,
position, direction, tasks, allowed actions, oracle hints, recent steps, the stall alert and the
observation), and one transcript line per event."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.describe import Naming, describe_generic, with_article
from engine.socialgrid.board import FACING_NAMES
from engine.socialgrid.moves import ACTION_NAMES
from engine.socialgrid.syntax import NAME_TO_ACTION

REASONS = {"report": "reported a body", "button": "pressed the emergency button"}


def render(view: Mapping[str, Any]) -> str:
    public, private = view.get("public") or {}, view.get("private") or {}
    game = public.get("map") or {}
    lines = [f"Step {public.get('step', 0)} of {public.get('max_steps', '?')} — "
             f"tasks done {public.get('tasks_done', 0)}/{public.get('tasks_total', 0)} — "
             f"{game.get('players', '?')} players, {game.get('impostors', '?')} impostors"]
    meeting = public.get("meeting") if public.get("phase") == "vote" else None
    if meeting:
        dead = ", ".join(f"Player_{s}" for s in meeting.get("found_dead") or [])
        lines.append(_meeting_line(meeting) + (f"; found dead: {dead}" if dead else ""))
    if meeting or not private:
        lines.append("Players: " + ", ".join(_status(p) for p in public.get("players", [])))
    last = public.get("last_vote")
    if meeting and last:
        lines.append("Last vote: " + _vote_line(last))
    if not private:
        return "\n".join(lines)
    lines.append(f"NAME: {private['name']} ({private['role']})")
    if private.get("teammates") is not None:
        lines.append(f"Fellow impostors: {', '.join(private['teammates']) or 'none'}; kill "
                     f"cooldown: {private.get('kill_cooldown', 0)} steps remaining")
    if private.get("status") != "alive":
        lines.append(f"You are {private.get('status')}: you take no further part.")
        return "\n".join(lines)
    facing = private.get("facing")
    lines.append(f"Position: {private.get('position')}  Direction: {facing} "
                 f"({FACING_NAMES.get(facing, '?')})")
    for task in private.get("tasks", []):
        state = ("cover (DO_TASK here only looks like work)" if task.get("cover") else
                 "done" if task["completed"] else task["progress"])
        lines.append(f"  task {task['task_name']} at {task['position']}: {state}")
    allowed = private.get("allowed") or []
    if allowed:
        lines.append("ALLOWED_ACTIONS: " + ", ".join(f"{a} {ACTION_NAMES[a]}" for a in allowed))
    oracle = private.get("oracle")
    if oracle:
        best = oracle.get("best_action")
        if best is not None:
            lines.append(f"BEST_ACTION_SUGGESTION: {best} {ACTION_NAMES[best]}"
                         + (f" (towards {oracle['goal']})" if oracle.get("goal") else ""))
        if oracle.get("task_distances"):
            lines.append("TASK_NAV_ASTAR_DIST: " + ", ".join(
                f"{k} {_dist(v)}" for k, v in sorted(oracle["task_distances"].items())))
        lines.append(f"NEAREST_PLAYER_DIST: {_dist(oracle.get('nearest_player'))}")
        outcomes = oracle.get("outcomes") or {}
        for name in sorted(outcomes, key=lambda n: NAME_TO_ACTION.get(n, 99)):
            outcome = outcomes[name]
            lines.append(f"  {name} -> {outcome['position']} facing {outcome['pose'][2]}")
    for h in private.get("history") or []:
        lines.append(f"  step={h['step']}: {h['from']}->act={h['action']}->{h['to']}")
    if private.get("stall_alert"):
        lines.append("STALL_ALERT: you have not moved for several steps")
    observation = private.get("observation") or {}
    rows = observation.get("patch") or observation.get("map") or []
    lines.append("Observation (@ is you, P players, C bodies, ? out of sight):")
    lines += [f"  {row}" for row in rows]
    for name, seen in sorted((observation.get("players") or {}).items()):
        lines.append(f"  {name} at {seen['position']} facing {seen['facing']}")
    for body in observation.get("corpses") or []:
        lines.append(f"  a body at {body['position']}")
    if private.get("vote_targets") is not None:
        lines.append("Vote for one of: " + ", ".join(private["vote_targets"]) + ", or skip")
    return "\n".join(lines)


def _status(player: Mapping[str, Any]) -> str:
    role = f", {player['role']}" if player.get("role") else ""
    return f"{player['name']} ({player['status']}{role})"


def _vote_line(vote: Mapping[str, Any], name: Any = None) -> str:
    """Who voted for whom, and who (if anyone) was ejected."""
    name = name or (lambda s: f"Player_{s}")
    votes = ", ".join(f"{name(int(v))}→{'skip' if t is None else name(t)}"
                      for v, t in sorted(vote["votes"].items(), key=lambda kv: int(kv[0])))
    ejected = vote.get("ejected")
    if ejected is None:
        return f"Nobody is ejected ({votes})."
    role = f" — {with_article(vote['role'])}" if vote.get("role") else ""
    return f"{name(ejected)} is ejected{role} ({votes})."


def _dist(value: Any) -> str:
    return "unreachable" if value is None else f"{value:g}"


def _meeting_line(meeting: Mapping[str, Any], name: Any = None) -> str:
    caller = meeting.get("called_by")
    who = (name(caller) if name else f"Player_{caller}") if caller is not None else None
    why = f"{who} {REASONS[meeting['reason']]}" if who else "a scheduled meeting"
    return f"Meeting {meeting.get('number')}: {why}"


def describe_event(kind: str, data: Mapping[str, Any], name: Naming) -> str:
    """One transcript line for a SocialGrid event; every seat is named by `name`."""
    try:
        line = _describe(kind, data, name)
    except (KeyError, TypeError, ValueError, IndexError):
        line = None
    return line if line is not None else describe_generic(kind, data, name)


def _describe(kind: str, data: Mapping[str, Any], name: Naming) -> str | None:
    if kind == "game_started":
        m = data["map"]
        return (f"The game starts: {data['players']} players ({data['impostors']} impostors) "
                f"on {m['rows']}x{m['cols']} rooms of {m['room_size']}x{m['room_size']}.")
    if kind == "role_assigned":
        mates = ", ".join(name(s) for s in data["teammates"])
        return f"You are {with_article(data['role'])}." + (f" Fellow impostors: {mates}."
                                                             if mates else "")
    if kind == "step":
        return f"Step {data['step']}."
    if kind == "task_completed":
        return f"You completed {data['task']}."
    if kind == "kill":
        return (f"{name(data['killer'])} killed {name(data['victim'])} at {data['label']} "
                f"(step {data['step']}).")
    if kind == "meeting_called":
        line = _meeting_line(data, name)
        dead = data.get("found_dead") or []
        found = f"; found dead: {', '.join(name(s) for s in dead)}" if dead else ""
        return f"{line} at step {data['step']}{found}."
    if kind == "ballot_cast":
        return f"{name(data['seat'])} has voted."
    if kind == "vote_result":
        return _vote_line(data, name)
    if kind == "player_left":
        return f"{name(data['seat'])} left the game."
    return None
