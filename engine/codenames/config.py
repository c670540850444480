"""Codenames settings: seats, roles, labels, the config and its presets.

Seats are fixed (MindGames §4): 0 Red Spymaster, 1 Red Operative, 2 Blue Spymaster, 3 Blue
Operative; Red starts. Each seat's `Role` is ("spymaster" | "operative", "red" | "blue"), so a
table can seat `spymaster=SPEC` (both spymasters) or `red=SPEC` (the whole red team).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Config, ConfigError, Role

PLAYERS = 4
RED, BLUE, NEUTRAL, ASSASSIN = "red", "blue", "neutral", "assassin"
TEAMS = (RED, BLUE)
LABELS = (RED, BLUE, NEUTRAL, ASSASSIN)
SPYMASTER, OPERATIVE = "spymaster", "operative"
SEAT_NAMES = ("Red Spymaster", "Red Operative", "Blue Spymaster", "Blue Operative")
ROLES = (Role(SPYMASTER, RED), Role(OPERATIVE, RED), Role(SPYMASTER, BLUE), Role(OPERATIVE, BLUE))
SPYMASTER_OF = {RED: 0, BLUE: 2}
OPERATIVE_OF = {RED: 1, BLUE: 3}
OTHER = {RED: BLUE, BLUE: RED}
BOARD_SIZE = 25  # a 5 x 5 board

# Limits: a clue word is short, and a game is bounded so that no view or record grows large.
MAX_CLUE_CHARS = 24
MAX_MOVES = 500
MAX_TEAM_WORDS = 12
MAX_ASSASSINS = 3


def team_of(seat: int) -> str:
    return ROLES[seat].side


@dataclass(frozen=True)
class CodenamesConfig(Config):
    max_moves: int = 80  # the move cap: every decision a seat makes counts as one move
    red_words: int = 9  # red starts, so red has one word more
    blue_words: int = 8
    assassins: int = 1
    max_clue_number: int = 9  # the largest number a clue may carry (0 is allowed too)

    @property
    def neutral_words(self) -> int:
        return BOARD_SIZE - self.red_words - self.blue_words - self.assassins

    def counts(self) -> dict[str, int]:
        return {RED: self.red_words, BLUE: self.blue_words, NEUTRAL: self.neutral_words,
                ASSASSIN: self.assassins}

    def validate(self) -> None:
        if not 1 <= self.max_moves <= MAX_MOVES:
            raise ConfigError(f"max_moves must be between 1 and {MAX_MOVES}, got "
                              f"{self.max_moves}")
        for name in ("red_words", "blue_words"):
            value = getattr(self, name)
            if not 1 <= value <= MAX_TEAM_WORDS:
                raise ConfigError(f"{name} must be between 1 and {MAX_TEAM_WORDS}, got {value}")
        if not 0 <= self.assassins <= MAX_ASSASSINS:
            raise ConfigError(f"assassins must be between 0 and {MAX_ASSASSINS}, got "
                              f"{self.assassins}")
        if self.neutral_words < 0:
            raise ConfigError(f"red_words + blue_words + assassins must fit the {BOARD_SIZE} "
                              f"cards, got {BOARD_SIZE - self.neutral_words}")
        if not 1 <= self.max_clue_number <= BOARD_SIZE:
            raise ConfigError(f"max_clue_number must be between 1 and {BOARD_SIZE}, got "
                              f"{self.max_clue_number}")


PRESETS: dict[str, CodenamesConfig] = {
    "paper": CodenamesConfig(),
    "long": CodenamesConfig(max_moves=200),  # the cap almost never decides a game
}
