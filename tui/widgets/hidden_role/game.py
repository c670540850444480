"""Hidden Role Deduction: the puzzle's setup (players, rounds, the roles in play, what Player 1
was told), the statements so far as a table grouped by round with the newest round highlighted,
the seat's own earlier answers, and the answer form (the criminal and your role, two ←/→
pickers; enter sends). When the game is over the form goes, the brief says how it ended and
what the answer was, and the table shows every speaker's true role; the result screen still
reveals the deal and the deduction below (tui/widgets/setup_reveal.py). A spectator sees the
setup and the statements, with Player 1 called the solver."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import Static

from tui.session import Session
from tui.widgets.action_form import ActionForm
from tui.widgets.env_widget import EnvWidget
from tui.widgets.hidden_role.statements import HrStatements, player_label


class HiddenRoleGame(EnvWidget):
    SHOWS_PRIVATE = True  # the seat's answers (and a rejected one) are shown here

    def compose(self) -> ComposeResult:
        yield Static("", id="hr-brief")
        yield HrStatements(id="hr-statements")
        yield Static("", id="hr-answers")
        yield ActionForm(id="hr-form")

    def show(self, session: Session) -> None:
        public = session.public
        seat = session.seat
        private = session.private
        over = session.over
        setup = revealed(public, session) if over else {}
        me = "you" if seat is not None else "solver"
        self.query_one("#hr-brief", Static).update(brief(public, session, over, setup))
        self.query_one(HrStatements).show(public.get("statements") or [],
                                          int(public.get("round") or 0), me=me,
                                          roles=setup.get("true_roles") or None, over=over)
        answers = self.query_one("#hr-answers", Static)
        said = answers_text(private)
        answers.update(said)
        answers.display = bool(said.plain)
        form = self.query_one(ActionForm)
        form.display = seat is not None and not over
        if form.display:
            form.show(session.legal)
        elif form.has_focus_within and self.screen.focused is not None:
            self.screen.focused.blur()  # its keys (Submit) leave the footer with it

    @on(ActionForm.Submitted)
    def _submitted(self, event: ActionForm.Submitted) -> None:
        event.stop()
        self.post_message(self.Act(event.action))


def revealed(public: Mapping[str, Any], session: Session) -> dict[str, Any]:
    """The deal shown at the end: from the final view, else from game_over."""
    setup = public.get("setup")
    if not isinstance(setup, Mapping):
        setup = (session.game_over or {}).get("setup")
    return dict(setup) if isinstance(setup, Mapping) else {}


def setup_line(public: Mapping[str, Any], me: str = "you") -> str:
    """"6 players (3 Investigators, ...), 3 rounds. You are Player 1; you were told you are the
    Investigator." (a spectator reads about the solver)."""
    if not public:
        return ""
    rounds = public.get("rounds")
    line = (f"{public.get('players')} players ({public.get('composition_text')}), {rounds} "
            f"round{'s' if rounds != 1 else ''}. ")
    told = public.get("told")
    if me == "you":
        return line + f"You are Player 1; you were told you are the {told}."
    return line + f"The solver plays Player 1, who was told they are the {told}."


def brief(public: Mapping[str, Any], session: Session, over: bool,
          setup: Mapping[str, Any]) -> Text:
    me = "you" if session.seat is not None else "solver"
    text = Text(setup_line(public, me))
    if not public:
        return text
    text.append("\n")
    if over:
        result = public.get("result") or (session.game_over or {}).get("result") or {}
        text.append("Game over: ", style="bold")
        text.append(session.in_our_names(str(result.get("reason") or "")))
        answer = setup.get("answer") or {}
        if answer:
            text.append(f"\nThe criminal was Player {answer.get('criminal')} and Player 1 was the "
                        f"{answer.get('role')}.", style="bold")
        return text
    text.append(f"Round {public.get('round')} of {public.get('rounds')}", style="bold")
    text.append(" · ▸ marks the newest round · Investigators never lie", style="dim")
    return text


def answers_text(private: Mapping[str, Any]) -> Text:
    """"After round 1 you said: criminal Player 4, you are Unknown", one line an answer, and why
    the last answer was rejected, if it was."""
    text = Text()
    for a in private.get("my_answers") or ():
        criminal = a.get("criminal")
        named = f"criminal {player_label(int(criminal), '')}" if criminal else "no criminal named"
        role = a.get("role")
        text.append(f"After round {a.get('round')} you said: ")
        text.append(f"{named}, " + (f"you are {role}" if role else "no role given"),
                    style="bold")
        text.append("\n")
    error = private.get("last_error")
    if error:
        text.append(f"Rejected: {error} — try again\n", style="bold red")
    text.rstrip()
    return text
