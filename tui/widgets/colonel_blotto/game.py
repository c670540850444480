"""Colonel Blotto game widget: the allocation form above the round history."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import Static

from tui.session import Session
from tui.widgets.colonel_blotto.allocation_form import AllocationForm
from tui.widgets.colonel_blotto.history import BlottoHistory
from tui.widgets.env_widget import EnvWidget


class BlottoGame(EnvWidget):
    def compose(self) -> ComposeResult:
        yield Static("", id="blotto-brief")
        yield AllocationForm(id="allocation")
        yield BlottoHistory(id="blotto-history")

    def show(self, session: Session) -> None:
        public = session.public
        private = session.private
        seat = session.seat
        form = self.query_one(AllocationForm)
        history = public.get("history") or []
        self.query_one(BlottoHistory).show(history, seat, session.seat_name)
        over = session.over
        form.display = seat is not None and not over  # nothing to allocate: no form
        if not form.display and form.has_focus:
            form.blur()  # its keys (Submit) leave the footer with it
        self.query_one("#blotto-brief", Static).update(_brief(public))
        names = list(public.get("fields") or [])
        legal = session.legal
        if legal is not None and legal.get("kind") == "form":
            if not form.active:  # a fresh decision (or a retry): start from our last allocation
                last = history[-1]["allocations"][seat] if history and seat is not None else None
                form.start_turn(legal, last)
                if private.get("last_error"):
                    form.problem = f"Rejected: {private['last_error']} — try again"
                form.focus()
        elif public.get("over") or session.game_over:
            form.hold("The game is over.", names=names)
        elif private.get("allocation"):
            form.hold("Sent — waiting for the opponent…", private["allocation"], names)
        else:
            form.hold("Waiting…", names=names)

    @on(AllocationForm.Submitted)
    def _submitted(self, event: AllocationForm.Submitted) -> None:
        event.stop()
        self.post_message(self.Act(event.allocation))


def _brief(public: dict[str, Any]) -> Text:
    if not public:
        return Text("")
    need = "exactly" if public.get("exact_units") else "up to"
    return Text(f"Send {need} {public.get('units')} units over fields "
                f"{', '.join(public.get('fields', []))}. Most units take a field; most fields take "
                f"the round; first to {public.get('rounds_to_win')} round wins takes the game.",
                style="dim")
