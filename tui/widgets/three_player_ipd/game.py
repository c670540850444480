"""Three-player iterated prisoner's dilemma: chat line in the chat phase, cooperate/defect toggles
per opponent in the decision phase, the chat so far and the history of rounds. A spectator gets
the chat and the history, with no chat line and no toggles."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import Input, Static

from tui.session import Session
from tui.widgets.chat_log import ChatLog
from tui.widgets.env_widget import EnvWidget
from tui.widgets.three_player_ipd.decision_toggles import DecisionToggles
from tui.widgets.three_player_ipd.history import IpdHistory

CHAT_CLOSED = "Chat opens on your chat turn"


class IpdGame(EnvWidget):
    def compose(self) -> ComposeResult:
        yield Static("", id="ipd-brief")
        yield ChatLog(id="ipd-chat")
        yield Input(placeholder=CHAT_CLOSED, id="ipd-say", disabled=True)
        yield DecisionToggles(id="ipd-decide")
        yield IpdHistory(id="ipd-history")

    def show(self, session: Session) -> None:
        public = session.public
        playing = session.seat is not None and not session.over
        self.query_one("#ipd-brief", Static).update(_brief(public, session))
        self.query_one(ChatLog).show(session.events, session.seat_name, session.seat)
        self.query_one(IpdHistory).show(public, session.seat, session.seat_name)
        say = self.query_one("#ipd-say", Input)
        toggles = self.query_one(DecisionToggles)
        legal = session.legal
        kind = legal.get("kind") if legal else None
        say.display = playing and public.get("phase") != "decide"
        if kind == "text":
            if say.disabled:
                say.disabled = False
                say.placeholder = "Your message to the table (Enter sends; empty Enter passes)"
                say.max_length = legal.get("max_chars") or 0  # type: ignore[union-attr]
                say.focus()
        elif not say.disabled:
            say.disabled = True
            say.placeholder = CHAT_CLOSED
        if kind == "form":
            if not toggles.active:
                fields = [{**f, "label": _against(f, session)}
                          for f in legal.get("fields", [])]  # type: ignore[union-attr]
                toggles.start_turn(fields)
                toggles.focus()
        elif toggles.active:
            toggles.hold()
        # Only in the decision phase: once the round resolves, "decision sent" is old news.
        toggles.display = playing and bool(toggles.fields) and public.get("phase") == "decide"

    @on(Input.Submitted, "#ipd-say")
    def _say(self, event: Input.Submitted) -> None:
        """Enter sends the line; an empty line passes this chat turn."""
        event.stop()
        text = event.value.strip()
        event.input.value = ""  # the game screen's next `show` closes the chat line
        self.post_message(self.Act({"text": text}))

    @on(DecisionToggles.Submitted)
    def _decided(self, event: DecisionToggles.Submitted) -> None:
        event.stop()
        self.post_message(self.Act(event.decision))


def _against(field: dict[str, Any], session: Session) -> str:
    """A decision field is named after the opponent's seat id: show the opponent's name."""
    name = field.get("name")
    if isinstance(name, str) and name.isdigit():
        return f"Toward {session.seat_name(int(name))}"
    return str(field.get("label") or name)


def _brief(public: dict[str, Any], session: Session) -> Text:
    text = Text()
    phase = public.get("phase")
    if phase:
        text.append(f"Round {public.get('round', '?')}/{public.get('rounds', '?')} — {phase}",
                    style="bold")
        speaker = public.get("speaker")
        if phase == "chat" and isinstance(speaker, int):
            who = "you" if speaker == session.seat else session.seat_name(speaker)
            text.append(f" (turn: {who})")
    players = public.get("players") or []
    renamed = [f"{session.seat_name(i)} = {env_name}" for i, env_name in enumerate(players)
               if session.seat_name(i) != env_name]
    if renamed:  # bots (and their prompts) call the seats by these names
        text.append("\nIn chat: " + " · ".join(renamed), style="dim")
    pay = public.get("payoffs") or {"R": 3, "T": 5, "S": 0, "P": 1}
    text.append(f"\nPer opponent each round: both cooperate {pay['R']} each; you defect on a "
                f"cooperator {pay['T']} for you, {pay['S']} for them; both defect {pay['P']} "
                f"each.", style="dim")
    return text
