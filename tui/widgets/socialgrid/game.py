"""SocialGrid (Among Us on a grid): the seat's map and side panel, a key per action, the Planning
Oracle's hint on h, and the ballot during a meeting.

Keys (a wide footer shows the ones allowed now, the panel always does): w/↑ forward, s/↓
backward, a/d strafe, ←/→ turn, b turn back, . or space wait (NOOP), e do task, o/c open/close
door, r report a body, m call a meeting, k kill; h shows or hides the oracle's hint. Each sends
{"choice": "<id>"} for the current step, as a bot does. A key for an action that is not allowed
now says so and sends nothing (keys.py: the two bindings of each key).

z waits until something happens: the widget sends a NOOP each step, marked as a wait
({"choice": "7", "wait": true}), until its own view shows news — a player or a body that was not
in sight the step before, a meeting, the seat's death, the end — or any action key (or z again)
is pressed. It reads nothing but the seat's own view (docs/rules/socialgrid.md, "Waiting").

A spectator gets the public state only (positions are private); a player who is out gets a
notice and keeps watching."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from tui.session import Session
from tui.widgets.env_widget import EnvWidget
from tui.widgets.socialgrid.ballot_form import BallotForm
from tui.widgets.socialgrid.grid_map import GridMap, MapState, seat_of
from tui.widgets.socialgrid.keys import ACTION_BINDINGS, ACTIONS, BY_NAME, action_label
from tui.widgets.socialgrid.panel import SgPanel
from tui.widgets.socialgrid.text import hint_text, last_step_text, meeting_text

SIDE_ROOM = 44  # columns the panel keeps beside a map of 4x2 characters a tile
PANEL_ROOM = 16  # rows it keeps below one
RESERVED = 7  # rows kept for the legend, the hint and the status line
NOTICE_SECONDS = 4.0  # a refused key's notice stays this long
WAITING = Text("Waiting (z): a NOOP each step until someone or a body comes into sight or a "
               "meeting starts — z or any action key stops", style="bold")
OUT = {"dead": "You were killed", "ejected": "You were ejected by a meeting",
       "left": "You left the game"}


NOOP = BY_NAME["NOOP"]


def in_sight(private: dict[str, Any]) -> frozenset[str]:
    """What the seat's own view shows that a wait stops for: players by name, bodies by place."""
    observation = private.get("observation") or {}
    players = (observation.get("players") or {}).keys()
    bodies = (f"body at {c.get('position') or c.get('pos')}"
              for c in observation.get("corpses") or [])
    return frozenset([*players, *bodies])


def _sight_words(seen: str, session: Session) -> str:
    seat = seat_of(seen)
    return session.seat_name(seat) if seat is not None else seen


