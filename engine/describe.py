"""Event -> one line of transcript text, for the events the base `Game` emits, the round
markers every round-based env emits, and as the fallback for any other event (envs describe their
own events in their text module).

Seats are named by a namer (`Callable[[int], str]`): a table's display names, or the env's own
seat names by default. Texts the env wrote into an event (a forfeit's or a game's end reason)
name seats by the env's own names; a `Naming` rewrites those to the namer's names, so that a line
never mixes "Player 0" with the display name of the same seat.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

Namer = Callable[[int], str]


def with_article(noun: str) -> str:
    """"an impostor", "a crewmate": role names in running text."""
    return f"an {noun}" if noun[:1].lower() in "aeiou" else f"a {noun}"


class Naming:
    """A namer (call it with a seat) that also rewrites the env's own seat names in free text
    (`text`) to the names it gives. Without `own` names, texts are left as they are."""

    __slots__ = ("name", "_pattern", "_seats")

    def __init__(self, name: Namer, own: Sequence[str] = ()) -> None:
        self.name = name
        self._pattern, self._seats = _own_names(tuple(own)) if own else (None, {})

    def __call__(self, seat: int) -> str:
        return self.name(seat)

    def text(self, text: str) -> str:
        """`text` with each whole-word mention of a seat's own name replaced by its display
        name, in one pass (a display name that looks like another seat's own name is safe)."""
        if self._pattern is None or not text:
            return text
        seats = self._seats
        return self._pattern.sub(lambda m: self.name(seats[m.group(0)]), text)


def distinct_names(names: Sequence[str]) -> list[str]:
    """Seat names as every screen shows them: a name two seats share gets " #<seat>"."""
    if len(set(names)) == len(names):
        return list(names)
    counts = {n: names.count(n) for n in names}
    return [f"{n} #{i}" if counts[n] > 1 else n for i, n in enumerate(names)]


@lru_cache(maxsize=64)
def _own_names(own: tuple[str, ...]) -> tuple[re.Pattern[str] | None, dict[str, int]]:
    seats: dict[str, int] = {}
    for seat, name in enumerate(own):
        if name:
            seats.setdefault(name, seat)
    if not seats:
        return None, {}
    longest_first = sorted(seats, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, longest_first)) + r")(?!\w)")
    return pattern, seats


def naming(name: Namer | None, own: Namer, seats: int) -> Naming:
    """The namer an env's `describe_event` uses: `name` (display names) when given, else the
    env's own names (`own`); `seats` of them are looked for in texts the env wrote."""
    if name is None or name == own:
        return Naming(own)
    return Naming(name, [own(s) for s in range(seats)])


def _as_naming(name: Namer) -> Naming:
    return name if isinstance(name, Naming) else Naming(name)


def describe_generic(kind: str, data: Mapping[str, Any], name: Namer) -> str:
    naming_ = _as_naming(name)
    special = _BASE.get(kind)
    if special is not None:
        try:
            return special(data, naming_)
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # an unexpected shape falls back to the generic line
    if isinstance(data.get("text"), str) and isinstance(data.get("seat"), int):
        return f"{naming_(data['seat'])}: {data['text']}"  # chat-like events in any env
    label = kind.replace("_", " ")
    return f"{label}: {fields_text(data, naming_)}" if data else label


def describe_or_generic(own: Callable[[str, Mapping[str, Any], Namer], str | None], kind: str,
                        data: Mapping[str, Any], name: Namer) -> str:
    """An env's own line for an event (`own` returns None for events it has no words for),
    else the generic line; an unexpected shape of data falls back to the generic line too."""
    try:
        line = own(kind, data, name)
    except (KeyError, TypeError, ValueError, IndexError):
        line = None
    return line if line is not None else describe_generic(kind, data, name)


def fields_text(data: Mapping[str, Any], name: Namer) -> str:
    parts = []
    for key, value in data.items():
        if key == "seat" and isinstance(value, int) and not isinstance(value, bool):
            value = name(value)
        elif isinstance(value, str) and isinstance(name, Naming):
            value = name.text(value)
        parts.append(f"{key}={short(value)}")
    return ", ".join(parts)


def short(value: Any) -> str:
    if isinstance(value, Mapping):
        return " ".join(f"{k}{v}" if isinstance(v, int) else f"{k}:{short(v)}"
                        for k, v in value.items())
    if isinstance(value, list | tuple):
        return "/".join(short(v) for v in value)
    return str(value)


def _round_started(d: Mapping[str, Any], name: Naming) -> str:
    total = f" of {d['rounds']}" if "rounds" in d else ""
    return f"── Round {d['round']}{total} ──"


def _invalid(d: Mapping[str, Any], name: Naming) -> str:
    fatal = " (no retries left)" if d.get("fatal") else ""
    return f"Invalid move by {name(d['seat'])}: {name.text(d.get('reason', ''))}{fatal}"


def _forfeit(d: Mapping[str, Any], name: Naming) -> str:
    return f"{name(d['seat'])} forfeits: {name.text(d.get('reason', ''))}"


def _eliminated(d: Mapping[str, Any], name: Naming) -> str:
    return f"{name(d['seat'])} is eliminated: {name.text(d.get('reason', ''))}"


def _defaulted(d: Mapping[str, Any], name: Naming) -> str:
    return f"{name(d['seat'])} made the default move ({name.text(d.get('reason', ''))})"


def _revealed(d: Mapping[str, Any], name: Naming) -> str:
    roles = d.get("roles")
    if roles:
        return "Roles: " + ", ".join(f"{name(s)} {r['name']}" for s, r in enumerate(roles))
    return "Setup revealed: " + fields_text(d, name)


def _game_over(d: Mapping[str, Any], name: Naming) -> str:
    return f"Game over: {name.text(d.get('reason', ''))}"


_BASE: dict[str, Callable[[Mapping[str, Any], Naming], str]] = {
    "round_started": _round_started,
    "invalid_move": _invalid,
    "forfeit": _forfeit,
    "eliminated": _eliminated,
    "move_defaulted": _defaulted,
    "setup_revealed": _revealed,
    "game_over": _game_over,
    "game_aborted": _game_over,
}
