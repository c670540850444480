"""Codenames (MindGames §4): the env's description, roles, text, metrics and where its bots,
prompts and widget live."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.codenames import metrics, text
from engine.codenames.config import PLAYERS, PRESETS, ROLES, SEAT_NAMES, CodenamesConfig
from engine.codenames.rules import SKIP, CodenamesGame
from engine.core import Config, Env, Role

ENV_ID = "codenames"


class CodenamesEnv(Env):
    id = ENV_ID
    title = "Codenames"
    description = ("Two teams of two: a spymaster gives one-word clues, an operative finds the "
                   "team's words among 25 without touching the assassin.")
    players = (PLAYERS,)
    rules_version = "3"  # v2: no spaces just inside the brackets, as in the reference; v3: 256-bit sub-seeds deal
    Config = CodenamesConfig
    game_class = CodenamesGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "paper"
    seat_names = SEAT_NAMES
    rating = "trueskill"  # two teams of two, ranked by the result
    hidden_roles = False  # every seat's role is known; the key is the secret
    invalid_moves = SKIP  # no retries; an illegal clue is judged apart (rules.py)
    on_timeout = "void"  # MindGames: timed-out games are discarded
    scripted_bots = "bots.scripted.codenames"
    prompt_builder = "bots.prompts.codenames:CodenamesPrompts"
    widget = "tui.widgets.codenames:CodenamesGame"
    text = text  # render, describe_event
    metrics = metrics  # game_metrics, aggregate_metrics
    metric_labels = metrics.LABELS

    def assign_roles(self, config: Config, seed: int, players: int) -> tuple[Role, ...]:
        return ROLES

