"""Codenames: the team and turn, the 5x5 board (a spymaster sees the key; revealed cards carry
their colour), the spymaster's clue box with a live legality check, the operative's guesses by
arrow keys or typing, and the history of clues and guesses. A spectator sees the public board
only; when the game ends the key is shown to everyone."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import Static

from tui.session import Session
from tui.widgets.codenames.board import CnBoard
from tui.widgets.codenames.clue import ClueBox
from tui.widgets.codenames.history import CnHistory
from tui.widgets.env_widget import EnvWidget

ROLES = ("spymaster", "operative", "spymaster", "operative")
TEAMS = ("red", "red", "blue", "blue")


def key_of(public: dict[str, Any], private: dict[str, Any]) -> list[str] | None:
    """The colours a seat may see: a spymaster's key, or everyone's once the game is over."""
    if private.get("key"):
        return list(private["key"])
    setup = (public.get("setup") or {}).get("key")
    if not isinstance(setup, dict):
        return None
    where = {w: label for label, words in setup.items() for w in words or []}
    return [where.get(w, "neutral") for w in public.get("words") or []]


class CodenamesGame(EnvWidget):
    SHOWS_PRIVATE = True  # the board shows the key a spymaster holds

    def compose(self) -> ComposeResult:
        yield Static("", id="cn-brief")
        yield CnBoard(id="cn-board")
        yield ClueBox(id="cn-clue-box")
        yield CnHistory(id="cn-history")

    def show(self, session: Session) -> None:
        public = session.public
        me = session.seat
        private = session.private
        over = session.over
        legal = session.legal
        kind = legal.get("kind") if legal else None
        words = list(public.get("words") or [])
        board = self.query_one(CnBoard)
        board.show(words, public.get("revealed") or [None] * len(words),
                   key_of(public, private), active=kind == "choice" and not over)
        box = self.query_one(ClueBox)
        box.display = me is not None and ROLES[me] == "spymaster" and not over
        if kind == "form" and not over:
            box.open(words, int(public.get("max_clue_number") or 9))
        elif box.display:
            box.close(_waiting(public, session))
        if kind == "choice" and not over:
            board.focus()
        self.query_one("#cn-brief", Static).update(_brief(public, private, session, over))
        self.query_one(CnHistory).show(public)

    @on(CnBoard.Guess)
    def _guessed(self, event: CnBoard.Guess) -> None:
        event.stop()
        self.post_message(self.Act({"choice": event.word}))

    @on(CnBoard.Pass)
    def _passed(self, event: CnBoard.Pass) -> None:
        event.stop()
        self.post_message(self.Act({"choice": "pass"}))

    @on(ClueBox.Submitted)
    def _clued(self, event: ClueBox.Submitted) -> None:
        event.stop()
        self.query_one(ClueBox).close("Clue sent — your operative is guessing…")
        self.post_message(self.Act(event.action))


def _waiting(public: dict[str, Any], session: Session) -> str:
    actor = public.get("to_act")
    if not isinstance(actor, int):
        return ""
    return f"Waiting for {session.seat_name(actor)} ({TEAMS[actor]} {ROLES[actor]})…"


def _brief(public: dict[str, Any], private: dict[str, Any], session: Session,
           over: bool) -> Text:
    text = Text()
    me = session.seat
    if me is None:
        text.append("You are watching: the key stays hidden until the end.", style="bold")
    else:
        text.append(f"You are the {TEAMS[me]} {ROLES[me]}", style=f"bold {TEAMS[me]}")
        text.append(": small letters are the key." if private.get("key") else
                    ": colours show once revealed.")
    team, clue, actor = public.get("team"), public.get("clue"), public.get("to_act")
    text.append("\n")
    if over:
        result = public.get("result") or (session.game_over or {}).get("result") or {}
        text.append("Game over: ", style="bold")
        text.append(session.in_our_names(str(result.get("reason", ""))))
    elif team:
        text.append(f"Turn {public.get('turn')}: {team} team", style=f"bold {team}")
        if clue:
            left = clue.get("guesses", 0) - clue.get("made", 0)
            text.append(f" · clue [{clue.get('word')} {clue.get('number')}], {left} guess"
                        f"{'es' if left != 1 else ''} left")
        if isinstance(actor, int):
            who = "you" if actor == me else session.seat_name(actor)
            doing = "give the clue" if ROLES[actor] == "spymaster" else "guess"
            text.append(f" · {who} to {doing}", style="bold" if actor == me else "")
    left, counts = public.get("left") or {}, public.get("counts") or {}
    if left:
        text.append(f"\nStill hidden: red {left.get('red')}/{counts.get('red')} · blue "
                    f"{left.get('blue')}/{counts.get('blue')} · move {public.get('moves')}/"
                    f"{public.get('max_moves')}", style="dim")
    return text
