"""SocialGrid (seed 000): the env's description, text, metrics and where its bots, prompts and
widget live."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.core import Config, ConfigError, Env, InvalidMovePolicy, Role
from engine.policy import DEFAULT
from engine.socialgrid import metrics, text
from engine.socialgrid.config import MAX_PLAYERS, PRESETS, SocialGridConfig, seat_name
from engine.socialgrid.rules import SocialGridGame, assign_roles

ENV_ID = "socialgrid"


class SocialGridEnv(Env):
    id = ENV_ID
    title = "SocialGrid"
    description = ("Among Us on a grid: crewmates walk to tasks and vote out impostors, who "
                   "kill and lie; with an A* planning oracle.")
    players = tuple(range(1, MAX_PLAYERS + 1))
    rules_version = "3"  # 2: tasks per seat, hints from what the seat sees; 3: 256-bit sub-seeds deal
    Config = SocialGridConfig
    game_class = SocialGridGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "league-10x10"
    seat_names = tuple(seat_name(s) for s in range(MAX_PLAYERS))
    rating = "elo"  # the Crew Elo league: one identity holds every crewmate, one every impostor
    hidden_roles = True
    # An action that is not allowed, or unreadable, is silently a NOOP (a skip at a meeting):
    # every seat moves at once, so nobody is asked twice.
    invalid_moves = InvalidMovePolicy(retries=0, then=DEFAULT)
    on_timeout = "default"
    scripted_bots = "bots.scripted.socialgrid"
    prompt_builder = "bots.prompts.socialgrid:SocialGridPrompts"
    widget = "tui.widgets.socialgrid:SocialGridGame"
    text = text  # render, describe_event
    metrics = metrics  # game_metrics, aggregate_metrics
    metric_labels = metrics.LABELS
    quiet_events = ("step",)  # one a step, for every seat's new view: no news for a transcript

    def default_players(self) -> int:
        return 7

    def check_players(self, players: int, config: Config | None = None) -> None:
        super().check_players(players)
        if config is not None:
            config.check_players(players)  # type: ignore[attr-defined]  # names the rule

    def player_counts(self, config: Config) -> tuple[int, ...]:
        counts = []
        for players in self.players:
            try:
                config.check_players(players)  # type: ignore[attr-defined]
            except ConfigError:
                continue
            counts.append(players)
        return tuple(counts)

    def assign_roles(self, config: Config, seed: int, players: int) -> tuple[Role, ...]:
        assert isinstance(config, SocialGridConfig)
        return assign_roles(config, seed, players)

