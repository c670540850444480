"""The dataset tasks (Rating Estimation, Review Decision, User Profile): a brief (the task, where
the instance comes from, its intro line, "Stage 2 of 3"), the evidence stage by stage with the
newest stage marked and scrolled into view (evidence.py beside this; PgUp/PgDn scroll it
while the form keeps the focus), the seat's earlier answers and a rejected answer's error, and
the answer form (one ←/→ picker per answer field, tab between them, enter sends) under the
question, its prompt wrapped. When the game is over the form goes, the brief says how it ended
and what the answer was, and each answer gets its ✓/✗ from the public `scores` event; the result
screen still reveals the explanation below (tui/widgets/setup_reveal.py). A spectator sees the
brief, the evidence and the question, with no form."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from tui.session import Session
from tui.widgets.action_form import ActionForm
from tui.widgets.dataset_task.evidence import DsEvidence
from tui.widgets.env_widget import EnvWidget

SYNTHETIC = "synthetic sample (Parlor generator)"


class DatasetTaskGame(EnvWidget):
    SHOWS_PRIVATE = True  # the seat's answers (and a rejected one) are shown here
    BINDINGS = [
        Binding("pageup", "page(-1)", "Scroll evidence", key_display="PgUp/PgDn", show=False),
        Binding("pagedown", "page(1)", "Scroll evidence", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static("", id="ds-brief")
        yield DsEvidence(id="ds-evidence")
        yield Static("", id="ds-answers")
        yield Static("", id="ds-question")
        yield ActionForm(id="ds-form")

    def show(self, session: Session) -> None:
        public = session.public
        seat = session.seat
        private = session.private
        over = session.over
        stages = int(public.get("stages") or 1)
        self.query_one("#ds-brief", Static).update(brief(public, session, over))
        self.query_one(DsEvidence).show(public.get("evidence") or [], stages, over=over)
        scored = scores(session.events) if over else None
        said = answers_text(private, stages, scored, me="you" if seat is not None else "the solver")
        answers = self.query_one("#ds-answers", Static)
        answers.update(said)
        answers.display = bool(said.plain)
        form = self.query_one(ActionForm)
        form.display = seat is not None and not over
        question = self.query_one("#ds-question", Static)
        question.update(question_text(public))
        question.display = not form.display and bool(public.get("question"))
        if form.display:
            form.show(last_answer_first(session.legal, private))
        elif form.has_focus_within and self.screen.focused is not None:
            self.screen.focused.blur()  # its keys (Submit) leave the footer with it

    def action_page(self, pages: int) -> None:
        self.query_one(DsEvidence).page(pages)

    @on(ActionForm.Submitted)
    def _submitted(self, event: ActionForm.Submitted) -> None:
        event.stop()
        self.post_message(self.Act(event.action))


def last_answer_first(legal: dict[str, Any] | None, private: Mapping[str, Any]
                      ) -> dict[str, Any] | None:
    """The form with each picker on the seat's answer of the stage before: one who answered
    Reject keeps Reject unless they change it, rather than finding Accept there again."""
    said = private.get("my_answers") or []
    last = said[-1].get("answer") if said and isinstance(said[-1], Mapping) else None
    if not legal or legal.get("kind") != "form" or not isinstance(last, Mapping):
        return legal
    fields = []
    for f in legal.get("fields", []):
        value = last.get(f.get("name"))
        if f.get("kind") == "choice" and any(o.get("id") == value for o in f.get("options", [])):
            f = {**f, "default": value}
        fields.append(f)
    return {**legal, "fields": fields}


def source_text(public: Mapping[str, Any]) -> str:
    """Where the instance comes from: our generator, or the file's (or importer's) source."""
    if public.get("synthetic"):
        return SYNTHETIC
    source = str(public.get("source") or "")
    return f"source: {source}" if source else ""


def answer_text(values: Mapping[str, Any] | None, *, names: bool = False) -> str:
    """"Accept"; "35-54, Female" (with `names`, "age group 35-54, gender Female"); fields left
    empty are left out, and an answer with none is "no answer"."""
    given = [(str(k).replace("_", " "), str(v)) for k, v in (values or {}).items()
             if v is not None]
    if not given:
        return "no answer"
    if names and len(values or {}) > 1:
        return ", ".join(f"{k} {v}" for k, v in given)
    return ", ".join(v for _, v in given)


def revealed(public: Mapping[str, Any], session: Session) -> dict[str, Any]:
    """The hidden setup shown at the end: from the final view, else from game_over."""
    setup = public.get("setup")
    if not isinstance(setup, Mapping):
        setup = (session.game_over or {}).get("setup")
    return dict(setup) if isinstance(setup, Mapping) else {}


def scores(events: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The data of the game's public `scores` event (each stage's answer and ✓/✗, the answer)."""
    for event in reversed(events):
        if event.get("type") == "scores" and isinstance(event.get("data"), Mapping):
            return dict(event["data"])
    return None


def brief(public: Mapping[str, Any], session: Session, over: bool) -> Text:
    """The task and where the instance comes from, the intro line, then "Stage 2 of 3" (or how
    the game ended and the true answer)."""
    text = Text()
    if not public:
        return text
    text.append(str(public.get("task") or ""), style="bold")
    source = source_text(public)
    if source:
        text.append(f" · {source}", style="dim")
    if public.get("intro"):
        text.append(f"\n{public['intro']}")
    text.append("\n")
    if over:
        result = public.get("result") or (session.game_over or {}).get("result") or {}
        text.append("Game over: ", style="bold")
        text.append(session.in_our_names(str(result.get("reason") or "")))
        truth = revealed(public, session).get("answer") or (scores(session.events) or {}).get(
            "expected")
        if isinstance(truth, Mapping) and truth:
            text.append(f"\nThe true answer: {answer_text(truth, names=True)}", style="bold")
        return text
    stages = int(public.get("stages") or 1)
    if stages > 1:
        text.append(f"Stage {public.get('stage')} of {stages}", style="bold")
        text.append(" · ▸ newest stage · ", style="dim")
    text.append("PgUp/PgDn scroll the evidence", style="dim")
    return text


def answers_text(private: Mapping[str, Any], stages: int, scored: Mapping[str, Any] | None,
                 me: str = "you") -> Text:
    """"After stage 1 you said: Accept", one line an answer ("You said: ..." for a one-stage
    task), each with ✓/✗ once the game's `scores` are out (`scored`), and why the last answer
    was rejected, if it was."""
    text = Text()
    said = (scored or {}).get("stages") if scored else private.get("my_answers")
    for a in said or ():
        when = f"After stage {a.get('stage')} {me}" if stages > 1 else me.capitalize()
        text.append(f"{when} said: ")
        text.append(answer_text(a.get("answer")), style="bold")
        if scored is not None and "right" in a:
            text.append(" ✓" if a["right"] else " ✗", style="green" if a["right"] else "red")
        text.append("\n")
    error = private.get("last_error")
    if error:
        text.append(f"Rejected: {error} — try again\n", style="bold red")
    text.rstrip()
    return text


def question_text(public: Mapping[str, Any]) -> Text:
    """The question, shown when no form (whose prompt asks it) is: a spectator, the end."""
    text = Text("Question: ", style="bold")
    text.append(str(public.get("question") or ""))
    return text
