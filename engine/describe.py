"""Event -> one line of transcript text, for the events the base `Game` emits, the round
markers every round-based env emits, and as the fallback for any other event (envs describe their own events in their text module)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Namer = Callable[[int], str]


def describe_generic(kind: str, data: Mapping[str, Any], name: Namer) -> str:
    special = _BASE.get(kind)
    if special is not None:
        try:
            return special(data, name)
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # an unexpected shape falls back to the generic line
    if isinstance(data.get("text"), str) and isinstance(data.get("seat"), int):
        return f"{name(data['seat'])}: {data['text']}"  # chat-like events in any env
    label = kind.replace("_", " ")
    return f"{label}: {fields_text(data, name)}" if data else label


def fields_text(data: Mapping[str, Any], name: Namer) -> str:
    parts = []
    for key, value in data.items():
        if key == "seat" and isinstance(value, int) and not isinstance(value, bool):
            value = name(value)
        parts.append(f"{key}={short(value)}")
    return ", ".join(parts)


def short(value: Any) -> str:
    if isinstance(value, Mapping):
        return " ".join(f"{k}{v}" if isinstance(v, int) else f"{k}:{short(v)}"
                        for k, v in value.items())
    if isinstance(value, list | tuple):
        return "/".join(short(v) for v in value)
    return str(value)


def _round_started(d: Mapping[str, Any], name: Namer) -> str:
    total = f" of {d['rounds']}" if "rounds" in d else ""
    return f"── Round {d['round']}{total} ──"


def _invalid(d: Mapping[str, Any], name: Namer) -> str:
    fatal = " (no retries left)" if d.get("fatal") else ""
    return f"Invalid move by {name(d['seat'])}: {d.get('reason', '')}{fatal}"


def _forfeit(d: Mapping[str, Any], name: Namer) -> str:
    return f"{name(d['seat'])} forfeits: {d.get('reason', '')}"


def _eliminated(d: Mapping[str, Any], name: Namer) -> str:
    return f"{name(d['seat'])} is eliminated: {d.get('reason', '')}"


def _defaulted(d: Mapping[str, Any], name: Namer) -> str:
    return f"{name(d['seat'])} made the default move ({d.get('reason', '')})"


def _revealed(d: Mapping[str, Any], name: Namer) -> str:
    roles = d.get("roles")
    if roles:
        return "Roles: " + ", ".join(f"{name(s)} {r['name']}" for s, r in enumerate(roles))
    return "Setup revealed: " + fields_text(d, name)


def _game_over(d: Mapping[str, Any], name: Namer) -> str:
    return f"Game over: {d.get('reason', '')}"


_BASE: dict[str, Callable[[Mapping[str, Any], Namer], str]] = {
    "round_started": _round_started,
    "invalid_move": _invalid,
    "forfeit": _forfeit,
    "eliminated": _eliminated,
    "move_defaulted": _defaulted,
    "setup_revealed": _revealed,
    "game_over": _game_over,
    "game_aborted": _game_over,
}
