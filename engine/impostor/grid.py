"""The Impostor paper's experiment design (spec impostor §2.4, §6) for any list of models: per
tier, one homogeneous experiment per model, a cross-play experiment per ordered pair of
distinct models (impostor model, majority model) and, in each of the three team modes, one per
unordered pair. Each experiment lists its games as tables to play: the model at each seat and
the fixed deal (the impostor's seat, the pair, the teams) as an ImpostorConfig.

Everything comes from one run seed through `derive_seed`: an experiment's seed from its id, a
game's table seed from its experiment's seed and number, so the same models and options give
the same experiments, ids and games in the same order (a stopped run resumes), and a longer run
(more games per experiment) starts with the games of a shorter one. Decisions the spec leaves
open are in docs/rules/impostor.md, "The experiment grid and statistics"."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, permutations
from typing import Any

from engine.core import derive_seed
from engine.impostor.config import (
    CROSS_PLAY,
    HOMOGENEOUS,
    MODES,
    PLAYERS,
    TEAM_MODES,
    ImpostorConfig,
)
from engine.impostor.words import TIERS, cycled_pairs
from engine.schedule import DistinctSeeds, table_seed

GAMES_PER_EXPERIMENT = 120  # spec §2.4
RESAMPLES = 10_000  # the paper's block bootstrap (spec §7); here, not in statistics.py, so that
# `parlor`'s parser (league.py) gets it without loading NumPy, SciPy and statsmodels
TEAM_A, TEAM_B = "A", "B"  # team labels: A is the experiment's first model, B its second


@dataclass(frozen=True, slots=True)
class GridGame:
    """One game of an experiment: the model at each seat, the table seed and the fixed deal."""

    experiment: str  # the experiment's id
    number: int  # 0-based within the experiment
    seed: int  # the table's seed (0 .. 2^48 - 1): it draws the speaking order
    seat_models: tuple[str, ...]  # the model spec at each seat
    config: ImpostorConfig  # tier, mode, impostor_seat, pair_index, teams

    @property
    def mode(self) -> str:
        return self.config.mode

    @property
    def tier(self) -> str:
        return self.config.tier

    @property
    def impostor_model(self) -> str:
        assert self.config.impostor_seat is not None
        return self.seat_models[self.config.impostor_seat]

    def overrides(self) -> dict[str, Any]:
        """The config as a table's settings (JSON; `ImpostorConfig.from_json` reads it back)."""
        return self.config.to_json()


@dataclass(frozen=True)
class Experiment:
    id: str  # "<tier>/<mode>/<models joined by ' vs '>", stable for the same models
    mode: str
    tier: str
    models: tuple[str, ...]  # homogeneous: (m,); cross_play: (impostor, majority); teams: (A, B)
    seed: int  # from the run seed and the id
    games: tuple[GridGame, ...]


def experiment_id(tier: str, mode: str, models: Sequence[str]) -> str:
    return f"{tier}/{mode}/{' vs '.join(models)}"


def mode_pairings(mode: str, models: Sequence[str]) -> list[tuple[str, ...]]:
    """The model tuples a mode plays, in the order of `models`: each model alone
    (homogeneous), ordered pairs (cross-play: impostor model first) or unordered pairs (team
    modes: the earlier model in the list is team A)."""
    if mode == HOMOGENEOUS:
        return [(m,) for m in models]
    if mode == CROSS_PLAY:
        return list(permutations(models, 2))
    return list(combinations(models, 2))


def cross_play_seats(rng: random.Random, games: int) -> list[int]:
    """The impostor's seat per game: shuffled blocks of four, each seat once per block."""
    seats: list[int] = []
    while len(seats) < games:
        block = list(range(PLAYERS))
        rng.shuffle(block)
        seats.extend(block)
    return seats[:games]


def team_deals(rng: random.Random, games: int) -> list[tuple[int, tuple[str, ...]]]:
    """(impostor seat, team label per seat) per game, in blocks of eight: four games with the
    impostor on team A, each seat once (in shuffled order), then four with it on team B. The
    impostor's teammate sits `offset` seats after it (mod 4), offset 1, 2, 3 in successive
    blocks, so every three blocks each seat is the impostor's teammate once per impostor
    seat, and in every half-block each team holds every seat twice."""
    deals: list[tuple[int, tuple[str, ...]]] = []
    block = 0
    while len(deals) < games:
        offset = 1 + block % (PLAYERS - 1)
        for team, other in ((TEAM_A, TEAM_B), (TEAM_B, TEAM_A)):
            seats = list(range(PLAYERS))
            rng.shuffle(seats)
            for s in seats:
                mates = {s, (s + offset) % PLAYERS}
                deals.append((s, tuple(team if q in mates else other for q in range(PLAYERS))))
        block += 1
    return deals[:games]


