"""Secret Mafia: the phase banner, the day's speeches, a side panel (role card, players and how
they went, who voted whom, the roles once revealed) and, on your turn, the speech line or a
target picker listing exactly the valid targets.

Keys: on a speech turn type and press Enter (an empty line keeps quiet); on a choice ↑/↓ pick
a target and Enter sends it (a Mafia member may first type a note to the teammates below the
list; Enter there sends too). A spectator, or a player who is out, gets the banner, the speeches
and the panel only. Under 110 columns the panel goes below the speeches."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from tui.session import Session
from tui.widgets.chat_log import ChatLog
from tui.widgets.env_widget import EnvWidget
from tui.widgets.secret_mafia.panel import banner, panel
from tui.widgets.speech_line import SpeechLine

QUIET = "You speak on your turn"
ASK = {"kill": "Tonight's victim (your teammates see your vote):",
       "protect": "Protect tonight:", "investigate": "Investigate tonight:",
       "vote": "Your vote — eliminate:"}


class SecretMafiaGame(EnvWidget):
    SHOWS_PRIVATE = True  # the role card shows what only this seat knows

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.turn: Any = None  # the turn the picker or speech line was opened for
        self.kind: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="sm-banner")
        with Horizontal(id="sm-main"):
            with Vertical(id="sm-left"):
                yield ChatLog(id="sm-chat")
                yield Static("", id="sm-ask")
                yield OptionList(id="sm-pick")
                yield Input(placeholder="Note to your teammates (optional), Enter sends",
                            id="sm-note")
                yield SpeechLine(QUIET, id="sm-say")
            with VerticalScroll(id="sm-side"):
                yield Static("", id="sm-panel")

    def on_mount(self) -> None:
        self.query_one("#sm-side").can_focus = False

    def show(self, session: Session) -> None:
        public = session.public
        me = session.seat
        private = session.private
        over = session.over
        legal = session.legal if not over else None
        task = private.get("task") if legal else None
        name = session.seat_name
        self.set_class(me is None, "-watching")
        self.query_one("#sm-banner", Static).update(banner(public, me, task, name))
        self.query_one(ChatLog).show(session.events, name, me)
        self.query_one("#sm-panel", Static).update(
            panel(public, private, me, name, session.game_over))
        playing = me is not None and private.get("alive", False) and not over
        say = self.query_one("#sm-say", SpeechLine)
        kind = legal.get("kind") if legal else None
        # Layout only (the .tcss shows the parts): the game itself is the server's view.
        self.set_class(playing, "-playing")
        self.set_class(kind == "text", "-speaking")
        self.set_class(kind in ("choice", "form"), "-picking")
        self.set_class(kind == "form", "-noting")
        turn = (session.turn or {}).get("turn")
        if kind is None:
            self._close(say)
        elif (turn, kind) != (self.turn, self.kind):
            self.turn, self.kind = turn, kind
            if kind == "text":
                self._open_speech(say, legal or {})
            else:
                self._open_picker(legal or {}, task, name)

    def _open_speech(self, say: SpeechLine, legal: dict[str, Any]) -> None:
        say.open("Your speech to everyone (Enter sends; empty Enter keeps quiet)",
                 legal.get("max_chars"))

    def _open_picker(self, legal: dict[str, Any], task: str | None, name: Any) -> None:
        self._quiet(self.query_one("#sm-say", SpeechLine))
        options = legal.get("options") or next(
            (f.get("options") or [] for f in legal.get("fields") or ()
             if f.get("name") == "target"), [])
        pick = self.query_one("#sm-pick", OptionList)
        pick.clear_options()
        pick.add_options([Option(f"{o['id']}  {_label(o, name)}", id=str(o["id"]))
                          for o in options])
        pick.highlighted = 0 if options else None
        self.query_one("#sm-ask", Static).update(ASK.get(task or "", legal.get("prompt", "")))
        self.query_one("#sm-note", Input).value = ""
        pick.focus()

    def _close(self, say: SpeechLine) -> None:
        self.turn = self.kind = None
        self._quiet(say)

    @staticmethod
    def _quiet(say: SpeechLine) -> None:
        say.quiet()

    # -- sending ------------------------------------------------------------------------------
    @on(Input.Submitted, "#sm-say")
    def _speak(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        self.post_message(self.Act({"text": text}))

    @on(OptionList.OptionSelected, "#sm-pick")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._send(event.option.id)

    @on(Input.Submitted, "#sm-note")
    def _noted(self, event: Input.Submitted) -> None:
        event.stop()
        pick = self.query_one("#sm-pick", OptionList)
        if pick.highlighted is not None:
            self._send(pick.get_option_at_index(pick.highlighted).id)

    def _send(self, target: str | None) -> None:
        if target is None or self.kind is None:
            return
        if self.kind == "form":
            note = self.query_one("#sm-note", Input).value.strip()
            action: dict[str, Any] = {"target": target, **({"note": note} if note else {})}
        else:
            action = {"choice": target}
        self.set_class(False, "-picking")
        self.set_class(False, "-noting")
        self.post_message(self.Act(action))


def _label(option: dict[str, Any], name: Any) -> str:
    """A target by the name every screen uses (the option ids are seat numbers)."""
    seat = str(option.get("id", ""))
    return name(int(seat)) if seat.isdigit() else str(option.get("label") or seat)
