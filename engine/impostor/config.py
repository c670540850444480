"""The Impostor game's settings, presets and the deal (spec impostor §2; every decision in
docs/rules/impostor.md). Four seats; the impostor's seat, the word pair and, in team modes, the
teams are drawn from sub-seeds of the game's seed unless the config fixes them (a league fixes
them to counterbalance seats and pairs). Fixed ones are hidden fields: a table's config as
clients see it never shows them."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.core import Config, ConfigError, Role, derive_seed
from engine.impostor.words import PAIRS_PER_TIER, TIERS, pair, pairs

PLAYERS = 4
MAX_CHARS = 750  # a description's limit (spec §3.1)
MAX_SENTENCES = 2
ANY = "any"  # a tier for tables: a pair drawn from all 300
HOMOGENEOUS, CROSS_PLAY = "homogeneous", "cross_play"
TEAM_BLIND, TEAM_AWARE, TEAM_SEMI_AWARE = "team_blind", "team_aware", "team_semi_aware"
MODES = (HOMOGENEOUS, CROSS_PLAY, TEAM_BLIND, TEAM_AWARE, TEAM_SEMI_AWARE)
TEAM_MODES = (TEAM_BLIND, TEAM_AWARE, TEAM_SEMI_AWARE)
# Role names capitalised, sides lower-case: a role name is never a side name (the conformance
# suite then keeps "Impostor" secret from the majority's views until the end).
IMPOSTOR, MAJORITY = "Impostor", "Majority"
IMPOSTOR_SIDE, MAJORITY_SIDE = "impostor", "majority"


def seat_name(seat: int) -> str:
    """Seats are labelled as the spec recommends: Player 1 to Player 4."""
    return f"Player {seat + 1}"


@dataclass(frozen=True)
class ImpostorConfig(Config):
    # What a seat must not know: who the impostor is, the pair, and (semi-aware, blind) teams.
    hidden_fields = ("impostor_seat", "pair_index", "teams")
    tier: str = ANY  # easy, medium, hard, expert, or any (drawn from all 300 pairs)
    mode: str = HOMOGENEOUS  # which team information each seat is shown (spec §2.3)
    impostor_seat: int | None = None  # fixed by a league; None: drawn from the seed
    pair_index: int | None = None  # the tier's pair (file order); None: drawn from the seed
    # Team modes: each seat's team label, two seats per label (e.g. ["A", "B", "B", "A"]);
    # empty: drawn from the seed. Teams are by model, not by role.
    teams: tuple[str, ...] = ()

    def validate(self) -> None:
        if self.tier not in (*TIERS, ANY):
            raise ConfigError(f"tier must be one of {', '.join((*TIERS, ANY))}, got "
                              f"{self.tier!r}")
        if self.mode not in MODES:
            raise ConfigError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.impostor_seat is not None and not 0 <= self.impostor_seat < PLAYERS:
            raise ConfigError(f"impostor_seat must be a seat from 0 to {PLAYERS - 1}, got "
                              f"{self.impostor_seat}")
        if self.pair_index is not None:
            if self.tier == ANY:
                raise ConfigError("pair_index needs a tier (easy, medium, hard or expert)")
            if not 0 <= self.pair_index < PAIRS_PER_TIER:
                raise ConfigError(f"pair_index must be from 0 to {PAIRS_PER_TIER - 1}, got "
                                  f"{self.pair_index}")
        if self.teams:
            if self.mode not in TEAM_MODES:
                raise ConfigError(f"teams are for the team modes ({', '.join(TEAM_MODES)})")
            labels = sorted(set(self.teams))
            if len(self.teams) != PLAYERS or len(labels) != 2 \
                    or self.teams.count(labels[0]) != 2 or not all(labels):
                raise ConfigError(f"teams must give each of the {PLAYERS} seats a team label, "
                                  f"two seats per team, got {list(self.teams)}")

    @property
    def team_mode(self) -> bool:
        return self.mode in TEAM_MODES


PRESETS: dict[str, ImpostorConfig] = {
    "paper": ImpostorConfig(),  # four players, one pair from any tier, no team information
    **{tier: ImpostorConfig(tier=tier) for tier in TIERS},
    "team-blind": ImpostorConfig(mode=TEAM_BLIND),
    "team-aware": ImpostorConfig(mode=TEAM_AWARE),
    "team-semi-aware": ImpostorConfig(mode=TEAM_SEMI_AWARE),
}


def impostor_seat(config: ImpostorConfig, seed: int) -> int:
    """The config's, or each seat equally likely from the "roles" sub-seed."""
    if config.impostor_seat is not None:
        return config.impostor_seat
    return random.Random(derive_seed(seed, "roles")).randrange(PLAYERS)


def assign_roles(config: ImpostorConfig, seed: int, players: int = PLAYERS
                 ) -> tuple[Role, ...]:
    if players != PLAYERS:
        raise ConfigError(f"impostor is played by {PLAYERS} players, not {players}")
    odd = impostor_seat(config, seed)
    return tuple(Role(IMPOSTOR, IMPOSTOR_SIDE) if s == odd else Role(MAJORITY, MAJORITY_SIDE)
                 for s in range(players))


def deal_pair(config: ImpostorConfig, seed: int) -> tuple[str, int, tuple[str, str]]:
    """(tier, index, (majority word, impostor word)): the config's pair, or one drawn from
    the "words" sub-seed (tier `any`: a tier, then a pair, each uniformly)."""
    if config.pair_index is not None:
        return config.tier, config.pair_index, pair(config.tier, config.pair_index)
    rng = random.Random(derive_seed(seed, "words"))
    tier = rng.choice(TIERS) if config.tier == ANY else config.tier
    index = rng.randrange(len(pairs()[tier]))
    return tier, index, pair(tier, index)


def deal_teams(config: ImpostorConfig, seed: int) -> tuple[str, ...]:
    """Team modes: the config's labels, or seats split two and two ("A", "B") from the
    "teams" sub-seed; other modes: none."""
    if not config.team_mode:
        return ()
    if config.teams:
        return config.teams
    a = set(random.Random(derive_seed(seed, "teams")).sample(range(PLAYERS), 2))
    return tuple("A" if s in a else "B" for s in range(PLAYERS))
