"""Reading SocialGrid answers: a step's action and a meeting's ballot, as text or structured.

A step action is an action id (0..13) or its name: `3`, `"MOVE_FORWARD"`, the JSON the paper's
agents write (`{"thought": "...", "action": 0}`), or the TUI's structured `{"choice": "0"}`.
A ballot names a player or `skip`, with optional trust scores and a thought: `vote Player_3`,
the paper's JSON `{"thought": ..., "vote": "Player_3", "trust_scores": {"Player_0": 0.8}}`, or
the TUI's form `{"vote": "3", "trust_0": 0.8, "thought": ...}`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.socialgrid.moves import ACTION_NAMES

NAME_TO_ACTION = {name: action for action, name in ACTION_NAMES.items()}
SKIP = "skip"
MAX_THOUGHT = 2000  # characters of a ballot's thought kept
_PLAYER = re.compile(r"^\s*(?:player[_ ]?)?(\d{1,2})\s*$", re.IGNORECASE)


class AnswerError(ValueError):
    """An answer the rules cannot read; `category` is "format" (unreadable)."""


@dataclass(frozen=True, slots=True)
class Ballot:
    target: int | None  # the seat voted for; None = skip
    trust: Mapping[int, float]
    thought: str = ""


def parse_action(action: str | Mapping[str, Any]) -> int:
    """The action id of a step answer; AnswerError if there is none."""
    if isinstance(action, Mapping):
        value = action.get("choice", action.get("action"))
    else:
        text = action.strip()
        value = _json_field(text, "action") if text.startswith("{") else text
    if isinstance(value, bool):
        raise AnswerError(f"not an action: {value!r}")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and value.strip().upper() in NAME_TO_ACTION:
        return NAME_TO_ACTION[value.strip().upper()]
    elif isinstance(value, str) and value.strip().isdecimal() and value.strip().isascii():
        number = int(value.strip())
    else:
        raise AnswerError(f"not an action: {str(value)[:40]!r}; answer with an action number "
                          f"0..13 or its name")
    if number not in ACTION_NAMES:
        raise AnswerError(f"no action {number}; actions are 0..13")
    return number


def parse_ballot(action: str | Mapping[str, Any], players: int) -> Ballot:
    """A ballot: whom it names (a seat or skip), trust scores in 0..1 for seats, a thought."""
    if isinstance(action, Mapping):
        data: Mapping[str, Any] = action
    else:
        text = action.strip()
        if text.startswith("{"):
            data = _json(text)
        else:
            data = {"vote": re.sub(r"^\s*vote\s*:?\s*", "", text, flags=re.IGNORECASE)}
    vote = data.get("vote")
    if vote is None:
        raise AnswerError("a ballot names a player or skip")
    target = _target(str(vote), players)
    trust: dict[int, float] = {}
    scores = data.get("trust_scores")
    if isinstance(scores, Mapping):
        for key, value in scores.items():
            _add_trust(trust, str(key), value, players)
    for key, value in data.items():
        if isinstance(key, str) and key.startswith("trust_") and key != "trust_scores":
            _add_trust(trust, key.removeprefix("trust_"), value, players)
    thought = data.get("thought")
    return Ballot(target, trust, thought[:MAX_THOUGHT] if isinstance(thought, str) else "")


def _target(vote: str, players: int) -> int | None:
    if vote.strip().lower() == SKIP:
        return None
    seat = _seat(vote, players)
    if seat is None:
        raise AnswerError(f"no player {vote[:40]!r}; vote Player_0..Player_{players - 1} or skip")
    return seat


def _seat(text: str, players: int) -> int | None:
    found = _PLAYER.match(text)
    if found is None:
        return None
    seat = int(found.group(1))
    return seat if seat < players else None


def _add_trust(trust: dict[int, float], who: str, value: Any, players: int) -> None:
    """Scores outside 0..1 are clipped; unreadable entries are dropped (a ballot still counts)."""
    seat = _seat(who, players)
    if seat is None or isinstance(value, bool) or not isinstance(value, int | float):
        return
    if math.isfinite(value):
        trust[seat] = min(1.0, max(0.0, float(value)))


def _json(text: str) -> Mapping[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        raise AnswerError("the answer is not valid JSON") from None
    if not isinstance(data, Mapping):
        raise AnswerError("the JSON answer is not an object")
    return data


def _json_field(text: str, key: str) -> Any:
    return _json(text).get(key)
