"""Hidden Role Deduction's table settings: a generated puzzle (variant, players, rounds, how
Player 1's actual role is drawn) or an imported one, carried whole in the config so that the
game replays from its record without the file it came from, and how long a person has for each
round's answer."""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine.core import Config, ConfigError
from engine.hidden_role.dataset import from_record
from engine.hidden_role.generator import MAX_ROUNDS
from engine.hidden_role.instance import Instance
from engine.hidden_role.roles import P1_DISTRIBUTIONS, composition

MAX_SECONDS = 3600


@dataclass(frozen=True)
class HiddenRoleConfig(Config):
    hidden_fields = ("instance",)  # the puzzle holds its answer and every role
    variant: str = "full"
    players: int = 6
    rounds: int = 3
    p1: str = "uniform"  # Player 1's actual role: "uniform" 1:1:1:1 or "released" 3:2:60:35
    instance: str = ""  # an imported puzzle, one line of our JSONL format, played as is
    # Seconds a person has for each round's answer, after which the answer counts as given with
    # nothing (no criminal named, role Unknown: wrong) and the next round comes; 0: the table's
    # turn timer and timeout policy apply instead.
    seconds_per_round: int = 0

    def validate(self) -> None:
        if not 0 <= self.seconds_per_round <= MAX_SECONDS:  # its type is checked on creation
            raise ConfigError(f"seconds_per_round must be between 0 (the table's timer) and "
                              f"{MAX_SECONDS}, got {self.seconds_per_round}")
        if self.instance:
            self.puzzle()
            return
        composition(self.variant, self.players)  # raises ConfigError naming the valid values
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise ConfigError(f"rounds must be between 1 and {MAX_ROUNDS}, got {self.rounds}")
        if self.p1 not in P1_DISTRIBUTIONS:
            raise ConfigError(f"unknown p1 {self.p1!r}; valid: {', '.join(P1_DISTRIBUTIONS)}")

    def puzzle(self) -> Instance:
        """The imported puzzle; ConfigError naming the field when the record is bad."""
        try:
            return from_record(json.loads(self.instance))
        except ValueError as e:  # json.JSONDecodeError is one
            raise ConfigError(f"instance: {e}") from None


PRESETS = {
    "paper": HiddenRoleConfig(),  # the paper's table: Full variant, 6 players, 3 rounds
    "released-easy": HiddenRoleConfig(p1="released"),
    "released-hard": HiddenRoleConfig(players=10, p1="released"),
    "original": HiddenRoleConfig(variant="original"),
    "rumormonger": HiddenRoleConfig(variant="rumormonger"),
    "lunatic": HiddenRoleConfig(variant="lunatic"),
}
