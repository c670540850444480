"""Event -> one line of transcript text. Known event types read like prose; others stay generic."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Namer = Callable[[int], str]


def describe_event(event: dict[str, Any], name: Namer) -> str:
    kind = event.get("type", "?")
    data = event.get("data") or {}
    special = _SPECIAL.get(kind)
    if special is not None:
        try:
            return special(data, name)
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # an unexpected shape falls back to the generic line
    if "text" in data and "seat" in data:  # chat-like events in any env
        return f"{name(data['seat'])}: {data['text']}"
    return f"{kind.replace('_', ' ')}: {_fields(data, name)}" if data else kind.replace("_", " ")


def _fields(data: dict[str, Any], name: Namer) -> str:
    parts = []
    for key, value in data.items():
        if key == "seat" and isinstance(value, int):
            value = name(value)
        parts.append(f"{key}={_short(value)}")
    return ", ".join(parts)


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}{v}" if isinstance(v, int) else f"{k}:{v}" for k, v in value.items())
    if isinstance(value, list):
        return "/".join(_short(v) for v in value)
    return str(value)


def _round_started(d: dict[str, Any], name: Namer) -> str:
    total = f" of {d['rounds']}" if "rounds" in d else ""
    return f"── Round {d['round']}{total} ──"


def _round_resolved(d: dict[str, Any], name: Namer) -> str:
    winner = d.get("winner")
    outcome = "a tie" if winner is None else f"{name(winner)} wins the round"
    score = d.get("score")
    tail = f" (score {'–'.join(map(str, score))})" if score else ""
    allocs = d.get("allocations")
    if allocs:
        shown = "  vs  ".join(f"{name(i)} {_short(a)}" for i, a in enumerate(allocs))
        return f"Round {d['round']}: {shown} → {outcome}{tail}"
    return f"Round {d.get('round', '?')}: {outcome}{tail}"


def _submitted(d: dict[str, Any], name: Namer) -> str:
    return f"{name(d['seat'])} has decided"


def _invalid(d: dict[str, Any], name: Namer) -> str:
    fatal = " (no retries left)" if d.get("fatal") else ""
    return f"Invalid move by {name(d['seat'])}: {d.get('reason', '')}{fatal}"


def _forfeit(d: dict[str, Any], name: Namer) -> str:
    return f"{name(d['seat'])} forfeits: {d.get('reason', '')}"


def _game_over(d: dict[str, Any], name: Namer) -> str:
    return f"Game over: {d.get('reason', '')}"


_SPECIAL: dict[str, Callable[[dict[str, Any], Namer], str]] = {
    "round_started": _round_started,
    "round_resolved": _round_resolved,
    "allocation_submitted": _submitted,
    "decision_submitted": _submitted,
    "invalid_move": _invalid,
    "forfeit": _forfeit,
    "game_over": _game_over,
    "game_aborted": _game_over,
}
