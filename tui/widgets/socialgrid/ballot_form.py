"""A SocialGrid meeting's ballot: whom to vote out (or skip), how much you trust each other
player, and an optional thought, all from the keyboard.

↑/↓ pick a row (the vote, a player's trust, the thought line); ←/→ change it (the vote cycles
through the players and Skip; trust moves by 0.1 between 0 and 1), Home/End set trust to 0/1;
space votes for the player whose trust row is picked, Delete votes skip; Enter submits from
anywhere. No letter is a key of the form: whatever is typed goes to the thought line, whichever
row is picked (a reason typed on a trust row once voted at its `v`). It sends {"vote": seat | "skip", "trust_<seat>": value, ..., "thought": text}."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

SKIP = "skip"
STEP = 0.1
BAR = 10  # marks in a trust slider


def trust_words(value: float) -> tuple[str, str]:
    """A trust value as the rubric reads it, and its colour."""
    if value <= 0.3:
        return "suspect", "bold red"
    if value < 0.7:
        return "unsure", "yellow"
    return "trusted", "bold green"


class BallotForm(Vertical, can_focus=True):
    DEFAULT_CSS = "BallotForm { height: auto; } #ballot-rows { height: auto; }"
    BINDINGS = [
        # The form prints these keys itself; the footer keeps its room for Submit.
        Binding("up", "row(-1)", "Previous row", show=False),
        Binding("down", "row(1)", "Next row", show=False),
        Binding("left", "change(-1)", "Less / previous", show=False),
        Binding("right", "change(1)", "More / next", show=False),
        Binding("home", "extreme(0)", "Trust 0", show=False),
        Binding("end", "extreme(1)", "Trust 1", show=False),
        Binding("space", "vote_row", "Vote this player", show=False),
        Binding("delete,backspace", "skip", "Vote skip", show=False),
        Binding("enter", "submit", "Submit vote"),
    ]

    class Submitted(Message):
        def __init__(self, ballot: dict[str, Any]) -> None:
            super().__init__()
            self.ballot = ballot

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.header = Text("")
        self.options: list[tuple[str, str]] = []  # (id, label) of the vote: players, then skip
        self.vote = SKIP
        self.trust: dict[str, float] = {}  # field name (trust_<seat>) -> value
        self.labels: dict[str, str] = {}  # field name -> the player's name
        self.seats: dict[str, str] = {}  # field name -> the seat id it is about
        self.thought_field: dict[str, Any] | None = None
        self.row = 0
        self.active = False
        self.status = ""
        self.meeting: Any = None  # the meeting the values were set for

    def compose(self) -> ComposeResult:
        yield Static("", id="ballot-rows")
        # Not selected on focus: the first letter typed on another row is in it by then.
        yield Input(placeholder="Type your reasoning (optional) — Enter sends the ballot",
                    id="ballot-thought", select_on_focus=False)
        yield Static("", id="ballot-keys")

    # -- fed by the game widget -------------------------------------------------------------
    def start(self, legal: dict[str, Any], name: Callable[[str], str], header: Text,
              previous: dict[str, float] | None = None, meeting: Any = None) -> None:
        """A ballot to fill in: the fields of `legal` (a form); players named by `name(seat
        id)`; trust starts at `previous` (last meeting's), else the field's default. The same
        meeting again (a refused ballot) keeps what was entered."""
        fields = legal.get("fields") or []
        again = meeting is not None and meeting == self.meeting
        self.header = header
        self.thought_field = None
        trust: dict[str, float] = {}
        labels, seats = {}, {}
        for f in fields:
            if f.get("name") == "vote":
                self.options = [(str(o["id"]), f"{o['id']} {name(str(o['id']))}"
                                 if str(o["id"]).isdigit() else str(o.get("label") or o["id"]))
                                for o in f.get("options") or []]
                default = str(f.get("default") or SKIP)
                if not again or self.vote not in [o for o, _ in self.options]:
                    self.vote = default
            elif f.get("kind") == "float" and str(f.get("name", "")).startswith("trust_"):
                seat = f["name"].removeprefix("trust_")
                seats[f["name"]] = seat
                labels[f["name"]] = f"{seat} {name(seat)}"
                start = (self.trust.get(f["name"]) if again else None)
                if start is None:
                    start = (previous or {}).get(seat, f.get("default", 0.5))
                trust[f["name"]] = _clamp(float(start if start is not None else 0.5))
            elif f.get("kind") == "text":
                self.thought_field = f
        self.trust, self.labels, self.seats = trust, labels, seats
        thought = self.query_one("#ballot-thought", Input)
        thought.display = self.thought_field is not None
        thought.disabled = False
        if self.thought_field is not None:
            thought.max_length = self.thought_field.get("max_chars") or 0
        if not again:
            thought.value = ""
            self.row = 0
        self.meeting = meeting
        self.active = True
        self.status = ""
        self._draw()

    def hold(self, status: str, header: Text | None = None) -> None:
        """Not ours to fill now (sent, or the meeting is waiting for others): read-only."""
        self.active = False
        self.status = status
        if header is not None:
            self.header = header
        self.query_one("#ballot-thought", Input).disabled = True
        self._draw()

    def ballot(self) -> dict[str, Any]:
        out: dict[str, Any] = {"vote": self.vote}
        out.update({k: round(v, 1) for k, v in self.trust.items()})
        thought = self.query_one("#ballot-thought", Input).value.strip()
        if thought and self.thought_field is not None:
            out["thought"] = thought
        return out

    # -- keys ------------------------------------------------------------------------------------
    @property
    def rows(self) -> int:
        """The vote row, a row per trust slider, and the thought line (if the form has one)."""
        return 1 + len(self.trust) + (1 if self.thought_field is not None else 0)

    def _trust_key(self) -> str | None:
        keys = list(self.trust)
        return keys[self.row - 1] if 1 <= self.row <= len(keys) else None

    def action_row(self, delta: int) -> None:
        if not self.active:
            return
        self.row = min(max(self.row + delta, 0), self.rows - 1)
        thought = self.query_one("#ballot-thought", Input)
        if self.thought_field is not None and self.row == self.rows - 1:
            thought.focus()
        elif thought.has_focus:
            self.focus()
        self._draw()

    def action_change(self, delta: int) -> None:
        if not self.active:
            return
        key = self._trust_key()
        if self.row == 0 and self.options:
            ids = [o for o, _ in self.options]
            at = ids.index(self.vote) if self.vote in ids else 0
            self.vote = ids[(at + delta) % len(ids)]
        elif key is not None:
            self.trust[key] = _clamp(round(self.trust[key] + delta * STEP, 1))
        self._draw()

    def action_extreme(self, value: int) -> None:
        key = self._trust_key()
        if self.active and key is not None:
            self.trust[key] = float(value)
            self._draw()

    def action_vote_row(self) -> None:
        key = self._trust_key()
        if self.active and key is not None and self.seats[key] in [o for o, _ in self.options]:
            self.vote = self.seats[key]
            self._draw()

    def action_skip(self) -> None:
        if self.active:
            self.vote = SKIP
            self._draw()

    def action_submit(self) -> None:
        if not self.active:
            return
        self.active = False
        self.status = "Ballot sent — waiting for the others to vote…"
        ballot = self.ballot()
        self.query_one("#ballot-thought", Input).disabled = True
        self._draw()
        self.post_message(self.Submitted(ballot))

    @on(Input.Submitted, "#ballot-thought")
    def _thought_entered(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def on_key(self, event: events.Key) -> None:
        """A character typed on another row starts (or goes on with) the thought."""
        thought = self.query_one("#ballot-thought", Input)
        if (self.active and self.thought_field is not None and event.is_printable
                and event.character and event.character != " " and not thought.has_focus):
            event.stop()
            event.prevent_default()
            self._to_thought(event.character)

    def on_paste(self, event: events.Paste) -> None:
        thought = self.query_one("#ballot-thought", Input)
        if self.active and self.thought_field is not None and not thought.has_focus:
            event.stop()
            self._to_thought(event.text.splitlines()[0] if event.text else "")

    def _to_thought(self, text: str) -> None:
        thought = self.query_one("#ballot-thought", Input)
        thought.insert_text_at_cursor(text)
        self.row = self.rows - 1
        thought.focus()
        self._draw()

    def on_descendant_focus(self) -> None:
        """Clicking (or tabbing) into the thought line picks its row."""
        if self.active and self.thought_field is not None and self.row != self.rows - 1:
            self.row = self.rows - 1
            self._draw()

    # -- drawing ---------------------------------------------------------------------------------
    def refresh_rows(self) -> None:
        self._draw()

    def _draw(self) -> None:
        self.query_one("#ballot-rows", Static).update(self.render_rows())
        self.query_one("#ballot-keys", Static).update(self.render_keys())

    def render_rows(self) -> Text:
        text = Text()
        if self.header:
            text.append_text(self.header)
            text.append("\n")
        if not self.options:
            return text
        width = max([len(v) for v in self.labels.values()] + [4])
        chosen = dict(self.options).get(self.vote, self.vote)
        text.append(self._pointer(0) + "Vote ", style="bold")
        text.append(" ‹ ", style="dim")
        text.append(chosen, style="bold reverse" if self.active and self.row == 0 else "bold")
        text.append(" ›", style="dim")
        if self.row == 0 and self.active:
            text.append("  ←/→ choose", style="dim")
        text.append("\n")
        text.append(f"  {'Trust':<{width}} 0{' ' * (BAR - 2)}1\n", style="dim")
        for i, (key, value) in enumerate(self.trust.items(), start=1):
            picked = self.active and self.row == i
            text.append(self._pointer(i))
            label = self.labels[key]
            text.append(f"{label:<{width}} ", style="bold" if picked else "")
            marks = round(value * BAR)
            word, style = trust_words(value)
            text.append("■" * marks, style=style)
            text.append("□" * (BAR - marks), style="dim")
            text.append(f" {value:.1f} ", style="bold reverse" if picked else "bold")
            text.append(word, style=style)
            if self.seats[key] == self.vote:
                text.append(" ◀ vote", style="bold yellow")
            text.append("\n")
        if self.thought_field is not None:
            text.append(self._pointer(self.rows - 1) + "Thought (optional):", style="bold")
        text.rstrip()
        return text

    def render_keys(self) -> Text:
        if self.status:
            return Text(self.status, style="italic")
        if not self.active:
            return Text("")
        return Text("↑↓ row  ←→ change  Home/End 0/1  space vote  Del skip  Enter send",
                    style="dim")

    def _pointer(self, row: int) -> str:
        return "› " if self.active and self.row == row else "  "


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, value))
