"""The fallback game widget for any env: the view as text plus a form built from `legal`."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.session import Session
from tui.widgets.action_form import ActionForm
from tui.widgets.env_widget import EnvWidget


class GenericGame(EnvWidget):
    def compose(self) -> ComposeResult:
        with VerticalScroll(id="situation-scroll"):
            yield Static("", id="situation", markup=False)
        yield ActionForm(id="action-form")

    def show(self, session: Session) -> None:
        self.query_one("#situation", Static).update(session.text or "")
        self.query_one(ActionForm).show(session.legal)

    @on(ActionForm.Submitted)
    def _submitted(self, event: ActionForm.Submitted) -> None:
        event.stop()
        self.post_message(self.Act(event.action))
