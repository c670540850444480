"""AmongAgents: the ship map, on your move the numbered list of what you may do, and under them
a panel (the meeting's speeches, where you are and who is there, your tasks and their ways, the
camera, what you saw and did, the players, the votes). The screen's transcript beside it keeps
every event you were told of.

Keys: 1-9 and 0 pick that action at once (↑/↓ and Enter work too). SPEAK opens a line for your
words (Enter sends; Enter on an empty line goes back to the list); VIEW MONITOR opens the list of
rooms to watch. At a meeting's discussion the line is open on your turn. A spectator, or a
player who is out, gets the map and the panel only."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from tui.session import Session
from tui.widgets.amongagents.panel import banner, panel
from tui.widgets.amongagents.ship_map import ShipMap, ShipState, vent_pairs
from tui.widgets.env_widget import EnvWidget
from tui.widgets.speech_line import SpeechLine

KEYS = "1234567890"  # the action each key picks: 1 the first, ..., 0 the tenth
QUIET = "You speak when you choose SPEAK, or on your turn at a meeting"


class AmongAgentsGame(EnvWidget):
    BINDINGS = [Binding(k, f"pick({i})", "Pick action", key_display="1-9", show=i == 0)
                for i, k in enumerate(KEYS)]
    SHOWS_PRIVATE = True  # the panel and the map show what only this seat knows

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.turn: Any = None  # the turn the list or the line was opened for
        self.kind: str | None = None
        self.options: list[dict[str, Any]] = []  # the offers of the open list, in order
        self.arg_for: dict[str, Any] | None = None  # the offer whose argument is being given

    def compose(self) -> ComposeResult:
        yield Static("", id="aa-banner")
        yield ShipMap(id="aa-map")
        yield Static("", id="aa-legend")
        yield Static("", id="aa-ask")
        yield OptionList(id="aa-actions")
        yield OptionList(id="aa-rooms")
        yield SpeechLine(QUIET, id="aa-say")
        with VerticalScroll(id="aa-side"):
            yield Static("", id="aa-panel")

    def on_mount(self) -> None:
        self.query_one("#aa-side").can_focus = False

    # -- the game as the server shows it ----------------------------------------------------
    def show(self, session: Session) -> None:
        public, private, me = session.public, session.private, session.seat
        over = session.over
        legal = session.legal if not over else None
        name = session.seat_name
        board = (session.env_info("amongagents") or {}).get("board") or {}
        my_turn = bool(legal) and bool(private.get("turn"))
        self.set_class(me is None, "-watching")
        self.query_one("#aa-banner", Static).update(banner(public, private, me, my_turn, name))
        vent_set = public.get("vents") if private.get("side") == "impostor" else None
        self.query_one(ShipMap).show(board, ShipState.from_private(private), vent_set)
        self.query_one("#aa-legend", Static).update(_legend(board, vent_set))
        self.query_one("#aa-panel", Static).update(
            panel(public, private, me, name, session.game_over))
        kind = legal.get("kind") if my_turn and legal else None
        turn = (session.turn or {}).get("turn")
        if kind is None:
            self._close()
        elif (turn, kind) != (self.turn, self.kind):
            self.turn, self.kind = turn, kind
            if kind == "text":
                self._open_line(legal or {}, "Your words to the meeting (Enter sends)")
            else:
                self._open_list(legal or {}, session)

    def _open_list(self, legal: dict[str, Any], session: Session) -> None:
        self._quiet()
        self.options = list(legal.get("options") or [])
        actions = self.query_one("#aa-actions", OptionList)
        actions.clear_options()
        actions.add_options([
            Option(f"{KEYS[i] if i < len(KEYS) else ' '}  "
                   f"{session.in_our_names(str(o.get('label', o.get('id'))))}", id=str(i))
            for i, o in enumerate(self.options)])
        actions.highlighted = 0 if self.options else None
        self.query_one("#aa-ask", Static).update(session.in_our_names(legal.get("prompt", "")))
        self._parts(picking=True)
        actions.focus()

    def _open_line(self, legal: dict[str, Any], placeholder: str) -> None:
        self._parts(speaking=True)
        self.query_one(SpeechLine).open(placeholder, legal.get("max_chars"))

    def _close(self) -> None:
        self.turn = self.kind = None
        self.options, self.arg_for = [], None
        self._quiet()
        self._parts()

    def _quiet(self) -> None:
        self.query_one(SpeechLine).quiet()

    def _parts(self, picking: bool = False, speaking: bool = False,
               rooms: bool = False) -> None:
        """Which of the asking parts show (the .tcss lays them out)."""
        self.set_class(picking, "-picking")
        self.set_class(speaking, "-speaking")
        self.set_class(rooms, "-rooms")

    # -- choosing ---------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick":  # the number keys work while the list is open, and only then
            return self.has_class("-picking") and bool(self.options)
        return True

    def action_pick(self, index: int) -> None:
        if 0 <= index < len(self.options):
            self._chosen(index)

    @on(OptionList.OptionSelected, "#aa-actions")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self._chosen(int(event.option.id))

    def _chosen(self, index: int) -> None:
        offer = self.options[index]
        arg = offer.get("arg")
        if not arg:
            self._send({"choice": offer["id"]})
        elif arg.get("kind") == "choice":
            self.arg_for = offer
            rooms = self.query_one("#aa-rooms", OptionList)
            rooms.clear_options()
            rooms.add_options([Option(str(o.get("label", o["id"])), id=str(o["id"]))
                               for o in arg.get("options") or ()])
            rooms.highlighted = 0
            self.query_one("#aa-ask", Static).update(f"{arg.get('label', 'Choose')}:")
            self._parts(rooms=True)
            rooms.focus()
        else:
            self.arg_for = offer
            self._open_line(arg, "What you say to the room (Enter sends; empty: back)")

    @on(OptionList.OptionSelected, "#aa-rooms")
    def _room(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.arg_for is not None and event.option.id is not None:
            self._send({"choice": self.arg_for["id"], "arg": event.option.id})

    @on(Input.Submitted, "#aa-say")
    def _said(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if self.kind == "text":  # a meeting's discussion: an empty line passes
            self._send({"text": text})
        elif self.arg_for is not None and text:
            self._send({"choice": self.arg_for["id"], "arg": text})
        elif self.kind == "choice":  # nothing said: back to the list
            self.arg_for = None
            self._quiet()
            self._parts(picking=True)
            self.query_one("#aa-actions", OptionList).focus()

    def _send(self, action: dict[str, Any]) -> None:
        self._quiet()
        self._parts()
        self.options, self.arg_for = [], None
        self.post_message(self.Act(action))


def _legend(board: dict[str, Any], vent_set: str | None) -> str:
    keys = "● you  › a corridor away  ! your task  ✝ a body  ◉ the camera"
    if vent_set is None:
        return keys
    vents = ", ".join(f"{a}–{b}" for a, b in vent_pairs(board, vent_set))
    return f"{keys}  ≋ a vent away\nVents: {vents}"
