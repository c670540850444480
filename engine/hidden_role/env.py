"""Hidden Role Deduction (SocialMaze §3): the env's description, text, metrics and where its
bots, prompts and widget live."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from engine.core import Config, Env, Event, GameRecord, InvalidMovePolicy
from engine.describe import Namer
from engine.hidden_role import metrics, text
from engine.hidden_role.config import PRESETS, HiddenRoleConfig
from engine.hidden_role.rules import HiddenRoleGame
from engine.policy import DEFAULT


class HiddenRoleEnv(Env):
    id = "hidden-role"
    title = "Hidden Role Deduction"
    description = ("A logic puzzle from Blood on the Clocktower: from who accused whom, round "
                   "by round, find the criminal and your own true role.")
    players = (1,)
    rules_version = "1"
    Config = HiddenRoleConfig
    game_class = HiddenRoleGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "paper"
    seat_names = ("Solver",)  # the seat plays the puzzle's Player 1
    names_characters = True  # "Player 3" is one of the puzzle's players, not a seat
    rating = "none"  # scored by accuracy (SocialMaze is a set of tasks, not a contest)
    invalid_moves = InvalidMovePolicy(retries=1, then=DEFAULT)
    scripted_bots = "bots.scripted.hidden_role"
    prompt_builder = "bots.prompts.hidden_role:HiddenRolePrompts"
    metric_labels = metrics.LABELS

    def render(self, view: Mapping[str, Any]) -> str:
        return text.render(view)

    def describe_event(self, event: Event, seat: int | None, name: Namer | None = None) -> str:
        return text.describe_event(event.type, event.data, self.naming(name))

    def game_metrics(self, record: GameRecord) -> dict[str, Any]:
        return metrics.game_metrics(record)

    def aggregate_metrics(self, per_game: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        return metrics.aggregate_metrics(per_game)
