"""Find the Spy (SocialMaze §4): the env's description, text, metrics and where its bots and
prompts live."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.core import Config, Env, InvalidMovePolicy, Role
from engine.find_the_spy import metrics, text
from engine.find_the_spy.config import (
    PLAYERS,
    PRESETS,
    FindTheSpyConfig,
    assign_roles,
    player_counts,
    seat_name,
)
from engine.find_the_spy.rules import FindTheSpyGame
from engine.policy import DEFAULT

ENV_ID = "find-the-spy"


class FindTheSpyEnv(Env):
    id = ENV_ID
    title = "Find the Spy"
    description = ("Four players, one word each: three share it, the spy's is related but "
                   "different. Describe yours without saying it, then name the spy.")
    players = (PLAYERS, 1)  # 1: the passive mode's one solver
    rules_version = "4"  # v2: disguised words are refused (engine/wording.py); v3: 256-bit sub-seeds deal; v4: inflections that change the word's letters leak (berried, making, began)
    Config = FindTheSpyConfig
    game_class = FindTheSpyGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "paper"
    seat_names = tuple(seat_name(s) for s in range(PLAYERS))
    hidden_roles = True  # who holds the spy's word is secret until the end
    rating = "trueskill-seats"  # each seat answers for itself: ranked by its own reward
    # A leaking description or a vote for a player not at the table: one retry, then the
    # default move ("(no description)", or a vote naming nobody).
    invalid_moves = InvalidMovePolicy(retries=1, then=DEFAULT)
    scripted_bots = "bots.scripted.find_the_spy"
    prompt_builder = "bots.prompts.find_the_spy:FindTheSpyPrompts"
    text = text  # render, describe_event
    metrics = metrics  # game_metrics, aggregate_metrics
    metric_labels = metrics.LABELS

    def assign_roles(self, config: Config, seed: int, players: int) -> tuple[Role, ...]:
        return assign_roles(config, seed, players)  # type: ignore[arg-type]

    def player_counts(self, config: Config) -> tuple[int, ...]:
        return player_counts(config)  # type: ignore[arg-type]

