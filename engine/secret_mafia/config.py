"""Secret Mafia's config, presets, roles and the deal (spec §5; docs/rules/secret-mafia.md)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.core import Config, ConfigError, Role, derive_seed

PLAYERS = 6
# Roles carry capitalised names and sides lower-case ones, so that a role name is never also a
# side name (the conformance suite treats a role that is a side name as public).
MAFIA, DOCTOR, DETECTIVE, VILLAGER = "Mafia", "Doctor", "Detective", "Villager"
MAFIA_SIDE, VILLAGE_SIDE = "mafia", "village"
SIDES = {MAFIA: MAFIA_SIDE, DOCTOR: VILLAGE_SIDE, DETECTIVE: VILLAGE_SIDE, VILLAGER: VILLAGE_SIDE}
# The deal for six seats: the paper's Mafia share (0.25 of 6, rounded) and one of each special.
DEAL = (MAFIA, MAFIA, DOCTOR, DETECTIVE, VILLAGER, VILLAGER)
# The same, public, keyed by lower-case words (a view may show it: it names no seat's role).
COMPOSITION = {"mafia": 2, "doctor": 1, "detective": 1, "villager": 2}

NIGHT_ERRORS = ("eliminate", "correct")
MAX_DISCUSSION_ROUNDS = 5
MAX_CHAT_CHARS = 1000


def seat_name(seat: int) -> str:
    return f"Player {seat}"


@dataclass(frozen=True)
class MafiaConfig(Config):
    discussion_rounds: int = 3  # rounds of speeches each day, everyone once per round
    max_chat_chars: int = 500  # a longer speech (or Mafia note) is cut, never refused
    # "eliminate": a second invalid night action in a row eliminates its player, as a day vote
    # does; "correct": the paper's variant, where an invalid Doctor or Detective action is
    # silently replaced by their harmless move (nobody protected, nobody investigated).
    night_errors: str = "eliminate"
    doctor_self_protect: bool = False  # may the Doctor protect themself?
    reveal_roles: bool = False  # does the announcement of a death name the role?

    def validate(self) -> None:
        if not 1 <= self.discussion_rounds <= MAX_DISCUSSION_ROUNDS:
            raise ConfigError(f"discussion_rounds must be between 1 and {MAX_DISCUSSION_ROUNDS}, "
                              f"got {self.discussion_rounds}")
        if not 1 <= self.max_chat_chars <= MAX_CHAT_CHARS:
            raise ConfigError(f"max_chat_chars must be between 1 and {MAX_CHAT_CHARS}, got "
                              f"{self.max_chat_chars}")
        if self.night_errors not in NIGHT_ERRORS:
            raise ConfigError(f"night_errors must be one of {', '.join(NIGHT_ERRORS)}, got "
                              f"{self.night_errors!r}")


PRESETS: dict[str, MafiaConfig] = {
    "paper": MafiaConfig(),
    # The paper's Table 8: invalid Doctor and Detective actions are silently corrected.
    "paper-corrected": MafiaConfig(night_errors="correct"),
    "quick": MafiaConfig(discussion_rounds=1),
    "open-roles": MafiaConfig(reveal_roles=True),
}


def assign_roles(seed: int, players: int = PLAYERS) -> tuple[Role, ...]:
    """The deal, shuffled by a sub-seed of the game's seed (the same seed seats the same way)."""
    if players != PLAYERS:
        raise ConfigError(f"secret-mafia is played by {PLAYERS} players, not {players}")
    pool = list(DEAL)
    random.Random(derive_seed(seed, "roles")).shuffle(pool)
    return tuple(Role(name, SIDES[name]) for name in pool)
