"""Secret Mafia (MindGames, seed 004): the env's description and where its text, metrics,
bots, prompts and widget live."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.core import Config, Env, InvalidMovePolicy, Role
from engine.policy import ELIMINATE
from engine.secret_mafia import metrics, text
from engine.secret_mafia.config import PLAYERS, PRESETS, MafiaConfig, assign_roles, seat_name
from engine.secret_mafia.rules import MafiaGame

ENV_ID = "secret-mafia"


class SecretMafiaEnv(Env):
    id = ENV_ID
    title = "Secret Mafia"
    description = ("Six players, two of them secretly Mafia: the Mafia kill by night, the "
                   "village talks and votes by day to find them.")
    players = (PLAYERS,)
    # v2: hidden night draws from their own sub-seed; targets read by \n-ended lines only;
    # whitespace in speeches becomes a space
    rules_version = "3"  # v3: roles and night order from 256-bit sub-seeds (derive_seed)
    Config = MafiaConfig
    game_class = MafiaGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "paper"
    seat_names = tuple(seat_name(s) for s in range(PLAYERS))
    hidden_roles = True
    # MindGames: one retry, then the player is out and the game goes on.
    invalid_moves = InvalidMovePolicy(retries=1, then=ELIMINATE)
    on_timeout = "void"  # MindGames: timed-out games are discarded
    scripted_bots = "bots.scripted.secret_mafia"
    prompt_builder = "bots.prompts.secret_mafia:SecretMafiaPrompts"
    widget = "tui.widgets.secret_mafia:SecretMafiaGame"
    text = text  # render, describe_event
    metrics = metrics  # game_metrics, aggregate_metrics
    metric_labels = metrics.LABELS

    def assign_roles(self, config: Config, seed: int, players: int) -> tuple[Role, ...]:
        return assign_roles(seed, players)

