"""What `parlor maze solve` asks of a SocialMaze rules kit (each kit's `solve_check` module): a
`Reading` of a file, and a `Check` of one instance's stored answer against our solver."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reading:
    """What a loader made of a file: the items `check` takes, and one line per problem."""

    items: list[Any]
    problems: list[str]


@dataclass
class Check:
    """Our solver against the file on one instance. `queries` is (kind, agrees) per query."""

    id: str
    solver: str
    truth: str
    agrees: bool
    data: dict[str, Any]
    queries: list[tuple[str, bool]] = field(default_factory=list)
    explanation: str | None = None
