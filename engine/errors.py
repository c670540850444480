"""Errors the engine raises on misuse (never on a player's bad move)."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on misuse (never on a player's bad move)."""


class ConfigError(EngineError, ValueError):
    """A config value is out of range or unknown; the message says what is allowed."""


class UnknownEnvError(EngineError, KeyError):
    def __str__(self) -> str:  # KeyError would quote the message
        return self.args[0] if self.args else "unknown environment"


class NotYourTurnError(EngineError):
    """The seat is not among `pending()`; the game state is unchanged."""


class UnknownSeatError(EngineError):
    """The seat number does not exist at this table."""


class GameOverError(EngineError):
    """The game has ended; nothing more can be played."""
