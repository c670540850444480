"""The Impostor game (seed 001): the env's description and where its text, metrics, bots,
prompts and widget live."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.core import Config, Env, InvalidMovePolicy, Role
from engine.impostor import metrics, text
from engine.impostor.config import PLAYERS, PRESETS, ImpostorConfig, assign_roles, seat_name
from engine.impostor.rules import ImpostorGame
from engine.policy import VOID_BALLOT

ENV_ID = "impostor"


class ImpostorEnv(Env):
    id = ENV_ID
    title = "The Impostor Game"
    description = ("Four players, one word each: three share it, the impostor's differs. "
                   "Describe yours without saying it, then vote out the odd one.")
    players = (PLAYERS,)
    rules_version = "1"
    Config = ImpostorConfig
    game_class = ImpostorGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "paper"
    seat_names = tuple(seat_name(s) for s in range(PLAYERS))
    hidden_roles = True  # who holds the impostor's word is secret until the end
    rating = "trueskill"  # the impostor's side against the majority's
    # Spec §6: an unreadable ballot is asked again once, then counts for nobody. Descriptions
    # never reach the policy's end: a second refusal is repaired and flagged (rules.py).
    invalid_moves = InvalidMovePolicy(retries=1, then=VOID_BALLOT)
    text = text  # render, describe_event
    metrics = metrics  # game_metrics, aggregate_metrics
    metric_labels = metrics.LABELS
    scripted_bots = "bots.scripted.impostor"
    prompt_builder = "bots.prompts.impostor:ImpostorPrompts"
    widget = "tui.widgets.impostor.game:ImpostorGame"  # words, descriptions, ballot, reveal

    def assign_roles(self, config: Config, seed: int, players: int) -> tuple[Role, ...]:
        assert isinstance(config, ImpostorConfig)
        return assign_roles(config, seed, players)
