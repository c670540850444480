"""AmongAgents (seed 002): the env's description and where its text, metrics, bots, prompts
and widget live."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.amongagents import metrics, text
from engine.amongagents.config import MAX_PLAYERS, MIN_PLAYERS, PRESETS, AmongConfig, assign_roles
from engine.amongagents.rules import AmongGame
from engine.amongagents.ship import CORRIDORS, ROOMS, VENT_SETS
from engine.core import Config, Env, InvalidMovePolicy, Role
from engine.policy import DEFAULT

ENV_ID = "amongagents"


class AmongAgentsEnv(Env):
    id = ENV_ID
    title = "AmongAgents"
    description = ("Text Among Us on The Skeld: crewmates walk the ship doing tasks, hidden "
                   "impostors kill and vent, meetings talk and vote someone off.")
    players = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    rules_version = "1"
    Config = AmongConfig
    game_class = AmongGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "paper"
    # 1-based, as the paper names players (each game adds a colour: "Player 1: red").
    seat_names = tuple(f"Player {s + 1}" for s in range(MAX_PLAYERS))
    hidden_roles = True
    # Spec §17: an unreadable answer is asked again once, then the harmless default is made.
    # Spec §17's one retry is the asker's (an LLM bot re-asks with the reason; people pick from
    # the list): an answer the rules still cannot read is the harmless default at once.
    invalid_moves = InvalidMovePolicy(retries=0, then=DEFAULT)
    on_timeout = "default"
    scripted_bots = "bots.scripted.amongagents"
    prompt_builder = "bots.prompts.amongagents:AmongAgentsPrompts"
    widget = "tui.widgets.amongagents.game:AmongAgentsGame"  # the ship map and numbered actions
    board = {"rooms": list(ROOMS), "corridors": [list(e) for e in CORRIDORS],
             "vents": {name: [list(e) for e in edges] for name, edges in VENT_SETS.items()}}
    text = text  # render, describe_event
    metrics = metrics  # game_metrics, aggregate_metrics
    metric_labels = metrics.LABELS

    def assign_roles(self, config: Config, seed: int, players: int) -> tuple[Role, ...]:
        assert isinstance(config, AmongConfig)
        return assign_roles(config, seed, players)

    def player_counts(self, config: Config) -> tuple[int, ...]:
        assert isinstance(config, AmongConfig)
        return (config.players,)

    def default_players(self) -> int:
        return PRESETS[self.default_preset].players
