"""Games of AmongAgents with the impostors fixed by seat, and a driver that acts by choice id."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.amongagents.config import CREW_SIDE, CREWMATE, IMPOSTOR, IMPOSTOR_SIDE, AmongConfig
from engine.amongagents.env import AmongAgentsEnv
from engine.amongagents.rules import AmongGame
from engine.core import Role
from engine.registry import get

ENV = get("amongagents")


def fixed_env(impostors: Iterable[int]) -> AmongAgentsEnv:
    """The env with the impostors at these seats (the deal of colours and tasks unchanged)."""
    chosen = frozenset(impostors)

    class Fixed(AmongAgentsEnv):
        def assign_roles(self, config, seed, players):
            return tuple(Role(IMPOSTOR, IMPOSTOR_SIDE) if s in chosen
                         else Role(CREWMATE, CREW_SIDE) for s in range(players))
    return Fixed()


def new(seats: Iterable[int] = (0,), seed: int = 1, **overrides: Any) -> AmongGame:
    """A game of the paper preset (with `overrides`) whose impostors sit at `seats`."""
    config = AmongConfig.from_json({**ENV.config("paper").to_json(), **overrides})
    game = fixed_env(seats).new_game(config, seed, config.players)
    assert isinstance(game, AmongGame)
    return game


def turn(game: AmongGame) -> int:
    (seat,) = game.pending()
    return seat


def ids(game: AmongGame) -> list[str]:
    return [o.id for o in game.offers]


def act(game: AmongGame, choice: str, arg: Any = None, seat: int | None = None) -> int:
    """The pending seat (checked to be `seat` when given) takes offer `choice`."""
    who = turn(game)
    assert seat is None or who == seat, f"seat {who} is to act, not {seat}"
    action: dict[str, Any] = {"choice": choice}
    if arg is not None:
        action["arg"] = arg
    if choice == "speak" and arg is None:
        action["arg"] = "..."
    events = game.act(who, action)
    assert not any(e.type == "invalid_move" for e in events), events
    return who


def wait(game: AmongGame, seat: int | None = None) -> int:
    """The pending seat stays where it is (a task-phase speech, or a meeting speech)."""
    if game.phase == "meeting":
        who = turn(game)
        game.act(who, {"text": "..."})
        return who
    return act(game, "speak", "...", seat)


def finish_round(game: AmongGame) -> None:
    """Everyone still to act this task round stays put."""
    t = game.timestep
    while game.phase == "task" and game.timestep == t and not game.over:
        wait(game)


def sit_meeting(game: AmongGame, votes: dict[int, str] | None = None) -> None:
    """Through a meeting: everyone says "...", then votes as `votes` says (default: skip if
    allowed, else the first offer)."""
    while game.phase == "meeting" and game.round <= game.config.discussion_rounds:
        wait(game)
    while game.phase == "meeting" and not game.over:
        who = turn(game)
        act(game, (votes or {}).get(who, ids(game)[0]))


def seen_by(game: AmongGame, seat: int) -> list[tuple[str, Any, Any]]:
    """What `seat` was told, without the global numbering (the server renumbers per seat)."""
    return [(e.type, e.data, dict(e.clock)) for e in game.events_for(seat)]
