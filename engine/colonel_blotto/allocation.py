"""The typed action of Colonel Blotto: how many units a commander sends to each field.

It lives in its own module so that both the syntax (which builds it) and the rules (which judge
it) can import it without importing each other.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

FIELD_LETTERS = string.ascii_uppercase  # fields are named A, B, C, ... (at most 26)


def field_names(count: int) -> tuple[str, ...]:
    """The names of the first `count` fields: ("A", "B", "C") for three."""
    return tuple(FIELD_LETTERS[:count])


@dataclass(slots=True)
class Allocation:
    """Units per field, in field order (A first). Values are non-negative integers."""

    units: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.units)

    def as_dict(self, names: tuple[str, ...]) -> dict[str, int]:
        # Parsers build `units` with one count per name; a strict zip would cost a third more.
        return dict(zip(names, self.units, strict=False))
