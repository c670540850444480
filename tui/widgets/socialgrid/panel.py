"""SocialGrid's side panel: who you are and where, your tasks, what you may do, the step, the
crew's task progress, the players and the last vote. A spectator (no private view) gets only the
public part; so does a player who is out, with their role and tasks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from tui.widgets.socialgrid.grid_map import seat_of
from tui.widgets.socialgrid.keys import action_label
from tui.widgets.socialgrid.text import Namer, bar, facing_text, meeting_text, progress, vote_text

MAX_VOTES = 5  # meeting results listed, the latest
STATUS_STYLES = {"alive": "green", "dead": "bold red", "ejected": "yellow", "left": "dim"}


class SgPanel(Static):
    def show(self, public: dict[str, Any], private: dict[str, Any], me: int | None,
             name: Namer, seat_style: Callable[[int], Style] | None = None,
             votes: list[dict[str, Any]] | None = None) -> None:
        """`votes`: the results of the meetings so far that we have events of (oldest
        first); the public view's `last_vote` is added when they lack it."""
        text = Text()
        if private:
            _who(text, private, me, name)
        _step(text, public)
        if private.get("position"):
            text.append("At ", style="dim")
            text.append(str(private["position"]), style="bold")
            text.append(f"  facing {facing_text(private.get('facing'))}\n")
        if private.get("tasks") is not None:
            _tasks(text, private)
        allowed = private.get("allowed")
        if allowed and public.get("phase") == "tasks" and private.get("status") == "alive":
            text.append("Allowed ", style="bold")
            text.append(" · ".join(action_label(a) for a in allowed))
            text.append(" · z wait for news\n", style="dim")
        _crew(text, public)
        _players(text, public, me, name, seat_style)
        results = {v.get("meeting"): v for v in votes or []}
        last = public.get("last_vote")
        if last:
            results[last.get("meeting")] = last
        if results:
            shown = list(results.values())[-MAX_VOTES:]
            text.append("Votes\n" if len(shown) > 1 else "Last vote ", style="bold")
            for vote in shown:
                text.append_text(vote_text(vote, name))
                text.append("\n")
        elif public.get("meetings") == 0 and public.get("phase") == "tasks":
            text.append("No meeting yet.\n", style="dim")
        _table(text, public)
        text.rstrip()
        self.update(text)


def _who(text: Text, private: dict[str, Any], me: int | None, name: Namer) -> None:
    role = private.get("role", "?")
    text.append(name(me) if me is not None else private.get("name", "?"), style="bold")
    if me is not None and name(me) != private.get("name"):
        text.append(f" ({private.get('name')})", style="dim")
    text.append(" · ")
    text.append(role, style="bold red" if role == "impostor" else "bold green")
    if private.get("status") not in (None, "alive"):
        text.append(f" · {private['status']}", style=STATUS_STYLES.get(private["status"], ""))
    text.append("\n")
    if role == "impostor":
        mates = [seat_of(m) for m in private.get("teammates") or []]
        text.append("Fellow impostors: ", style="dim")
        text.append((", ".join(f"{m} {name(m)}" for m in mates if m is not None) or "none")
                    + "\n", style="red")
        cooldown = private.get("kill_cooldown", 0)
        text.append("Kill ", style="dim")
        text.append("ready\n" if not cooldown else f"in {cooldown} steps\n",
                    style="bold red" if not cooldown else "")


def _step(text: Text, public: dict[str, Any]) -> None:
    if "step" not in public:
        return
    text.append(f"Step {public['step']}/{public.get('max_steps', '?')}", style="bold")
    if public.get("phase") == "vote":
        text.append(" · meeting", style="bold yellow")
    elif public.get("next_meeting"):
        text.append(f" · meeting at {public['next_meeting']}", style="dim")
    text.append("\n")


def _tasks(text: Text, private: dict[str, Any]) -> None:
    tasks = private.get("tasks") or []
    if not tasks:
        return
    text.append("Your tasks\n", style="bold")
    pose = private.get("pose")
    for number, task in enumerate(tasks, start=1):
        done, total = progress(task)
        finished = bool(task.get("completed"))
        style = "dim green" if finished else "cyan" if done else "yellow"
        text.append(f" {'✓' if finished else 'T'}{number} ", style=f"bold {style}")
        text.append(f"{task.get('task_name', '?')} ", style="dim" if finished else "")
        text.append_text(bar(done, total, style=style))
        text.append(f" {done}/{total}", style=style)
        station = task.get("station")
        if not finished and station and pose:
            text.append(f" {task.get('position', '')}{_offset(pose, station)}", style="dim")
        text.append("\n")


def _offset(pose: list[int], station: list[int]) -> str:
    """Where a station lies from the seat, e.g. ` 3→ 5↓`."""
    dx, dy = station[0] - pose[0], station[1] - pose[1]
    parts = []
    if dx:
        parts.append(f"{abs(dx)}{'→' if dx > 0 else '←'}")
    if dy:
        parts.append(f"{abs(dy)}{'↓' if dy > 0 else '↑'}")
    return (" " + " ".join(parts)) if parts else ""


def _crew(text: Text, public: dict[str, Any]) -> None:
    total = int(public.get("tasks_total") or 0)
    if not total:
        return
    done = int(public.get("tasks_done") or 0)
    text.append("Crew tasks ", style="bold")
    text.append_text(bar(done, total, width=min(total, 15)))
    text.append(f" {done}/{total}\n")


def _players(text: Text, public: dict[str, Any], me: int | None, name: Namer,
             seat_style: Callable[[int], Style] | None) -> None:
    players = public.get("players") or []
    if not players:
        return
    text.append("Players ", style="bold")
    for i, p in enumerate(p for p in players if isinstance(p.get("seat"), int)):
        seat = p["seat"]
        if i:
            text.append(" · ", style="dim")
        text.append(f"{seat}", style=seat_style(seat) if seat_style else "bold")
        text.append(" " + name(seat) + (" (you)" if seat == me else ""))
        status = p.get("status", "?")
        text.append(f" {status}", style=STATUS_STYLES.get(status, ""))
        if p.get("role"):
            text.append(f" ({p['role']})", style="red" if p["role"] == "impostor" else "green")
    text.append("\n")
    meeting = public.get("meeting")
    if public.get("phase") == "vote" and meeting:
        voters = sum(1 for p in players if p.get("status") == "alive")
        text.append_text(meeting_text(meeting, name, voters))
        text.append("\n")


def _table(text: Text, public: dict[str, Any]) -> None:
    """The table's settings everyone may know: map, view, oracle, cooldown."""
    m = public.get("map") or {}
    if not m:
        return
    view = (f"limited view (radius {m.get('fov_radius')})" if m.get("observation") == "limited"
            else "global view")
    text.append(f"{m.get('rows')}x{m.get('cols')} rooms of {m.get('room_size')}x"
                f"{m.get('room_size')} · {view} · oracle {m.get('oracle')} · kill cooldown "
                f"{m.get('kill_cooldown')}\n", style="dim")
