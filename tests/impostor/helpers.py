"""Games of the Impostor env with a fixed deal, played by scripted moves."""

from __future__ import annotations

from typing import Any

from engine.impostor.config import ImpostorConfig
from engine.impostor.env import ImpostorEnv
from engine.impostor.rules import ImpostorGame

ENV = ImpostorEnv()
DOG_CAT = 0  # medium pair 0: dog (majority) / cat (impostor)


def new_game(impostor: int = 2, seed: int = 1, **config: Any) -> ImpostorGame:
    settings = {"tier": "medium", "pair_index": DOG_CAT, "impostor_seat": impostor, **config}
    game = ENV.new_game(ImpostorConfig(**settings), seed, 4)
    assert isinstance(game, ImpostorGame)
    return game


def describe_all(game: ImpostorGame, text: str = "It is a pet that lives in many homes.") -> None:
    for seat in game.order:
        game.act(seat, text)
    assert game.phase == "vote"


def ballot(target: int, *, declare: bool = False, guess: str | None = None,
           confidence: float = 0.5) -> dict[str, Any]:
    """A form ballot naming `target` (a seat, 0-based)."""
    return {"suspected_impostor_id": str(target + 1), "confidence": confidence,
            "reasoning": "a hunch", "self_declaration": declare, "word_guess": guess}


def vote(game: ImpostorGame, ballots: dict[int, Any]) -> None:
    for seat, b in ballots.items():
        game.act(seat, b)
