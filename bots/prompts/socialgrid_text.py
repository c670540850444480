"""The texts of the SocialGrid prompts (spec §9-§11, in our own words): the fixed parts (the 14
actions, the tile legend, coordinates and facings, what blocks movement, habits, the trust
rubric) and the pieces built from the view (identity, setup, how to win, meetings, the oracle's
hints at the table's level, impostor advice, the answer format, players and the last vote).
bots/prompts/socialgrid.py puts them together."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.describe import with_article

ACTION_HELP = {
    0: "step one tile the way you face",
    1: "step one tile back, still facing the same way",
    2: "step one tile to your right-hand side, facing unchanged",
    3: "step one tile to your left-hand side, facing unchanged",
    4: "turn a quarter to the left (no step)",
    5: "turn a quarter to the right (no step)",
    6: "turn around (no step)",
    7: "do nothing this step",
    8: "work the task station on your front tile (one toggle)",
    9: "open the closed door on your front tile",
    10: "close the open door on your front tile",
    11: "report a body you can see: this calls a meeting",
    12: "press the emergency button on your front tile: this calls a meeting",
    13: "impostors only: kill the crewmate on your front tile",
}

LEGEND = ("Map symbols: # wall, . floor, T task station, B emergency button, O open door, "
          "D closed door, P another player, C a body, @ you, ? a tile you cannot see (hidden "
          "behind a wall or a closed door), and a blank beyond the edge of the map.")

COORDINATES = (
    "Coordinates: x grows to the right and y grows downwards from (0,0), the top-left corner. "
    "A position such as R10(18,7) names the room by its column then its row (both from 0) and "
    "then the tile's (x,y) on the whole map. Your direction is a code: 100 = facing right "
    "(+x), 101 = facing down (+y), 102 = facing left (-x), 103 = facing up (-y). Steps are "
    "relative to your facing: facing up, STRAFE_RIGHT moves you to +x. Every interaction "
    "(task, door, button, kill) targets your front tile: the one next to you in the direction "
    "you face, so turn to face a station or door before using it.")

MOVEMENT = (
    "Walls, task stations, the button, closed doors, bodies and other players block a step; "
    "open doors and floor do not. ALLOWED_ACTIONS lists exactly what you can do this step: "
    "choose one of those numbers and nothing else. Any other answer counts as invalid and "
    "you stand still (NOOP) for the step.")

HABITS = (
    "Good habits: do not step back and forth between the same tiles or turn on the spot "
    "without moving; when STALL_ALERT shows, you have stood still too long, so move on. Keep "
    "working a task with DO_TASK until its progress is full (it takes several toggles), then "
    "head for the next one.")

RUBRIC = (
    "Rate every other living player with a trust score from 0.0 to 1.0 (0.0 = surely an "
    "impostor, 1.0 = surely a crewmate):\n"
    "- 0.0 to 0.3: you saw them kill, or near a body, acting erratically, or accusing others "
    "without grounds;\n"
    "- 0.4 to 0.6: you know nothing either way;\n"
    "- 0.7 to 1.0: you saw them work at task stations, or they have otherwise been cleared.\n"
    "Vote for the player you trust least; when you are unsure, vote skip.")


def player_name(seat: int) -> str:
    return f"Player_{seat}"


def impostor_count(view: Mapping[str, Any]) -> int | None:
    """The number of impostors: an impostor knows its teammates; otherwise only if the public
    view carries it (the rules announce it when the game starts)."""
    public, private = view.get("public") or {}, view.get("private") or {}
    if private.get("role") == "impostor":
        return len(private.get("teammates") or ()) + 1
    for source in (public, public.get("map") or {}):
        count = source.get("impostors")
        if isinstance(count, int) and not isinstance(count, bool):
            return count
    return None


def oracle_level(public: Mapping[str, Any]) -> str:
    return str((public.get("map") or {}).get("oracle") or "low")


def identity_text(private: Mapping[str, Any]) -> str:
    role = with_article(private.get("role", "player"))
    return (f"You are {private.get('name', 'a player')}, {role}, in SocialGrid: a game of "
            "hidden roles played on a grid of rooms joined by doors. Crewmates walk to "
            "task stations and work them; impostors look like crewmates, but secretly kill "
            "them. Every step all living players act at once.")


def setup_text(view: Mapping[str, Any]) -> str:
    public = view.get("public") or {}
    m = public.get("map") or {}
    players = len(public.get("players") or ())
    count = impostor_count(view)
    impostors = (f"{count} of them impostor{'s' if count != 1 else ''}"
                 if count is not None else "some of them impostors (how many is not shown)")
    sight = ("you see the whole map" if m.get("observation") == "global" else
             f"you see up to {m.get('fov_radius', 4)} tiles away in x and y, except behind "
             "walls and closed doors")
    return (f"Setup: {players} players, {impostors}. The map is {m.get('rows', '?')} x "
            f"{m.get('cols', '?')} rooms of {m.get('room_size', '?')} x "
            f"{m.get('room_size', '?')} floor tiles ({m.get('width', '?')} x "
            f"{m.get('height', '?')} tiles with the walls); doors start closed. The game "
            f"lasts at most {m.get('max_steps', '?')} steps; {sight}.")


def goal_text(private: Mapping[str, Any]) -> str:
    if private.get("role") == "impostor":
        return ("How to win: you and your fellow impostors win when every crewmate is "
                "dead, when impostors are at least as many as the living crewmates, or "
                "when time runs out. The crewmates win if every impostor is voted out, "
                "or if every living crewmate finishes all their tasks.")
    return ("How to win: the crewmates (you among them) win when every living crewmate "
            "has finished all their tasks, or when every impostor has been voted out. "
            "The impostors win when they are at least as many as the living crewmates, or "
            "when time runs out. Your tasks and their stations are listed each step; a "
            "task takes several DO_TASK toggles while facing its station.")


def meetings_text(public: Mapping[str, Any]) -> str:
    interval = (public.get("map") or {}).get("vote_interval")
    scheduled = f", and every {interval} steps" if interval else ""
    return ("Meetings: a reported body or the emergency button calls a meeting"
            f"{scheduled}. At a meeting every living player votes to eject one player or "
            "skips; you will be asked separately.")


def oracle_text(public: Mapping[str, Any], impostor: bool) -> str:
    level = oracle_level(public)
    if level == "low":
        return ("There are no navigation hints: find your way from the observation, your "
                "position and the positions of your targets.")
    if impostor:
        target = ("the nearest crewmate you can see (only while your kill cooldown is 0; "
                  "otherwise you get no suggestion)")
        distances = "NEAREST_PLAYER_DIST gives its distance to the closest player you see"
    else:
        target = "your nearest unfinished task (or REPORT_DEADBODY when you see a body)"
        distances = ("TASK_NAV_ASTAR_DIST gives its distance to each of your tasks and "
                     "NEAREST_PLAYER_DIST to the closest player you see")
    hint = (f"BEST_ACTION_SUGGESTION is the first move of a shortest path to {target}, "
            f"from a planner that knows the whole map (walls, doors, turns); {distances}. "
            "Its hints are advice: you choose.")
    if level == "mid":
        hint += (" Each movement action is also listed with the position and direction "
                 "it would leave you in; use them to check your plan.")
    return hint


def impostor_advice(private: Mapping[str, Any], public: Mapping[str, Any]) -> str:
    mates = ", ".join(private.get("teammates") or ()) or "none"
    cooldown = (public.get("map") or {}).get("kill_cooldown")
    wait = f"{cooldown} steps" if cooldown is not None else "a number of steps"
    return (
        f"As an impostor: your fellow impostors are {mates}; you cannot kill them and "
        "should never vote for them. KILL (13) works only when a crewmate stands on your "
        "front tile and your kill cooldown is 0; after a kill, and after every meeting, "
        f"the cooldown starts again at {wait} (the steps remaining are shown each step). "
        "Witnesses: any player within a Manhattan distance of 2 of the kill, or who can "
        "see it, may report you, so kill only when no other crewmate is around. Blend in: "
        "walk to task stations and use DO_TASK there to look busy (it does nothing for "
        "you), keep moving, and do not linger near a body.")


def step_format(public: Mapping[str, Any], short: bool = False) -> str:
    if oracle_level(public) == "mid":
        fmt = ('{"thought": "<what you see and where you are going>", "plan": "<your next '
               'few moves towards your target>", "action": <number>}')
        lead = "reason step by step in the thought and the plan, then give the action; "
    else:
        fmt = '{"thought": "<short reasoning>", "action": <number>}'
        lead = ""
    if short:
        text = f"{lead}answer with one JSON object: {fmt}"
        return text[0].upper() + text[1:]
    return f"Answer format: {lead}reply with one JSON object and nothing after it: {fmt}"


def player_status(player: Mapping[str, Any]) -> str:
    status = player.get("status", "alive")
    role = player.get("role")
    was = f", was {with_article(role)}" if role else ""
    return f"{player.get('name')} ({status}{was})"


def last_vote_text(last: Mapping[str, Any]) -> str:
    ejected = last.get("ejected")
    votes = ", ".join(f"{player_name(int(v))}->{'skip' if t is None else player_name(t)}"
                      for v, t in sorted((last.get("votes") or {}).items(),
                                         key=lambda kv: int(kv[0])))
    if ejected is None:
        outcome = "nobody was ejected"
    else:
        role = f" ({with_article(last['role'])})" if last.get("role") else ""
        outcome = f"{player_name(ejected)} was ejected{role}"
    return f"Last meeting ({last.get('meeting')}, step {last.get('step')}): {outcome}; " \
           f"votes: {votes or 'none'}."
