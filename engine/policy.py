"""The invalid-move policies of the papers, shared by every env through `Game.reject`.

A rejected move is counted against its seat (consecutive errors only: a valid move resets the
count). While the seat has retries left it is asked again, and only it hears why. When the retries
run out, the policy's consequence applies:

- FORFEIT: the seat's side loses and the game ends (MindGames two-player games);
- ELIMINATE: the seat is out, the game goes on (Secret Mafia);
- DEFAULT: the env's harmless move is made in its place (silently corrected);
- VOID_BALLOT: the seat's vote counts for nothing;
- SKIP_TURN: the seat's team loses its turn (Codenames).

FORFEIT and ELIMINATE are fatal (MindGames' taxonomy); the others are not. Errors are classified
in MindGames' categories so attribution never depends on an env's event names.
"""

from __future__ import annotations

from dataclasses import dataclass

# MindGames error categories (§10).
FORMAT = "format"  # unreadable: the answer is not in the required syntax
RULE = "rule"  # readable, but a move the rules do not allow now
TURN_LIMIT = "turn_limit"
OTHER = "other"
ERROR_CLASSES = (FORMAT, RULE, TURN_LIMIT, OTHER)

FORFEIT = "forfeit"
ELIMINATE = "eliminate"
DEFAULT = "default"
VOID_BALLOT = "void_ballot"
SKIP_TURN = "skip_turn"
CONSEQUENCES = (FORFEIT, ELIMINATE, DEFAULT, VOID_BALLOT, SKIP_TURN)
FATAL = frozenset((FORFEIT, ELIMINATE))


@dataclass(frozen=True)
class InvalidMovePolicy:
    """`retries` invalid moves in a row are retried; the next one has consequence `then`."""

    retries: int = 1
    then: str = FORFEIT

    def __post_init__(self) -> None:
        if self.then not in CONSEQUENCES:
            raise ValueError(f"unknown consequence {self.then!r}; valid: {', '.join(CONSEQUENCES)}")
        if self.retries < 0:
            raise ValueError("retries cannot be negative")

    @property
    def fatal(self) -> bool:
        return self.then in FATAL