def build_experiment(run_seed: int, tier: str, mode: str, models: Sequence[str],
                     games: int = GAMES_PER_EXPERIMENT) -> Experiment:
    models = tuple(models)
    eid = experiment_id(tier, mode, models)
    seed = derive_seed(run_seed, f"impostor-grid:{eid}")
    rng = random.Random(derive_seed(seed, "seats"))
    if mode == HOMOGENEOUS:  # the paper's default rotation 0 -> 1 -> 2 -> 3
        deals = [(g % PLAYERS, ()) for g in range(games)]
    elif mode == CROSS_PLAY:
        deals = [(s, ()) for s in cross_play_seats(rng, games)]
    else:
        deals = team_deals(rng, games)
    pair_indices = cycled_pairs(tier, seed, games)
    out = []
    for g, (odd, teams) in enumerate(deals):
        if mode == HOMOGENEOUS:
            seat_models = (models[0],) * PLAYERS
        elif mode == CROSS_PLAY:
            seat_models = tuple(models[0] if s == odd else models[1] for s in range(PLAYERS))
        else:
            seat_models = tuple(models[0] if t == TEAM_A else models[1] for t in teams)
        config = ImpostorConfig(tier=tier, mode=mode, impostor_seat=odd,
                                pair_index=pair_indices[g], teams=teams)
        out.append(GridGame(eid, g, table_seed(seed, f"game:{g}"), seat_models, config))
    return Experiment(eid, mode, tier, models, seed, tuple(out))


def build_grid(models: Sequence[str], run_seed: int, *, games: int = GAMES_PER_EXPERIMENT,
               tiers: Sequence[str] = TIERS, modes: Sequence[str] = MODES) -> list[Experiment]:
    """Every experiment of the design, tier by tier (in the order of TIERS), mode by mode (in
    the order of MODES), pairings in the order of `models`. Raises ValueError on a repeated
    model, an unknown tier or mode, or fewer than one game per experiment."""
    models = list(models)
    if not models:
        raise ValueError("the grid needs at least one model")
    if len(set(models)) != len(models):
        raise ValueError(f"a model is listed twice: {models}")
    if games < 1:
        raise ValueError(f"games per experiment must be at least 1, got {games}")
    for name, given, known in (("tier", tiers, TIERS), ("mode", modes, MODES)):
        unknown = [x for x in given if x not in known]
        if unknown:
            raise ValueError(f"unknown {name} {unknown[0]!r}: one of {', '.join(known)}")
    grid = [build_experiment(run_seed, tier, mode, pairing, games)
            for tier in TIERS if tier in tiers
            for mode in MODES if mode in modes
            for pairing in mode_pairings(mode, models)]
    return _distinct_seeds(grid)


def _distinct_seeds(grid: list[Experiment]) -> list[Experiment]:
    """The grid with every table seed distinct, in play order."""
    seeds = DistinctSeeds()
    out = []
    for e in grid:
        games = [g if (seed := seeds.take(g.seed)) == g.seed else replace(g, seed=seed)
                 for g in e.games]
        out.append(e if games == list(e.games) else replace(e, games=tuple(games)))
    return out


def grid_games(experiments: Sequence[Experiment]) -> Iterator[GridGame]:
    """The games in play order: experiment by experiment."""
    for e in experiments:
        yield from e.games


def grid_row(game: GridGame, metrics: dict[str, Any]) -> dict[str, Any]:
    """One played game as the statistics read it: the grid's facts about the game beside the
    metrics `engine.impostor.metrics.game_metrics` gave its record."""
    return {"experiment": game.experiment, "mode": game.mode, "tier": game.tier,
            "seat_models": game.seat_models, "game": metrics["game"],
            "seats": metrics["seats"]}


__all__ = ["GAMES_PER_EXPERIMENT", "TEAM_MODES", "Experiment", "GridGame", "build_experiment",
           "build_grid", "grid_games", "grid_row"]
