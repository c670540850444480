"""The Impostor game: the banner (phase, who speaks, your word, your team), the descriptions in
speaking order and, on your turn, the description line or the ballot; the reveal at the end.

While you type a description the server is asked, a moment after you stop, what the rules would
say of it (naming your own word, too many sentences or characters): the warning shows under the
line before you send, so a leak is fixed before it is refused. The ballot is a form: suspect
(←/→), confidence, reasoning, a self-declaration and the word guess that goes with it; tab
moves on, ctrl+s sends."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from rich.console import RenderableType
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.timer import Timer
from textual.widgets import Input, Static

from tui.session import Session
from tui.widgets.action_form import ActionForm
from tui.widgets.env_widget import EnvWidget
from tui.widgets.impostor.text import banner, descriptions, reveal, words
from tui.widgets.speech_line import SpeechLine

PREVIEW_AFTER = 0.3  # seconds after the last key before a draft is checked
QUIET = "You describe your word on your turn"


class ImpostorGame(EnvWidget):
    SHOWS_PRIVATE = True  # the banner shows the seat's word and team

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.turn: Any = None  # the turn the line or the ballot was opened for
        self.kind: str | None = None
        self._timer: Timer | None = None
        self._checked: str | None = None  # the draft last sent for a preview

    def compose(self) -> ComposeResult:
        yield Static("", id="im-banner")
        with VerticalScroll(id="im-said"):
            yield Static("", id="im-descriptions")
            yield Static("", id="im-reveal")
        yield SpeechLine(QUIET, id="im-say")
        yield Static("", id="im-warning")
        yield ActionForm(id="im-ballot")

    def on_mount(self) -> None:
        self.query_one("#im-said").can_focus = False

    def show(self, session: Session) -> None:
        public, private, me = session.public, session.private, session.seat
        over = session.over
        legal = session.legal if not over else None
        name = session.seat_name
        kind = legal.get("kind") if legal else None
        self.query_one("#im-banner", Static).update(
            banner(public, private, me, kind is not None, name))
        self.query_one("#im-descriptions", Static).update(descriptions(public, me, name))
        self.query_one("#im-reveal", Static).update(reveal(public, name) if over else "")
        self.set_class(over, "-over")
        turn = (session.turn or {}).get("turn")
        if kind is None:
            self._close()
        elif (turn, kind) != (self.turn, self.kind):
            self.turn, self.kind = turn, kind
            if kind == "text":
                self._open_line(legal or {})
            else:
                self._open_ballot(legal or {}, session)
        self._warn(session)

    def reveal(self, setup: Mapping[str, Any], names: Mapping[int, str]
               ) -> tuple[RenderableType, Collection[str]] | None:
        if "majority_word" not in setup:
            return None
        return (words(setup, lambda s: names.get(s, f"Player {s + 1}")),
                ("majority_word", "impostor_word", "impostor", "impostor_player"))

    def _open_line(self, legal: dict[str, Any]) -> None:
        self._checked = None
        self.set_class(True, "-describing")
        self.set_class(False, "-voting")
        self.query_one(SpeechLine).open(
            "Describe your word in one or two sentences, without saying it",
            legal.get("max_chars"))

    def _open_ballot(self, legal: dict[str, Any], session: Session) -> None:
        self._quiet()
        fields = [{**f, "options": [{**o, "label": session.in_our_names(str(o["label"]))}
                                    for o in f.get("options") or ()]}
                  if f.get("options") else f for f in legal.get("fields") or ()]
        self.set_class(False, "-describing")
        self.set_class(True, "-voting")
        self.query_one(ActionForm).show({**legal, "fields": fields})

    def _close(self) -> None:
        self.turn = self.kind = None
        self._quiet()
        self.set_class(False, "-describing")
        self.set_class(False, "-voting")

    def _quiet(self) -> None:
        self.query_one(SpeechLine).quiet()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.query_one("#im-warning", Static).update("")

    # -- the live warning ---------------------------------------------------------------------
    @on(Input.Changed, "#im-say")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(PREVIEW_AFTER, self._ask_preview)

    def _ask_preview(self) -> None:
        self._timer = None
        draft = self.query_one("#im-say", Input).value.strip()
        if self.kind == "text" and draft and draft != self._checked:
            self._checked = draft
            self.post_message(self.Preview({"text": draft}))

    def _warn(self, session: Session) -> None:
        """The server's word on the draft still in the line, if it has one."""
        warning = self.query_one("#im-warning", Static)
        preview = session.preview or {}
        draft = self.query_one("#im-say", Input).value.strip()
        if self.kind != "text" or not draft or preview.get("action") != {"text": draft}:
            warning.update("")
            return
        problems = preview.get("problems") or []
        warning.update("⚠ This would be refused: " + "; ".join(problems) if problems else "")

    # -- sending ------------------------------------------------------------------------------
    @on(Input.Submitted, "#im-say")
    def _said(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if text:
            self._quiet()
            self.set_class(False, "-describing")
            self.post_message(self.Act({"text": text}))

    @on(ActionForm.Submitted)
    def _voted(self, event: ActionForm.Submitted) -> None:
        event.stop()
        self.set_class(False, "-voting")
        self.post_message(self.Act(event.action))
