"""Shared helpers for the Codenames tests: games by seed, words by colour, whole scripted games."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bots.registry import make_bot
from engine.codenames.board import example_clue
from engine.codenames.rules import CodenamesGame
from engine.registry import get

ENV = get("codenames")
CLUE = example_clue()  # legal on every board


def new(seed: int = 0, preset: str = "paper", **overrides: object) -> CodenamesGame:
    game = ENV.new_game(ENV.config(preset, overrides), seed, 4)
    assert isinstance(game, CodenamesGame)
    return game


def hidden(game: CodenamesGame, label: str) -> list[str]:
    """The board's still hidden words of one colour, in board order."""
    return [w for w, lab, shown in zip(game.words, game.labels, game.revealed, strict=True)
            if lab == label and shown is None]


def clue(game: CodenamesGame, number: int = 1, word: str = CLUE) -> None:
    seat = min(game.pending())
    assert seat in (0, 2), f"seat {seat} is not a spymaster"
    game.act(seat, f"[{word} {number}]")


def guess(game: CodenamesGame, word: str) -> None:
    seat = min(game.pending())
    assert seat in (1, 3), f"seat {seat} is not an operative"
    game.act(seat, f"[{word}]")


def play(seed: int, specs: Sequence[str], preset: str = "paper") -> CodenamesGame:
    """A whole game with bots, each seeing only its own JSON view and legal space."""
    game = new(seed, preset)
    bots = [make_bot(s, "codenames", seed * 10 + i) for i, s in enumerate(specs)]
    memory: list[dict] = [{} for _ in specs]

    async def run() -> None:
        while not game.over:
            (seat,) = game.pending()
            decision = await bots[seat].decide(game.view(seat), game.legal(seat).to_json(),
                                               memory[seat])
            game.act(seat, decision.action)

    asyncio.run(run())
    return game


AGENTS = ["scripted:agent"] * 4
