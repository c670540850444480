"""Study mode: the study's consent text (Markdown) before a person's first game on the server,
with Agree and Decline; then its demographics form if it has one. A person who declines is
told plainly that they cannot play in this study (they may still watch, from the lobby)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Markdown, Static

from tui.screens.base import ParlorScreen
from tui.widgets.key_footer import KeyFooter
from tui.widgets.study_form import StudyForm

DECLINED = ("You declined: you cannot play in this study on this server. You may still watch "
            "games from the lobby (l). If you change your mind, press a to read the text again "
            "and agree.")


READING = "↑↓ PgUp PgDn scroll the text. a: agree and take part; d: decline."


class ConsentScreen(ParlorScreen):
    KIND = "consent"
    BINDINGS = [
        Binding("a", "agree", "Agree"),
        Binding("d", "decline", "Decline"),
        Binding("ctrl+s", "send", "Send answers", priority=True),
        Binding("escape", "back", "Back to the text"),
        Binding("l", "lobby", "Lobby (watch only)"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.stage = "reading"  # reading, form, declined

    def compose(self) -> ComposeResult:
        yield Static(id="consent-title", classes="section-title")
        with VerticalScroll(id="consent-body"):
            yield Markdown(id="consent-text")
        yield Static(id="consent-note", classes="form-hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        study = self.session.study or {}
        if "consent" in study:
            self._show(study)
        else:
            self.client.send("study")
        self.query_one("#consent-body").focus()

    def server_update(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "study" and msg.get("study"):
            self._show(msg["study"])
        elif msg["type"] == "error" and msg.get("code") == "bad_answer":
            self._note(msg.get("message", ""))

    def _show(self, study: dict[str, Any]) -> None:
        self.query_one("#consent-title", Static).update(
            f"Study: {study['name']} — please read before you play")
        markdown = self.query_one("#consent-text", Markdown)
        if getattr(self, "_shown", None) != study.get("consent_hash"):
            self._shown = study.get("consent_hash")
            markdown.update(study.get("consent", ""))
        if study.get("status") == "declined":
            self._set_stage("declined")
            self._note(DECLINED)
        else:
            self._set_stage("reading")
            self._note(READING)

    def _set_stage(self, stage: str) -> None:
        self.stage = stage
        self.refresh_bindings()

    def _note(self, text: str) -> None:
        self.query_one("#consent-note", Static).update(text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        allowed = {"agree": ("reading", "declined"), "decline": ("reading",),
                   "send": ("form",), "back": ("form",), "lobby": ("declined",)}
        stages = allowed.get(action)
        return True if stages is None else self.stage in stages

    def action_agree(self) -> None:
        if self.stage == "declined":  # read it again first
            self._set_stage("reading")
            self._note(READING)
            return
        study = self.session.study or {}
        if "consent_hash" not in study or "consent" not in study:
            return  # the text has not arrived: nothing read, nothing agreed
        if study.get("form"):
            body = self.query_one("#consent-body", VerticalScroll)
            for old in self.query(StudyForm):
                old.remove()
            form = StudyForm(study["form"], id="study-form")
            body.mount(form, before=0)
            self.query_one("#consent-text").display = False
            self._set_stage("form")
            self._note("Answer what you like (* required); ctrl+s sends, Esc goes back.")
            self.call_after_refresh(lambda: form.query("Input, Select").first().focus())
            return
        self._answer(True, {})

    def action_send(self) -> None:
        answers, problem = self.query_one(StudyForm).answers()
        if problem:
            self._note(problem)
            return
        self._answer(True, answers)

    def action_back(self) -> None:
        for old in self.query(StudyForm):
            old.remove()
        self.query_one("#consent-text").display = True
        self._note(READING)
        self._set_stage("reading")
        self.query_one("#consent-body").focus()

    def action_decline(self) -> None:
        self._answer(False, None)

    def action_lobby(self) -> None:
        self.parlor.to_lobby()

    def _answer(self, agree: bool, answers: dict[str, Any] | None) -> None:
        study = self.session.study or {}
        body: dict[str, Any] = {"consent_hash": study["consent_hash"], "agree": agree}
        if answers:
            body["answers"] = answers
        self.client.send("consent", **body)
