"""Find the Spy's table settings, presets and the deal (spec socialmaze §4; every decision in
docs/rules/find-the-spy.md): four seats, `rounds` rounds of one-sentence descriptions, then
everyone names the spy. The spy's seat and the word pair are drawn from the game's seed."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.core import Config, ConfigError, Role, derive_seed
from engine.find_the_spy.passive import Recording, loads
from engine.find_the_spy.words import Pair, bank

PLAYERS = 4
MAX_ROUNDS = 5
MIN_CHARS, MAX_CHARS = 40, 500
INTERACTIVE, PASSIVE = "interactive", "passive"
MODES = (INTERACTIVE, PASSIVE)
# Role names capitalised, side names lower-case, so a role name is never a side name (the
# conformance suite then keeps "Spy" secret from the civilians' views until the end).
SPY, CIVILIAN = "Spy", "Civilian"
SPY_SIDE, CIVILIAN_SIDE = "spy", "civilians"


def seat_name(seat: int) -> str:
    """Seats are named as the paper's players: Player 1 to Player 4."""
    return f"Player {seat + 1}"


@dataclass(frozen=True)
class FindTheSpyConfig(Config):
    hidden_fields = ("recorded",)  # the recording holds both words and the spy
    rounds: int = 3  # rounds of descriptions, every seat once per round, in seat order
    max_chars: int = 200  # a longer description is cut to this length, never refused
    # "interactive": four seats describe and vote; "passive": the paper's task, one seat (the
    # recording's Player 1) reads a recorded game's descriptions and names the spy.
    mode: str = INTERACTIVE
    recorded: str = ""  # passive: a recorded game, one JSON object (engine/find_the_spy/passive.py)

    def validate(self) -> None:
        if self.mode not in MODES:
            raise ConfigError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.recorded:
            if self.mode != PASSIVE:
                raise ConfigError("recorded is for mode=passive only")
            self.recording()
            return
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise ConfigError(f"rounds must be between 1 and {MAX_ROUNDS}, got {self.rounds}")
        if not MIN_CHARS <= self.max_chars <= MAX_CHARS:
            raise ConfigError(f"max_chars must be between {MIN_CHARS} and {MAX_CHARS}, got "
                              f"{self.max_chars}")


    @property
    def passive(self) -> bool:
        return self.mode == PASSIVE

    def recording(self) -> Recording:
        """The recorded game; ConfigError naming the field when it is bad."""
        try:
            return loads(self.recorded)
        except (ValueError, TypeError) as e:  # json.JSONDecodeError is a ValueError
            raise ConfigError(f"recorded: {e}") from None


PRESETS: dict[str, FindTheSpyConfig] = {
    "paper": FindTheSpyConfig(),  # n = 4, T = 3
    "quick": FindTheSpyConfig(rounds=1),
    # The paper's passive task: one solver, descriptions dealt from the seed and the bank.
    "passive": FindTheSpyConfig(mode=PASSIVE),
}


def player_counts(config: FindTheSpyConfig) -> tuple[int, ...]:
    return (1,) if config.passive else (PLAYERS,)


def spy_seat(seed: int, players: int = PLAYERS) -> int:
    """The spy's seat: each seat equally likely, from a sub-seed of the game's seed."""
    return random.Random(derive_seed(seed, "roles")).randrange(players)


def assign_roles(config: FindTheSpyConfig, seed: int, players: int = PLAYERS
                 ) -> tuple[Role, ...]:
    """Each seat's role. Passive: the one seat is the recording's Player 1, the spy when the
    recording's spy is Player 1 (a game dealt from the seed draws the spy as usual)."""
    if players not in player_counts(config):
        raise ConfigError(f"find-the-spy in {config.mode} mode is played by "
                          f"{player_counts(config)[0]} players, not {players}")
    spy = config.recording().spy if config.recorded else spy_seat(seed, PLAYERS)
    return tuple(Role(SPY, SPY_SIDE) if s == spy else Role(CIVILIAN, CIVILIAN_SIDE)
                 for s in range(players))


def deal_words(seed: int) -> tuple[Pair, str, str]:
    """(pair, civilians' word, spy's word): a pair of the bank and which of its words is the
    spy's, both from a sub-seed of the game's seed."""
    rng = random.Random(derive_seed(seed, "words"))
    pair = rng.choice(bank())
    spy_first = rng.random() < 0.5
    return (pair, pair.second, pair.first) if spy_first else (pair, pair.first, pair.second)
