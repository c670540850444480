"""SocialGrid lines shared by its widgets: meetings, vote results, progress bars and the
Planning Oracle's hint, each as Rich text from the server's view (players named by `name`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text

from tui.widgets.socialgrid.grid_map import ARROWS, FACING_WORDS
from tui.widgets.socialgrid.keys import ACTIONS, BY_NAME, action_label

ACTION_NAMES = {i: a.name for i, a in ACTIONS.items()}
STEPS = (0, 1, 2, 3)  # the actions that move the player a tile

Namer = Callable[[int], str]
REASONS = {"report": "reported a body", "button": "pressed the emergency button"}


def number(value: Any) -> str:
    """A distance as the oracle gives it (halves; None = unreachable)."""
    if value is None:
        return "unreachable"
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def bar(done: int, total: int, width: int | None = None, style: str = "green") -> Text:
    """`■■■□□`: one mark per step (or `width` marks, scaled)."""
    total = max(total, 0)
    width = total if width is None else width
    filled = 0 if total == 0 else round(width * min(done, total) / total)
    text = Text("■" * filled, style=style)
    text.append("□" * (width - filled), style="dim")
    return text


def progress(task: dict[str, Any]) -> tuple[int, int]:
    done, _, need = str(task.get("progress", "0/0")).partition("/")
    total = int(need) if need.isdigit() else int(task.get("steps_required") or 0)
    return (int(done) if done.isdigit() else 0), total


def meeting_text(meeting: dict[str, Any], name: Namer, players: int | None = None) -> Text:
    """Who called the meeting and why, who was found dead, and (with `players`, the number of
    voters) how many have voted."""
    caller = meeting.get("called_by")
    text = Text(f"Meeting {meeting.get('number', '?')}", style="bold")
    if isinstance(caller, int):
        text.append(f": {name(caller)} {REASONS.get(meeting.get('reason'), 'called it')}")
    else:
        text.append(": a scheduled meeting")
    text.append(f" (step {meeting.get('step', '?')})")
    dead = meeting.get("found_dead") or []
    if dead:
        text.append(" · found dead: ", style="bold red")
        text.append(", ".join(name(s) for s in dead), style="red")
    body = meeting.get("body")
    if isinstance(body, int) and body not in dead:
        text.append(f" · the body of {name(body)}", style="red")
    if players is not None:
        text.append(f" · voted {len(meeting.get('voted') or [])}/{players}", style="dim")
    return text


def vote_text(vote: Mapping[str, Any], name: Namer, heading: bool = True) -> Text:
    """A meeting's result: who was ejected (and as what, when announced), then every ballot;
    `heading`: after the meeting's number."""
    text = Text(f"Meeting {vote.get('meeting', '?')}: " if heading else "", style="bold")
    ejected = vote.get("ejected")
    if isinstance(ejected, int):
        text.append(f"{name(ejected)} ejected", style="bold yellow")
        if vote.get("role"):
            role = vote["role"]
            text.append(f" — {'an' if role[:1] in 'aeiou' else 'a'} {role}",
                        style="bold red" if role == "impostor" else "bold green")
    else:
        text.append("nobody ejected", style="bold")
    votes = vote.get("votes") or {}
    if votes:
        ballots = [f"{name(int(v))}→{'skip' if t is None else name(int(t))}"
                   for v, t in sorted(votes.items(), key=lambda kv: int(kv[0]))]
        text.append(" (" + ", ".join(ballots) + ")", style="dim")
    return text


def facing_text(facing: Any) -> str:
    return f"{ARROWS.get(facing, '?')} {FACING_WORDS.get(facing, '?')} ({facing})"


def hint_text(private: dict[str, Any], public: dict[str, Any], playing: bool) -> Text:
    """The Planning Oracle's advice as the table's level gives it (high: best action, goal and
    distances; mid: also where each move leads; low: none)."""
    level = (public.get("map") or {}).get("oracle")
    if not playing:
        return Text("Oracle: it advises the living players only.", style="dim italic")
    if level == "low":
        return Text("Oracle: there is no oracle at this table (level low) — find your own way.",
                    style="italic")
    if public.get("phase") == "vote":
        return Text("Oracle: no hints during a meeting.", style="dim italic")
    oracle = private.get("oracle")
    if not oracle:
        return Text("Oracle: no hints in this view.", style="dim italic")
    text = Text("Oracle ", style="bold")
    text.append(f"({oracle.get('level', level)}): ", style="dim")
    best = oracle.get("best_action")
    if isinstance(best, int):
        text.append("best ", style="bold")
        text.append(action_label(best), style="bold reverse")
    else:
        text.append("no suggestion now", style="italic")
    if oracle.get("goal"):
        text.append(f" towards {oracle['goal']}")
    distances = oracle.get("task_distances") or {}
    if distances:
        text.append(" · tasks: ", style="dim")
        text.append(", ".join(f"{k} {number(v)}" for k, v in distances.items()))
    extras = [f"{label} {number(oracle[key])}" for key, label in
              (("nearest_player", "nearest player"), ("button", "button"), ("body", "body"))
              if oracle.get(key) is not None]
    if extras:
        text.append(" · " + ", ".join(extras), style="dim")
    outcomes = oracle.get("outcomes") or {}
    if outcomes:
        text.append("\nIf you: ", style="bold")
        parts = []
        for move in sorted(outcomes, key=lambda n: BY_NAME.get(n, 99)):
            pose = outcomes[move].get("pose") or [None, None, None]
            key = action_label(BY_NAME[move]).split(" ")[0] if move in BY_NAME else move
            parts.append(f"{key} {move} → {outcomes[move].get('position', '?')} "
                         f"{ARROWS.get(pose[2], '')}")
        text.append(" · ".join(parts))
    return text


def last_step_text(private: dict[str, Any], awaited: bool = True) -> Text:
    """How the seat's last step went (from its history: a step that did not happen shows as
    blocked), and the stall alert; before the first step, where to find the keys if the seat
    is `awaited` (not in a replay, where nothing is played)."""
    history = private.get("history") or []
    if not history:
        if not awaited:
            return Text("No step yet.", style="dim")
        return Text("Your move: the keys allowed now are under Allowed; ? lists every key.", style="dim")
    last = history[-1]
    action = last.get("action")
    name = ACTION_NAMES.get(action, str(action))
    text = Text(f"Step {last.get('step')}: ", style="dim")
    text.append(name, style="bold")
    if last.get("from") != last.get("to"):
        text.append(f" {last.get('from')} → {last.get('to')}", style="dim")
    elif action in STEPS:
        text.append(" — blocked, you did not move", style="yellow")
    if private.get("stall_alert"):
        text.append("  STALL ALERT: you have not moved for several steps", style="bold yellow")
    return text
