"""The generic transcript line for an event that came without its `text` (an older server).

The server sends each event with a line the env wrote for the recipient (`Env.describe_event`);
the TUI never knows an env's events, so this fallback only spells out the type and the data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Namer = Callable[[int], str]


def describe_event(event: dict[str, Any], name: Namer) -> str:
    kind = str(event.get("type", "?")).replace("_", " ")
    data = event.get("data") or {}
    if isinstance(data.get("text"), str) and isinstance(data.get("seat"), int):
        return f"{name(data['seat'])}: {data['text']}"  # chat-like events in any env
    return f"{kind}: {_fields(data, name)}" if data else kind


def _fields(data: dict[str, Any], name: Namer) -> str:
    parts = []
    for key, value in data.items():
        if key == "seat" and isinstance(value, int) and not isinstance(value, bool):
            value = name(value)
        parts.append(f"{key}={_short(value)}")
    return ", ".join(parts)


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}{v}" if isinstance(v, int) else f"{k}:{_short(v)}"
                        for k, v in value.items())
    if isinstance(value, list):
        return "/".join(_short(v) for v in value)
    return str(value)
