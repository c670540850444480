"""Who won, and each seat's reward, how its game ended and how its rating moved."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

# How a seat's game ended (the server's seat statuses), in words.
STATUS_WORDS = {
    "finished": "finished",
    "forfeit": "forfeited",
    "resigned": "resigned",
    "timeout": "ran out of time",
    "disconnected": "disconnected",
    "provider_error": "its model failed",
}


def status_words(status: Any) -> str:
    if not status:
        return "—"
    return STATUS_WORDS.get(str(status), str(status).replace("_", " "))


OUTCOME_WORDS = {"win": "won", "draw": "draw", "loss": "lost"}


def seat_outcome(over: Mapping[str, Any], seat: int) -> str:
    """The seat's outcome as the server judged it (win, draw or loss), in words."""
    if (over.get("result") or {}).get("void"):
        return "not rated"
    outcome = (over.get("outcomes") or {}).get(str(seat))
    return OUTCOME_WORDS.get(str(outcome), "—")


def rating_words(change: Mapping[str, Any] | None, scheme: str | None,
                 held: bool = False) -> str:
    """ "μ 25.0 → 27.3 (+2.3)"; Elo ratings are named so; a first rated game has no before; a
    seat whose player sat on several sides kept its rating ("held")."""
    after = (change or {}).get("after")
    if not after:
        return "held" if held else "not rated"
    name = "Elo" if scheme == "elo" else "μ"
    before = (change or {}).get("before")
    if not before:
        return f"{name} {after['mu']:.1f} (first game)"
    delta = after["mu"] - before["mu"]
    return f"{name} {before['mu']:.1f} → {after['mu']:.1f} ({delta:+.1f})"


def headline(result: Mapping[str, Any], names: Mapping[int, str], me: int | None) -> Text:
    if result.get("void"):
        return Text("The game is void: it ended early and is not rated.", style="bold yellow")
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    if not winners:
        return Text("A draw: nobody won.", style="bold")
    others = [names.get(w, f"seat {w}") for w in winners if w != me]
    if me in winners:
        return Text("You won" + (f", with {', '.join(others)}." if others else "!"),
                    style="bold green")
    return Text(f"Winner{'s' if len(others) > 1 else ''}: {', '.join(others)}", style="bold")


class OutcomeTable(Static):
    """`show(game_over, names, me, scheme)`: the headline, then one row per seat."""

    def show(self, over: Mapping[str, Any], names: Mapping[int, str], me: int | None,
             scheme: str | None) -> None:
        result = over.get("result") or {}
        rewards = result.get("rewards") or {}
        statuses = over.get("statuses") or {}
        changes = over.get("rating_changes") or {}
        held = set(over.get("rating_held") or [])
        scheme = over.get("rating_scheme") or scheme  # SocialGrid's people: TrueSkill, not Elo
        winners = set(result.get("winners") or [])
        table = Table(title="Rewards", title_justify="left", box=None, padding=(0, 1),
                      header_style="bold", title_style="bold")
        for column in ("Seat", "Player", "Result", "Reward", "Ended", "Rating"):
            table.add_column(column, justify="right" if column == "Reward" else "left")
        seats = sorted({int(k) for k in rewards} | {int(k) for k in statuses})
        for seat in seats:
            key = str(seat)
            style = "bold green" if seat in winners else ""
            who = names.get(seat, f"seat {seat}") + (" (you)" if seat == me else "")
            reward = rewards.get(key)
            table.add_row(Text(key, style=style), Text(who, style=style),
                          Text(seat_outcome(over, seat), style=style),
                          f"{reward:+g}" if isinstance(reward, int | float) else "—",
                          status_words(statuses.get(key)),
                          rating_words(changes.get(key), scheme, key in held))
        reason = Text(str(result.get("reason") or ""))
        for why, style in ((over.get("unrated"), "yellow"), (over.get("rating_note"), "dim")):
            if why:  # why the game is not rated, or how it was when not the plain way
                reason.append(f"\n{sentence(str(why))}", style=style)
        self.update(Group(headline(result, names, me), reason, Text(""), table))


def sentence(words: str) -> str:
    """ "not rated: …" -> "Not rated: …." """
    return words[:1].upper() + words[1:] + ("" if words.endswith(".") else ".")
