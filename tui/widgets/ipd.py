"""Three-player iterated prisoner's dilemma: chat line in the chat phase, cooperate/defect toggles
per opponent in the decision phase, the chat so far and the history of rounds."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import Input, Static

from tui.session import Session
from tui.widgets.chat_log import ChatLog
from tui.widgets.decision_toggles import DecisionToggles
from tui.widgets.env_widget import EnvWidget
from tui.widgets.ipd_history import IpdHistory


class IpdGame(EnvWidget):
    def compose(self) -> ComposeResult:
        yield Static("", id="ipd-brief")
        yield ChatLog(id="ipd-chat")
        yield Input(placeholder="Chat (Enter sends) — wait for your chat turn", id="ipd-say",
                    disabled=True)
        yield DecisionToggles(id="ipd-decide")
        yield IpdHistory(id="ipd-history")

    def show(self, session: Session) -> None:
        view = session.view or {}
        public: dict[str, Any] = view.get("public") or {}
        self.query_one("#ipd-brief", Static).update(_brief(public, session))
        self.query_one(ChatLog).show(session.events, session.seat_name, session.seat)
        self.query_one(IpdHistory).show(public, session.seat)
        say = self.query_one("#ipd-say", Input)
        toggles = self.query_one(DecisionToggles)
        legal = session.legal
        kind = legal.get("kind") if legal else None
        if kind == "text":
            if say.disabled:
                say.disabled = False
                say.placeholder = "Your message to the table (Enter sends)"
                say.max_length = legal.get("max_chars") or 0  # type: ignore[union-attr]
                say.focus()
        elif not say.disabled:
            say.disabled = True
            say.placeholder = "Chat opens on your chat turn"
        if kind == "form":
            if not toggles.active:
                toggles.start_turn(legal.get("fields", []))  # type: ignore[union-attr]
                toggles.focus()
        elif toggles.active:
            toggles.hold()
        toggles.display = bool(toggles.fields) and kind != "text"

    @on(Input.Submitted, "#ipd-say")
    def _say(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            self.app.bell()
            return
        event.input.value = ""  # the game screen's next `show` closes the chat line
        self.post_message(self.Act({"text": text}))

    @on(DecisionToggles.Submitted)
    def _decided(self, event: DecisionToggles.Submitted) -> None:
        event.stop()
        self.post_message(self.Act(event.decision))


def _brief(public: dict[str, Any], session: Session) -> Text:
    text = Text()
    phase = public.get("phase")
    if phase:
        text.append(f"Round {public.get('round', '?')}/{public.get('rounds', '?')} — {phase}   ",
                    style="bold")
    scores = public.get("scores")
    if isinstance(scores, list):
        me = session.seat
        text.append("Scores: " + " · ".join(
            f"P{i}{' (you)' if i == me else ''} {s}" for i, s in enumerate(scores)))
    pay = public.get("payoffs") or {"R": 3, "T": 5, "S": 0, "P": 1}
    text.append(f"\nPer opponent: both cooperate {pay['R']} each; defect on a cooperator "
                f"{pay['T']} for you, {pay['S']} for them; both defect {pay['P']} each.",
                style="dim")
    return text
