"""SocialGrid's replay panel (tui/widgets/registry.py REPLAY_PANELS): the step line; for the
omniscient perspective the whole map with every agent and its facing, the bodies, the doors and
each crewmate's stations, beside the roster (a seat's perspective has its own game widget on the
replay screen instead); each agent's trust over the votes as a small plot (←/→ on the picker:
whose trust); the vote sessions with their tallies and each voter's reason. Everything comes
from the `replay` message's `extras` (server/replays/socialgrid.py) up to the frame's position
and from the frame's views. Narrow or short, it collapses to a summary of a few lines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from tui.widgets.cycler import Cycler
from tui.widgets.socialgrid.grid_map import ARROWS, GridMap, MapState
from tui.widgets.socialgrid.panel import STATUS_STYLES
from tui.widgets.socialgrid.trust_plot import TrustPlot
from tui.widgets.socialgrid.vote_sessions import VoteSessions, ended, held, tally_text

COMPACT_WIDTH, COMPACT_HEIGHT = 60, 14  # below either, the summary instead of the parts


def _public(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """The public state in a seat's view, or in the omniscient view's first seat."""
    if "seats" in view:
        seats = view.get("seats") or {}
        view = next(iter(seats.values()), {}) if seats else {}
    return view.get("public") or {}


def omniscient_map(view: Mapping[str, Any], extras: Mapping[str, Any], at: int
                   ) -> MapState | None:
    """The whole map at position `at`: the setup's, the doors toggled by then opened or closed,
    every agent in the game where it stands, the bodies lying there, each crewmate's stations
    by its progress."""
    state = MapState.from_setup(view.get("setup") or {})
    if state is None:
        return None
    rows = [list(r) for r in state.rows]
    for when, (x, y) in extras.get("doors") or []:
        if when <= at and 0 <= y < len(rows) and 0 <= x < len(rows[y]):
            rows[y][x] = "O" if rows[y][x] == "D" else "D"
    state.rows = ["".join(r) for r in rows]
    for key, seat_view in (view.get("seats") or {}).items():
        private = seat_view.get("private") or {}
        pose = private.get("pose")
        if pose:
            state.players[(int(pose[0]), int(pose[1]))] = (int(key), pose[2])
        for task in private.get("tasks") or []:  # an impostor's cover stations are not there
            station = task.get("station")
            pos = (int(station[0]), int(station[1])) if station else None
            if pos in state.tasks:
                stage = "done" if task.get("completed") else (
                    "doing" if task.get("done") else "todo")
                state.tasks[pos] = (state.tasks[pos][0], stage)
    state.corpses = {(int(b["pos"][0]), int(b["pos"][1])) for b in extras.get("bodies") or []
                     if b["from"] <= at and (b["until"] is None or at < b["until"])}
    return state


class SocialGridReplayPanel(Widget):
    DEFAULT_CSS = """
    SocialGridReplayPanel { height: 1fr; width: 1fr; }
    SocialGridReplayPanel #sgr-step { height: auto; }
    SocialGridReplayPanel #sgr-parts { height: 1fr; scrollbar-size-vertical: 1; }
    SocialGridReplayPanel #sgr-top { height: auto; }
    SocialGridReplayPanel #sgr-map { max-height: 17; margin: 0 2 0 0; }
    SocialGridReplayPanel #sgr-roster { width: 1fr; height: auto; }
    SocialGridReplayPanel TrustPlot { height: 10; }
    SocialGridReplayPanel TrustPlot.-empty { height: auto; }
    SocialGridReplayPanel #sgr-voters { height: 1; }
    SocialGridReplayPanel VoteSessions { height: auto; margin: 1 0 0 0; }
    SocialGridReplayPanel #sgr-summary { height: auto; display: none; }
    SocialGridReplayPanel.-compact #sgr-parts { display: none; }
    SocialGridReplayPanel.-compact #sgr-summary { display: block; }
    SocialGridReplayPanel.-seat #sgr-top { display: none; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.replay: Mapping[str, Any] = {}
        self.frame: Mapping[str, Any] = {}

    def compose(self) -> ComposeResult:
        yield Static("", id="sgr-step")
        yield Static("", id="sgr-summary")
        with VerticalScroll(id="sgr-parts"):
            with Horizontal(id="sgr-top"):
                yield GridMap(id="sgr-map")
                yield Static("", id="sgr-roster")
            yield Cycler("Trust of", [], id="sgr-voters")
            yield TrustPlot(id="sgr-trust")
            yield VoteSessions(id="sgr-votes")

    def on_mount(self) -> None:
        self.query_one("#sgr-parts").can_focus = False

    def on_resize(self) -> None:
        self.set_class(self.size.width < COMPACT_WIDTH or self.size.height < COMPACT_HEIGHT,
                       "-compact")

    # -- what the replay shows ---------------------------------------------------------------
    def seat_name(self, seat: int) -> str:
        names = self.replay.get("names") or []
        return str(names[seat]) if 0 <= seat < len(names) else f"Player_{seat}"

    @property
    def at(self) -> int:
        return int(self.frame.get("at") or 0)

    def show(self, replay: Mapping[str, Any], frame: Mapping[str, Any]) -> None:
        self.replay, self.frame = replay, frame
        extras = replay.get("extras") or {}
        seat = replay.get("seat")
        self.set_class(seat is not None, "-seat")
        voters = self.query_one("#sgr-voters", Cycler)
        options = [(v, self.seat_name(int(v))) for v in sorted(extras.get("trust") or {}, key=int)]
        voters.set_options(options, str(seat) if seat is not None else None)
        voters.display = len(options) > 1
        self.query_one("#sgr-step", Static).update(self._step_line())
        if seat is None:
            self._draw_map(extras)
        self._draw_trust()
        grid = self.query_one(GridMap)
        self.query_one(VoteSessions).show(extras.get("sessions") or [], self.at, self.seat_name,
                                          grid.seat_style)
        self.query_one("#sgr-summary", Static).update(self._summary())

    def _step_line(self) -> Text:
        frame = self.frame
        clock = frame.get("clock") or {}
        public = _public(frame.get("view") or {})
        text = Text(f"Step {clock.get('step', public.get('step', 0))}", style="bold")
        if public.get("max_steps"):
            text.append(f"/{public['max_steps']}")
        phase = clock.get("phase") or public.get("phase")
        if phase == "vote" and clock.get("meeting"):
            phase = f"meeting {clock['meeting']}"
        text.append(f" · {phase}")
        if public.get("tasks_total"):
            text.append(f" · tasks {public.get('tasks_done', 0)}/{public['tasks_total']}")
        players = public.get("players") or []
        seats = (frame.get("view") or {}).get("seats")
        if seats:  # omniscient: the dead nobody has found yet are dead too
            players = [v.get("private") or {} for v in seats.values()]
        alive = sum(p.get("status") == "alive" for p in players)
        if players:
            text.append(f" · alive {alive}/{len(players)}")
        text.append(f" · frame {self.at + 1}/{self.replay.get('count', '?')}", style="dim")
        return text

    def _draw_map(self, extras: Mapping[str, Any]) -> None:
        view = self.frame.get("view") or {}
        grid = self.query_one(GridMap)
        grid.show(omniscient_map(view, extras, self.at))
        roles = {s: (r.get("name") if isinstance(r, Mapping) else str(r))
                 for s, r in enumerate((view.get("setup") or {}).get("roles") or [])}
        text = Text()
        for key, seat_view in sorted((view.get("seats") or {}).items(), key=lambda kv: int(kv[0])):
            seat = int(key)
            private = seat_view.get("private") or {}
            status = private.get("status", "?")
            text.append(f"{seat}{ARROWS.get(private.get('facing') or 0, ' ')} ",
                        grid.seat_style(seat))
            text.append(self.seat_name(seat), "bold")
            role = roles.get(seat)
            if role:
                text.append(f" {role}", "bold red" if role == "impostor" else "green")
            text.append(f" {status}\n", STATUS_STYLES.get(status, ""))
        text.append("X body  T<seat> task  ✓ done", "dim")
        self.query_one("#sgr-roster", Static).update(text)

    def _meeting_numbers(self) -> dict[int, int]:
        sessions = (self.replay.get("extras") or {}).get("sessions") or []
        return {s["at"]: s["meeting"] for s in sessions if isinstance(s.get("at"), int)}

    def _draw_trust(self) -> None:
        trust = (self.replay.get("extras") or {}).get("trust") or {}
        voter = self.query_one("#sgr-voters", Cycler).value
        meeting = self._meeting_numbers()
        grid = self.query_one(GridMap)
        series, colors = {}, {}
        for rated, points in (trust.get(voter) or {}).items():
            name = self.seat_name(int(rated))
            series[name] = [(meeting[at], t) for at, t in points if at <= self.at and at in meeting]
            color = grid.seat_style(int(rated)).color
            if color is not None and color.triplet is not None:
                colors[name] = tuple(color.triplet)
        title = f"{self.seat_name(int(voter))}'s trust (0 impostor .. 1 crewmate)" if voter else ""
        self.query_one(TrustPlot).show(title, series, colors)

    @on(Cycler.Changed, "#sgr-voters")
    def _voter_changed(self) -> None:
        if self.replay:
            self._draw_trust()

    def _summary(self) -> Text:
        """A few lines for a small space: the latest session's result and tally, and the
        perspective's trust at its last vote."""
        sessions = held((self.replay.get("extras") or {}).get("sessions") or [], self.at)
        if not sessions:
            return Text("No meeting yet.", style="dim")
        last = sessions[-1]
        text = Text(f"Meeting {last['meeting']}: ", style="bold")
        if not ended(last, self.at):
            text.append("voting…", style="italic")
            return text
        ejected = last.get("ejected")
        text.append("nobody ejected" if ejected is None else f"{self.seat_name(ejected)} ejected"
                    + (f" ({last['role']})" if last.get("role") else ""))
        text.append("\n")
        text.append_text(tally_text(last, self.seat_name))
        seat = self.replay.get("seat")
        own = next((b for b in last.get("ballots") or [] if b.get("voter") == seat), None)
        if own and own.get("reason"):
            text.append(f"\nYour reason: {own['reason']}", style="italic")
        return text
