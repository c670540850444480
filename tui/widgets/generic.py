"""The fallback game widget for any env: the view as text plus a form built from `legal`."""

from __future__ import annotations

from typing import Any

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
        # The env's text calls seats by its own names ("Player 2"): use the table's, as the
        # transcript and the result do.
        self.query_one("#situation", Static).update(session.in_our_names(session.text or ""))
        self.query_one(ActionForm).show(_in_our_names(session.legal, session))

    @on(ActionForm.Submitted)
    def _submitted(self, event: ActionForm.Submitted) -> None:
        event.stop()
        self.post_message(self.Act(event.action))


def _in_our_names(legal: dict[str, Any] | None, session: Session) -> dict[str, Any] | None:
    """The prompt and the choices with every seat called as on the rest of the screen (a Find
    the Spy ballot lists "Player 2", which the transcript calls "scripted:describer #1")."""
    if not legal:
        return legal
    renamed = {**legal, "prompt": session.in_our_names(legal.get("prompt") or "")}
    if legal.get("options"):
        renamed["options"] = [{**o, "label": session.in_our_names(str(o.get("label", "")))}
                              for o in legal["options"]]
    return renamed