class SocialGridGame(EnvWidget, can_focus=True):
    BINDINGS = [*ACTION_BINDINGS, Binding("h", "hint", "Oracle hint"),
                Binding("z", "wait", "Wait for news"),
                Binding("z", "wait_quietly", "Wait for news", show=False)]
    SHOWS_PRIVATE = True  # the map and the panel show everything the seat may know

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.session: Session | None = None
        self.hinting = False
        self.allowed: tuple[int, ...] = ()  # the actions the footer offers now
        self.playing = False  # a living player in the tasks phase
        self._last_step: Text | None = None
        self._keys_state: tuple[Any, ...] = ()
        self._refusal: Text | None = None  # a refused key's notice, shown for a while
        self._refusal_timer: Any = None
        self._sent: Text | None = None  # what we sent for the step being resolved
        self.waiting: frozenset[str] | None = None  # waiting (z): what was in sight last step
        self._wait_sent: int | None = None  # the turn a wait's NOOP last answered

    def compose(self) -> ComposeResult:
        yield Static("", id="sg-notice")
        with Horizontal(id="sg-main"):
            with Vertical(id="sg-left"):
                yield GridMap(id="sg-map")
                yield BallotForm(id="sg-ballot")
            with VerticalScroll(id="sg-side"):
                yield SgPanel(id="sg-panel")
        yield Static("", id="sg-legend")
        yield Static("", id="sg-hint")
        yield Static("", id="sg-status")

    def on_mount(self) -> None:
        self.query_one("#sg-side").can_focus = False
        for wid in ("#sg-hint", "#sg-status", "#sg-notice"):
            self.query_one(wid).display = False

    def on_show(self) -> None:
        """Back on screen (ctrl+t on a narrow terminal): the step keys work again at once."""
        if self.playing and self.screen.focused is None:
            self.focus()

    # -- the game as the server shows it ----------------------------------------------------
    def show(self, session: Session) -> None:
        self.session = session
        public = session.public
        me = session.seat
        private = session.private
        over = session.over
        alive = me is not None and private.get("status") == "alive" and not over
        phase = public.get("phase")
        voting = alive and phase == "vote"
        playing = alive and phase == "tasks"
        self.set_class(voting, "-meeting")
        self.set_class(me is None, "-watching")
        grid = self.query_one(GridMap)
        names = {p["seat"]: session.seat_name(p["seat"]) for p in public.get("players") or []
                 if isinstance(p.get("seat"), int)}

        goal = (private.get("oracle") or {}).get("goal") if self.hinting else None
        has_map = alive and bool(private.get("observation")) and not voting
        grid.display = has_map
        grid.show(MapState.from_private(private, goal) if has_map else None)
        self._fit_map()
        legend = self.query_one("#sg-legend", Static)
        legend.display = has_map
        if has_map:
            legend.update(grid.legend(names))
        votes = [e["data"] for e in session.events
                 if e.get("type") == "vote_result" and isinstance(e.get("data"), dict)]
        self.query_one(SgPanel).show(public, private, me, session.seat_name, grid.seat_style,
                                     votes)
        self._ballot(session, public, private, voting)
        self._notice(public, private, me, over)
        hint = self.query_one("#sg-hint", Static)
        hint.display = self.hinting and playing
        if hint.display:
            hint.update(hint_text(private, public, playing))

        self.playing = playing
        self.allowed = tuple(private.get("allowed") or ()) if playing else ()
        state = (playing, self.allowed, me is not None)
        if state != self._keys_state:
            self._keys_state = state
            self.refresh_bindings()
        if session.awaiting_us:
            self._sent = None  # a new step: the line shows how the last one went
        self._last_step = last_step_text(private, session.awaiting_us) if playing else None
        if self.waiting is not None:
            self._wait_on(session, private, playing)
        self._draw_status()
        if playing:
            focused = self.screen.focused
            ballot = self.query_one(BallotForm)
            if focused is None or focused is ballot or ballot in focused.ancestors:
                self.focus()

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_map)

    def _fit_map(self) -> None:
        """Lay out for the room there is: tiles of 4x2 characters beside the panel (wide), or
        above it (tall); else 2x1 beside it. A meeting's ballot goes above the panel (which a
        narrow terminal hides then)."""
        main = self.query_one("#sg-main").size
        room = self.content_region.height - RESERVED  # whatever the lines below may take
        grid = self.query_one(GridMap)
        cols, lines = grid.extent
        if not main.width:
            return
        if self.has_class("-meeting") or not cols:  # the ballot, above the panel
            grid.set_zoom(1)
            self.set_class(self.has_class("-meeting"), "-tall")
            return
        wide = 4 * cols + SIDE_ROOM <= main.width and 2 * lines <= room
        tall = 4 * cols <= main.width and 2 * lines + PANEL_ROOM <= room
        self.set_class(tall and not wide, "-tall")
        grid.set_zoom(2 if wide or tall else 1)

    def _ballot(self, session: Session, public: dict[str, Any], private: dict[str, Any],
                voting: bool) -> None:
        ballot = self.query_one(BallotForm)
        ballot.display = voting
        if not voting:
            if ballot.active:
                ballot.hold("")
            return
        meeting = public.get("meeting") or {}
        voters = sum(1 for p in public.get("players") or [] if p.get("status") == "alive")
        header = meeting_text(meeting, session.seat_name, voters)
        legal = session.legal
        if legal is not None and legal.get("kind") == "form":
            if not ballot.active:
                ballot.start(legal, lambda s: session.seat_name(int(s)), header,
                             previous=private.get("trust") or {}, meeting=meeting.get("number"))
                ballot.focus()
            else:
                ballot.header = header
                ballot.refresh_rows()
        elif private.get("voted"):
            ballot.hold("Ballot sent — waiting for the others to vote…", header)
        else:
            ballot.hold("Waiting for the meeting…", header)

    def _notice(self, public: dict[str, Any], private: dict[str, Any], me: int | None,
                over: bool) -> None:
        notice = self.query_one("#sg-notice", Static)
        text = Text()
        mode = (public.get("map") or {}).get("observation", "limited")
        if over:
            text.append("The game is over.", style="bold")
        elif me is None:
            text.append("You are watching. ", style="bold")
            text.append("Positions are private under a limited field of view: spectators see "
                        "the public state only." if mode == "limited" else
                        "Positions are private: spectators see the public state only.")
        elif private.get("status") in OUT:
            text.append(f"{OUT[private['status']]}: you are out of the game. ", style="bold")
            text.append("Keep watching — the panel follows the game to its end.")
        notice.update(text)
        notice.display = bool(text.plain)

    def reveal(self, setup: Mapping[str, Any], names: Mapping[int, str]
               ) -> tuple[RenderableType, Collection[str]] | None:
        """Every role, and the map as the game draws it with where each player started and
        each crewmate's stations (T and the seat's number)."""
        roles = setup.get("roles")
        state = MapState.from_setup(setup)
        if state is None or not isinstance(roles, list):
            return None
        grid = self.query_one(GridMap)
        for seat, spawn in enumerate(setup.get("spawns") or []):
            if isinstance(spawn, list) and len(spawn) >= 2:
                state.players[(int(spawn[0]), int(spawn[1]))] = (
                    seat, spawn[2] if len(spawn) > 2 else None)
        tasks = setup.get("tasks") if isinstance(setup.get("tasks"), Mapping) else {}
        text = Text()
        for seat, role in enumerate(roles):
            name = role.get("name") if isinstance(role, Mapping) else str(role)
            text.append(f"{seat} ", grid.seat_style(seat))
            text.append(f"{names.get(seat, f'seat {seat}')}  ", "bold")
            text.append(str(name), "bold red" if name == "impostor" else "green")
            own = tasks.get(str(seat)) or []
            if own:
                text.append("  tasks " + ", ".join(str(t.get("name")) for t in own
                                                   if isinstance(t, Mapping)), "dim")
            text.append("\n")
        text.append("The map: where each player started (seat and facing), each crewmate's "
                    "task stations (T and the seat)\n", "dim")
        text.append_text(grid.picture(state))
        return text, ("roles", "impostors", "spawns", "tasks", "map")

    # -- keys --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "act":
            # At 80 columns too: the footer takes a second line when its keys need it.
            return self.playing and bool(parameters) and parameters[0] in self.allowed
        if action == "act_quietly":
            return self.playing
        if action in ("hint", "wait_quietly"):
            return self.playing
        if action == "wait":
            return self.playing and not self.screen.has_class("-narrow")
        return True

    def action_act(self, action: int) -> None:
        if self.waiting is not None:  # a key of one's own ends the wait
            self._stop_waiting("Stopped waiting")
        session = self.session
        legal = session.legal if session is not None else None
        name = f"{ACTIONS[action].name} ({ACTIONS[action].shown})"
        if action not in self.allowed:
            self.say(f"{name} is not allowed now — nothing sent", refused=True)
            return
        if session is None or legal is None or legal.get("kind") != "choice":
            self.say(f"{name}: wait — this step is still being resolved", refused=True)
            return
        if str(action) not in [o.get("id") for o in legal.get("options") or []]:
            self.say(f"{name} is not allowed now — nothing sent", refused=True)
            return
        self._sent = Text(f"Sent {action_label(action)} — waiting for the step…", style="dim")
        self._draw_status()
        self.post_message(self.Act({"choice": str(action)}))

    def action_act_quietly(self, action: int) -> None:
        self.action_act(action)

    # -- waiting (z): a NOOP each step until the seat's own view shows news -----------------------
    def action_wait(self) -> None:
        if self.waiting is not None:
            self._stop_waiting("Stopped waiting")
            return
        if self.session is None or not self.playing:
            return
        self.waiting = in_sight(self.session.private)
        self._wait_on(self.session, self.session.private, self.playing)
        self._draw_status()

    def action_wait_quietly(self) -> None:
        self.action_wait()

    def _wait_on(self, session: Session, private: dict[str, Any], playing: bool) -> None:
        """One step of a wait: stop at news, else answer this step with a waiting NOOP."""
        if not playing:
            phase = session.public.get("phase")
            self._stop_waiting("Stopped waiting: a meeting" if phase == "vote" and not
                               session.over else "Stopped waiting")
            return
        seen = in_sight(private)
        news = sorted(seen - (self.waiting or frozenset()))
        if news:
            self._stop_waiting("Stopped waiting: " + ", ".join(
                _sight_words(n, session) for n in news) + " in sight")
            return
        self.waiting = seen
        turn = session.turn or {}
        legal = session.legal or {}
        if (session.awaiting_us and turn.get("turn") != self._wait_sent
                and legal.get("kind") == "choice"
                and str(NOOP) in [o.get("id") for o in legal.get("options") or []]):
            self._wait_sent = turn.get("turn")
            self.post_message(self.Act({"choice": str(NOOP), "wait": True}))

    def _stop_waiting(self, why: str) -> None:
        self.waiting = None
        self._wait_sent = None
        self.say(why)

    def action_hint(self) -> None:
        self.hinting = not self.hinting
        if self.session is not None:
            self.show(self.session)

    @on(BallotForm.Submitted)
    def _voted(self, event: BallotForm.Submitted) -> None:
        event.stop()
        self.post_message(self.Act(event.ballot))

    # -- the status line: a refused key's notice, else what we sent, else the last step ------
    def say(self, message: str, *, refused: bool = False) -> None:
        """A short notice on the status line (a refusal rings the bell and stays a while)."""
        self._refusal = Text(message, style="bold red" if refused else "bold")
        if refused:
            self.app.bell()
        if self._refusal_timer is not None:
            self._refusal_timer.stop()
        self._refusal_timer = self.set_timer(NOTICE_SECONDS, self._end_refusal)
        self._draw_status()

    def _end_refusal(self) -> None:
        self._refusal = self._refusal_timer = None
        self._draw_status()

    def _draw_status(self) -> None:
        status = self.query_one("#sg-status", Static)
        line = self._refusal or (WAITING if self.waiting is not None else None) or (
            self._sent or self._last_step)
        status.display = line is not None
        if line is not None:
            status.update(line)
