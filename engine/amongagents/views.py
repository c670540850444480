"""What each seat of an AmongAgents game may know and do (spec §9): the public state (the
clock, who is known to be out, the current meeting's speeches and votes, past meetings), each
seat's private part (role, room, who and which dead are there, exits, vents, tasks with paths,
the last observations and own actions, the last camera record) and its offers. Every container
is fresh: a view is a snapshot its reader may keep.

Nothing public says whose turn it is in the task phase: the seat order is known, but who is
skipped would tell who died unseen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.amongagents.ship import (
    CAFETERIA,
    CORRIDOR_MAP,
    IMPOSTOR_MAPS,
    ROOMS,
    SECURITY,
    VENT_MAPS,
    TaskKind,
    shortest_path,
)
from engine.amongagents.syntax import Offer
from engine.core import NO_ACTION, ActionSpace, Field, Option

if TYPE_CHECKING:
    from engine.amongagents.rules import AmongGame

MEETINGS_WINDOW = 5  # past meetings a view shows
__all__ = ["NO_ACTION", "action_space", "offers", "private_state", "public_state", "task_json"]


def task_json(kind: TaskKind) -> dict[str, Any]:
    return {"name": kind.name, "room": kind.room, "type": kind.type, "turns": kind.duration}


def offers(game: AmongGame, seat: int) -> tuple[Offer, ...]:
    """What `seat` may do at the start of its step, in the released code's order."""
    if game.phase == "meeting":
        if game.round <= game.config.discussion_rounds:
            return (Offer("speak", "SPEAK", "speak"),)
        votes = [Offer(f"vote:{s}", f"VOTE {game.name(s)}", "vote", seat=s)
                 for s in range(game.players) if game.alive[s] and s != seat]
        if game.config.allow_skip:
            votes.append(Offer("skip", "SKIP VOTE", "skip"))
        return tuple(votes)
    room = game.location[seat]
    found = [Offer(f"move:{r}", f"MOVE from {room} to {r}", "move", room=r)
             for r in CORRIDOR_MAP[room]]
    if any(r == room for r in game.bodies.values()):
        found.append(Offer("report", f"REPORT DEAD BODY at {room}", "report"))
    elif room == CAFETERIA and game.buttons < game.config.max_buttons:
        found.append(Offer("button", f"CALL MEETING using the emergency button at {room}",
                           "button"))
    found.append(Offer("speak", "SPEAK", "speak"))
    if room == SECURITY:
        found.append(Offer("monitor", "VIEW MONITOR", "monitor"))
    impostor = seat in game.impostors
    if impostor:
        found += [Offer(f"vent:{r}", f"VENT from {room} to {r}", "vent", room=r)
                  for r in VENT_MAPS[game.config.vents][room]]
        if game.kill_ready:
            found += [Offer(f"kill:{s}", f"KILL {game.name(s)}", "kill", seat=s)
                      for s in game.here(room) if s not in game.impostors]
    verb, words = ("fake", "COMPLETE FAKE TASK") if impostor else ("task", "COMPLETE TASK")
    found += [Offer(f"{verb}:{i}", f"{words} - {kind.name}", verb, task=i)
              for i, (kind, left) in enumerate(game.tasks[seat]) if kind.room == room and left]
    return tuple(found)


def action_space(game: AmongGame) -> ActionSpace:
    """The pending seat's offers as a numbered choice (a discussion: free text)."""
    limit = game.config.max_chat_chars
    if game.phase == "meeting" and game.round <= game.config.discussion_rounds:
        return ActionSpace(kind="text", prompt=f"Meeting, discussion round {game.round} of "
                                               f"{game.config.discussion_rounds}: speak to "
                                               "everyone.", max_chars=limit)
    options = []
    for o in game.offers:
        arg = None
        if o.verb == "speak":
            arg = Field("text", "Message", "text", max_chars=limit)
        elif o.verb == "monitor":
            arg = Field("room", "Room to watch", "choice",
                        options=tuple(Option(r, r) for r in ROOMS))
        options.append(Option(o.id, o.label, arg))
    prompt = "Vote to eject a player." if game.phase == "meeting" else "Choose an action."
    return ActionSpace(kind="choice", prompt=prompt, options=tuple(options),
                       syntax=f"[{game.offers[0].label}] (an action's text or number; "
                              "SPEAK: <message>; VIEW MONITOR <room>)")


def public_state(game: AmongGame) -> dict[str, Any]:
    config = game.config
    over = game.result is not None
    out = set(game.known_dead)
    players = []
    for s in range(game.players):
        entry: dict[str, Any] = {"seat": s, "name": game.name(s), "colour": game.colours[s],
                                 "out": s in out}
        if s in game.revealed:
            entry["role"] = game.roles[s].name
        players.append(entry)
    meeting = game.phase == "meeting"
    voting = meeting and game.round > config.discussion_rounds
    return {
        "players": players,
        "impostors": config.impostors,
        "timestep": game.timestep,
        "max_timesteps": config.max_timesteps,
        "phase": "over" if over else game.phase,
        "discussion_round": game.round if meeting and not voting else None,
        "discussion_rounds": config.discussion_rounds,
        "voting": voting,
        "speaker": game.queue[0] if meeting and game.queue and not over else None,
        "speeches": [dict(e) for e in game.speeches] if meeting else [],
        "votes": [{"seat": s, "target": c if isinstance(c, int) else None, "skip": c == "skip"}
                  for s, c in game.ballot.votes] if voting and game.ballot else [],
        "called": dict(game.call) if game.call else None,
        "meetings": [dict(m) for m in game.meetings[-MEETINGS_WINDOW:]],
        "buttons_used": game.buttons,
        "max_buttons": config.max_buttons,
        "allow_skip": config.allow_skip,
        "reveal_role_on_ejection": config.reveal_role_on_ejection,
        "vents": config.vents,
        "ending": game.ending,
    }


def private_state(game: AmongGame, seat: int) -> dict[str, Any]:
    role = game.roles[seat]
    impostor = seat in game.impostors
    room = game.location[seat]
    graph = IMPOSTOR_MAPS[game.config.vents] if impostor else CORRIDOR_MAP
    tasks = [{**task_json(kind), "left": left, "done": left == 0,
              "path": shortest_path(graph, room, kind.room)}
             for kind, left in game.tasks[seat]]
    mine: dict[str, Any] = {
        "role": role.name, "side": role.side, "alive": game.alive[seat], "name": game.name(seat),
        "location": room,
        "here": [s for s in game.here(room) if s != seat] if game.alive[seat] else [],
        "dead_here": sorted(s for s, r in game.bodies.items() if r == room)
        if game.alive[seat] else [],
        "exits": list(CORRIDOR_MAP[room]),
        "tasks": tasks,
        "seen": [dict(e) for e in game.seen[seat]],
        "mine": [dict(e) for e in game.mine[seat]],
        "camera": _copy_camera(game.camera[seat]),
        "turn": seat in game.pending(),
        "offers": [{"id": o.id, "label": o.label} for o in game.offers]
        if seat in game.pending() else [],
    }
    if impostor:
        mine["teammates"] = sorted(game.impostors - {seat})
        mine["vents"] = list(VENT_MAPS[game.config.vents][room])
        mine["kill_cooldown"] = game.cooldown[seat]
    return mine


def _copy_camera(record: dict[str, Any] | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {**record, "players": [{"seat": p["seat"], "last": dict(p["last"])}
                                  for p in record["players"]],
            "bodies": list(record["bodies"])}
