"""Text and structured answers -> a typed AmongAgents choice, or a `ParseError` (a format error)
the rules then judge. The rules never see raw text.

An action is one of the seat's offers (`Offer`): written as its number in the list (1-based),
its id (`move:Admin`), or its text, where, as in the released code, the first offer whose text
the answer contains counts (`... [Action] MOVE from Cafeteria to Admin`). Speech is
`SPEAK: <message>` (the message is the rest of the answer); the cameras are
`VIEW MONITOR <room>`. In a meeting's discussion the whole answer is the speech.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.amongagents.ship import ROOMS
from engine.chat import clean_chat

MAX_SCAN_CHARS = 20_000  # a longer answer is read from its first this-many characters
ACTION_MARK = "[action]"
SPEAK_MARK = "speak:"
MONITOR_MARK = "view monitor"
# Longest names first, so "Lower Engine" is never read as another room's prefix.
_ROOMS_LONGEST = sorted(ROOMS, key=len, reverse=True)


class ParseError(ValueError):
    """The answer names none of the seat's actions (a MindGames format error)."""


@dataclass(frozen=True, slots=True)
class Offer:
    """One action a seat may take now: `id` (stable, e.g. `kill:3`), `label` (the text shown,
    as in the released code), `verb` and its argument (a room, a seat or a task index)."""

    id: str
    label: str
    verb: str
    room: str | None = None
    seat: int | None = None
    task: int | None = None


@dataclass(frozen=True, slots=True)
class Chosen:
    """The offer taken, with the message of a speech or the room of a camera view."""

    offer: Offer | None  # None: the harmless abstention (a default vote only)
    text: str = ""
    room: str | None = None


ABSTAIN = Chosen(None)


def _find(offers: Sequence[Offer], verb: str) -> Offer | None:
    return next((o for o in offers if o.verb == verb), None)


def _room_in(text: str) -> str | None:
    low = text.lower()
    found = [(low.find(r.lower()), r) for r in _ROOMS_LONGEST if r.lower() in low]
    return min(found)[1] if found else None


def _with_arg(offer: Offer, arg: Any, max_chars: int) -> Chosen:
    if offer.verb == "speak":
        if not isinstance(arg, str):
            raise ParseError("SPEAK needs a message")
        return Chosen(offer, clean_chat(arg, max_chars))
    if offer.verb == "monitor":
        if arg not in ROOMS:
            raise ParseError(f"VIEW MONITOR needs a room to watch, one of: {', '.join(ROOMS)}")
        return Chosen(offer, room=arg)
    if arg is not None:
        raise ParseError(f"{offer.label} takes no argument")
    return Chosen(offer)


def parse_choice(action: str | Mapping[str, Any], offers: Sequence[Offer],
                 max_chars: int) -> Chosen:
    """The offer an answer names (text, {"choice": id, "arg": ...}, {"text": ...}, or the
    default vote {"abstain": true})."""
    if not isinstance(action, str):
        if action.get("abstain") is True and len(action) == 1:
            return ABSTAIN
        if "choice" in action and set(action) <= {"choice", "arg"}:
            offer = next((o for o in offers if o.id == action["choice"]), None)
            if offer is None:
                raise ParseError(f"no such action {action['choice']!r} now; "
                                 f"choose one of: {', '.join(o.id for o in offers)}")
            return _with_arg(offer, action.get("arg"), max_chars)
        text = action.get("text")
        if not isinstance(text, str) or len(action) != 1:
            raise ParseError("an action is {\"choice\": id} or text naming one")
        action = text
    return read_choice(action, offers, max_chars)


def read_choice(text: str, offers: Sequence[Offer], max_chars: int) -> Chosen:
    """The reading of a typed answer (see the module doc)."""
    text = text[:MAX_SCAN_CHARS]
    low = text.lower()
    at = low.rfind(ACTION_MARK)
    if at >= 0:
        text, low = text[at + len(ACTION_MARK):], low[at + len(ACTION_MARK):]
    bare = text.strip().rstrip(".")
    if bare.isdigit() and len(bare) <= 3:
        index = int(bare)
        if 1 <= index <= len(offers):
            offer = offers[index - 1]
            if offer.verb == "speak":
                return Chosen(offer, "...")
            if offer.verb == "monitor":
                raise ParseError("VIEW MONITOR needs a room: write VIEW MONITOR <room>")
            return Chosen(offer)
        raise ParseError(f"there is no action {index}; choose 1 to {len(offers)}")
    by_id = next((o for o in offers if o.id == bare), None)
    if by_id is not None and by_id.verb not in ("speak", "monitor"):
        return Chosen(by_id)
    speak = _find(offers, "speak")
    said = low.find(SPEAK_MARK)
    if speak is not None and said >= 0:
        return Chosen(speak, clean_chat(text[said + len(SPEAK_MARK):], max_chars))
    monitor = _find(offers, "monitor")
    watched = low.find(MONITOR_MARK)
    if monitor is not None and watched >= 0:
        room = _room_in(text[watched + len(MONITOR_MARK):])
        if room is None:
            raise ParseError(f"VIEW MONITOR needs a room to watch, one of: {', '.join(ROOMS)}")
        return Chosen(monitor, room=room)
    for offer in offers:
        if offer.verb not in ("speak", "monitor") and offer.label.lower() in low:
            return Chosen(offer)
    raise ParseError("the answer names none of the available actions; write one of them "
                     "(or its number): " + "; ".join(o.label for o in offers))


def parse_speech(action: str | Mapping[str, Any], max_chars: int) -> str:
    """A meeting speech: the text (a leading `SPEAK:` dropped), or {"text": ...}; cleaned and
    cut, never refused (an empty speech keeps quiet)."""
    if not isinstance(action, str):
        text = action.get("text", "")
        action = text if isinstance(text, str) else ""
    low = action.lower()
    at = low.rfind(ACTION_MARK)
    if at >= 0:
        action = action[at + len(ACTION_MARK):]
        low = low[at + len(ACTION_MARK):]
    said = low.find(SPEAK_MARK)
    if said >= 0:
        action = action[said + len(SPEAK_MARK):]
    return clean_chat(action, max_chars)
