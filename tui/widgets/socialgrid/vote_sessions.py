"""A SocialGrid replay's vote sessions up to the frame on screen, the latest first: who called
each meeting and why, then (once the vote has ended) the result, the tally and every ballot with
the voter's stated reason where the perspective has it (a seat has only its own)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from tui.widgets.socialgrid.text import Namer, meeting_text, vote_text


def held(sessions: Sequence[Mapping[str, Any]], at: int) -> list[Mapping[str, Any]]:
    """The sessions called at or before position `at`, oldest first."""
    return [s for s in sessions if isinstance(s.get("called_at"), int) and s["called_at"] <= at]


def ended(session: Mapping[str, Any], at: int) -> bool:
    return isinstance(session.get("at"), int) and session["at"] <= at


def tally_text(session: Mapping[str, Any], name: Namer) -> Text:
    text = Text("Tally ", style="bold")
    counts = sorted((session.get("tally") or {}).items(), key=lambda kv: -kv[1])
    text.append(" · ".join(f"{'skip' if k == 'skip' else name(int(k))} {n}" for k, n in counts))
    return text


def session_text(session: Mapping[str, Any], at: int, name: Namer,
                 seat_style: Callable[[int], Style] | None = None,
                 reasons: bool = True) -> Text:
    text = meeting_text({**session, "number": session.get("meeting")}, name)
    if not ended(session, at):
        text.append("\n  voting…", style="italic")
        return text
    text.append("\n  ")
    text.append_text(vote_text(session, name, heading=False))
    text.append("\n  ")
    text.append_text(tally_text(session, name))
    for ballot in session.get("ballots") or [] if reasons else []:
        voter, target = ballot.get("voter"), ballot.get("target")
        text.append("\n  ")
        text.append(name(voter), seat_style(voter) if seat_style else "bold")
        text.append(f" → {'skip' if target is None else name(target)}")
        reason = ballot.get("reason")
        if reason:
            text.append(f": {reason}", style="italic")
        elif reason is None:
            text.append("  (reason not seen)", style="dim")
    return text


class VoteSessions(Static):
    def show(self, sessions: Sequence[Mapping[str, Any]], at: int, name: Namer,
             seat_style: Callable[[int], Style] | None = None) -> None:
        shown = held(sessions, at)
        if not shown:
            self.update(Text("No meeting yet.", style="dim"))
            return
        text = Text()
        for i, session in enumerate(reversed(shown)):
            if i:
                text.append("\n")
            text.append_text(session_text(session, at, name, seat_style))
        self.update(text)
