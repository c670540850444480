"""Codenames (MindGames §4): the env's description, roles, text, metrics and where its bots,
prompts and widget live."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from engine.codenames import metrics, text
from engine.codenames.config import PLAYERS, PRESETS, ROLES, SEAT_NAMES, CodenamesConfig
from engine.codenames.rules import SKIP, CodenamesGame
from engine.core import Config, Env, Event, GameRecord, Role
from engine.describe import Namer

ENV_ID = "codenames"


class CodenamesEnv(Env):
    id = ENV_ID
    title = "Codenames"
    description = ("Two teams of two: a spymaster gives one-word clues, an operative finds the "
                   "team's words among 25 without touching the assassin.")
    players = (PLAYERS,)
    rules_version = "1"
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
    metric_labels = metrics.LABELS

    def assign_roles(self, config: Config, seed: int, players: int) -> tuple[Role, ...]:
        return ROLES

    def render(self, view: Mapping[str, Any]) -> str:
        return text.render(view)

    def describe_event(self, event: Event, seat: int | None, name: Namer | None = None) -> str:
        return text.describe_event(event.type, event.data, self.naming(name))

    def game_metrics(self, record: GameRecord) -> dict[str, Any]:
        return metrics.game_metrics(record)

    def aggregate_metrics(self, per_game: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        return metrics.aggregate_metrics(per_game)
