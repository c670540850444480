"""What each seat of a SocialGrid game sees (spec §9, §10): the public state, a seat's private
view (field of view, own tasks, allowed actions, recent steps, the oracle's hints at the
table's level) and the action spaces. Built from a `SocialGridGame`; never changes it.

Positions are private: the public view (what spectators get) names no player's place, and a
player killed out of everyone's sight counts as alive there until a meeting finds the body."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from engine.core import ActionSpace, Field, Option
from engine.socialgrid.board import Pos
from engine.socialgrid.config import IMPOSTOR, STALL_STEPS, seat_name
from engine.socialgrid.moves import (
    ACTION_NAMES,
    CALL_DISCUSSION,
    DO_TASK,
    KILL,
    MOVEMENT_ACTIONS,
    REPORT_DEADBODY,
    Pose,
    apply_move,
    front,
)
from engine.socialgrid.oracle import INF

if TYPE_CHECKING:
    from engine.socialgrid.rules import SocialGridGame

__all__ = ["ACTION_NAMES", "action_space", "ballot_space", "map_info", "private_state",
           "public_state"]

MAX_THOUGHT = 2000
NEAR = 12.0  # players in sight further than this by the oracle's ways count as out of reach


def map_info(game: SocialGridGame) -> dict[str, Any]:
    c, b = game.config, game.board
    return {"players": game.players, "impostors": len(game.impostors),
            "room_size": c.room_size, "rows": c.rows, "cols": c.cols, "width": b.width,
            "height": b.height, "observation": c.observation, "fov_radius": c.fov_radius,
            "oracle": c.oracle, "max_steps": c.max_steps, "vote_interval": c.vote_interval,
            "kill_cooldown": c.kill_cooldown, "pace": c.pace, "tick_ms": c.tick_ms}


def action_space(allowed: Sequence[int]) -> ActionSpace:
    return ActionSpace(kind="choice", prompt="Choose one of the allowed actions.",
                       syntax="an action number, e.g. 0 (MOVE_FORWARD)",
                       options=tuple(Option(str(a), ACTION_NAMES[a]) for a in allowed))


def ballot_space(game: SocialGridGame, seat: int) -> ActionSpace:

    others = game.vote_targets(seat)  # trust is asked of the players still in the game
    targets = tuple(Option(str(s), seat_name(s)) for s in game.vote_targets(seat))
    return ActionSpace(
        kind="form", prompt="Vote to eject a player, or skip; rate how much you trust each "
                            "player (0 = surely an impostor, 1 = surely a crewmate).",
        syntax="vote Player_3 (or: vote skip)",
        fields=(Field("vote", "Vote", "choice", options=(*targets, Option("skip", "Skip")),
                      default="skip"),
                *(Field(f"trust_{s}", f"Trust in {seat_name(s)}", "float", min=0.0, max=1.0,
                        default=0.5, optional=True) for s in others),
                Field("thought", "Your reasoning", "text", max_chars=MAX_THOUGHT,
                      optional=True)))


def public_state(game: SocialGridGame) -> dict[str, Any]:

    players = []
    over = game.over  # the end reveals everything: who was killed unseen, and every role
    for s in range(game.players):
        status = game.status[s]
        if status == "dead" and s not in game.known_dead and not over:
            status = "alive"  # nobody has found the body yet
        entry: dict[str, Any] = {"seat": s, "name": seat_name(s), "status": status}
        if over or (status == "ejected" and game.config.reveal_ejected):
            entry["role"] = game.roles[s].name
        players.append(entry)
    meeting = None
    if game.meeting is not None:
        meeting = {**game.meeting, "voted": sorted(game.answers)}
    interval = game.config.vote_interval
    return {"step": game.tick, "max_steps": game.config.max_steps, "phase": game.phase,
            "next_meeting": (game.tick // interval + 1) * interval if interval else None,
            "players": players, "tasks_done": game.tasks_done, "tasks_total": game.tasks_total,
            "meeting": meeting, "meetings": game.meetings, "last_vote": game.last_vote,
            "map": map_info(game)}


def private_state(game: SocialGridGame, seat: int) -> dict[str, Any]:

    role = game.roles[seat].name
    view: dict[str, Any] = {"name": seat_name(seat), "seat": seat, "role": role,
                            "status": game.status[seat],
                            "trust": {str(k): v for k, v in game.trust[seat].items()}}
    if role == IMPOSTOR:
        view["teammates"] = [seat_name(s) for s in sorted(game.impostors - {seat})]
        view["kill_cooldown"] = game.cooldown[seat]
    view["tasks"] = [_task(game, t) for t in game.tasks[seat]]
    if role == IMPOSTOR:  # its cover: stations where it may pretend to work
        for task in view["tasks"]:
            task["cover"] = True
    pose = game.poses[seat]
    if pose is None:
        return view
    board = game.board
    view.update({"position": board.label(pose.pos), "pose": list(pose),
                 "facing": pose.facing, "allowed": game.allowed(seat),
                 "history": list(game.history[seat]), "stall_alert": game.still[seat] >=
                 STALL_STEPS, "button_calls_left": game.calls_left[seat],
                 "observation": _observation(game, seat, pose)})
    if game.phase == "vote":
        view["vote_targets"] = [seat_name(s) for s in game.vote_targets(seat)]
        ballot = game.answers.get(seat)
        view["voted"] = ballot is not None
    if game.config.oracle != "low" and game.phase == "tasks":
        view["oracle"] = _oracle(game, seat, pose)
    return view


def _task(game: SocialGridGame, task: Any) -> dict[str, Any]:
    return {"task_name": task.name, "kind": task.kind, "steps_required": task.required,
            "position": game.board.label(task.station), "station": list(task.station),
            "progress": f"{task.progress}/{task.required}", "done": task.progress,
            "completed": task.done}


def _observation(game: SocialGridGame, seat: int, pose: Pose) -> dict[str, Any]:
    """What `seat` sees: the patch (or the whole map in global mode) in the map legend, with
    the players and bodies in sight by name and place."""

    board, seen = game.board, game.sight(seat)
    players = {}
    overlays: dict[Pos, str] = {}
    for s, p in enumerate(game.poses):
        if p is not None and s != seat and p.pos in seen:
            players[seat_name(s)] = {"seat": s, "pos": list(p.pos), "facing": p.facing,
                                     "position": board.label(p.pos)}
            overlays[p.pos] = "P"
    corpses = [{"pos": list(c), "position": board.label(c)} for c in sorted(game.corpses)
               if c in seen]
    for c in game.corpses:
        overlays[c] = "C"
    overlays[pose.pos] = "@"
    if game.config.observation == "global":
        rendered = board.render(game.closed, overlays).splitlines()
        return {"mode": "global", "map": rendered, "origin": [0, 0], "players": players,
                "corpses": corpses}
    radius = game.config.fov_radius
    patch = _overlay(game.patch(seat), pose.x - radius, pose.y - radius, overlays, seen)
    return {"mode": "limited", "radius": radius, "patch": patch,
            "origin": [pose.x - radius, pose.y - radius], "players": players,
            "corpses": corpses}


def _overlay(rows: list[str], x0: int, y0: int, overlays: dict[Pos, str],
             seen: Collection[Pos]) -> list[str]:
    """A copy of a bare patch (top-left tile x0, y0) with the overlays in sight drawn on it."""
    out = list(rows)
    for (x, y), char in overlays.items():
        dy, dx = y - y0, x - x0
        if 0 <= dy < len(out) and 0 <= dx < len(out[dy]) and (x, y) in seen:
            row = out[dy]
            out[dy] = row[:dx] + char + row[dx + 1:]
    return out


def _oracle(game: SocialGridGame, seat: int, pose: Pose) -> dict[str, Any]:
    """The Planning Oracle's hints (spec §10): distances to the seat's targets and one best
    action; at the mid level also where each movement action would lead."""

    oracle, closed, board = game.oracle, game.closed, game.board
    # Bodies, like players, are left out of the cached distances (a kill would otherwise
    # mean new fields for every target) and stepped around by the best action. Only those in
    # sight: a hint must not depend on what the seat cannot see.
    blocked: frozenset[Pos] = frozenset()
    hints: dict[str, Any] = {"level": game.config.oracle}
    seen = game.sight(seat)
    others = {seat_name(s): p.pos for s, p in enumerate(game.poses)
              if p is not None and s != seat and p.pos in seen}
    bodies_block = frozenset(c for c in game.corpses if c in seen)
    occupied = bodies_block | frozenset(others.values())
    _, nearest = (oracle.nearest(pose, others.values(), closed, bodies_block, NEAR)
                  if others else (None, INF))
    hints["nearest_player"] = _number(nearest)
    if board.button is not None:
        hints["button"] = _number(oracle.distance(pose, board.button, closed, blocked))
    target: Pos | None = None
    if game.roles[seat].name == IMPOSTOR:
        crew = [p for name, p in others.items() if int(name.split("_")[1]) in game.crew]
        if crew and game.cooldown[seat] == 0:
            target, _ = oracle.nearest(pose, crew, closed, bodies_block, NEAR)
            hints["goal"] = "the nearest crewmate in sight"
    else:  # an impostor's cover tasks get no hints: its goal is the kill
        todo = [t for t in game.tasks[seat] if not t.done]
        distances = {t.name: oracle.distance(pose, t.station, closed, blocked)
                     for t in game.tasks[seat]}
        hints["task_distances"] = {k: _number(v) for k, v in distances.items()}
        if todo:
            nearest_task = min(todo, key=lambda t: distances[t.name])
            target = nearest_task.station
            hints["goal"] = nearest_task.name
    if bodies_block:
        hints["body"] = _number(min(oracle.distance(pose, c, closed, blocked)
                                    for c in bodies_block))
    hints["best_action"] = _best(game, seat, pose, target, occupied, blocked)
    if game.config.oracle == "mid":
        hints["outcomes"] = {
            ACTION_NAMES[a]: {"pose": list(after), "position": board.label(after.pos)}
            for a in MOVEMENT_ACTIONS
            if (after := apply_move(board, pose, a, closed, occupied)) is not None}
    return hints


def _best(game: SocialGridGame, seat: int, pose: Pose, target: Pos | None,
          occupied: Collection[Pos], blocked: frozenset[Pos]) -> int | None:
    """One action on a cheapest path to the target, or the interaction once there."""
    allowed = game.allowed(seat)
    if REPORT_DEADBODY in allowed and game.roles[seat].name != IMPOSTOR:
        return REPORT_DEADBODY
    if target is None:
        return None
    if front(pose) == target:
        for action in (KILL, DO_TASK, CALL_DISCUSSION):
            if action in allowed:
                return action
    action = game.oracle.best_action(pose, target, game.closed, blocked, occupied)
    return action if action in allowed else None


def _number(value: float) -> float | None:
    return None if value == INF else value
