"""Drive Secret Mafia games by role in tests: whoever is asked acts as the test says."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.registry import get
from engine.secret_mafia.rules import MafiaGame

ENV = get("secret-mafia")
DEALT = 188  # a seed that deals Doctor 0, Mafia 1 and 2, Detective 3, Villagers 4 and 5


def new(seed: int = DEALT, preset: str = "paper", **overrides: object) -> MafiaGame:
    game = ENV.new_game(ENV.config(preset, overrides), seed, 6)
    assert isinstance(game, MafiaGame)
    return game


def role_seats(game: MafiaGame, role: str) -> list[int]:
    return [s for s, r in enumerate(game.roles) if r.name == role]


def village(game: MafiaGame) -> list[int]:
    return [s for s in range(6) if s not in game.mafia]


def actor(game: MafiaGame) -> int:
    (seat,) = game.pending()
    return seat


def night(game: MafiaGame, victim: int | None = None, protect: int | None = None,
          investigate: int | None = None, votes: Mapping[int, int] | None = None) -> None:
    """Play the rest of the night: the Mafia vote `victim` (or `votes[seat]`), the Doctor
    protects `protect`, the Detective investigates `investigate`; a None means the first valid
    target."""
    while not game.over and game.phase == "night":
        seat = actor(game)
        targets = game.targets(seat)
        if game.task == "kill":
            pick = (votes or {}).get(seat, victim)
        else:
            pick = protect if game.task == "protect" else investigate
        game.act(seat, f"[{targets[0] if pick is None else pick}]")


def discuss(game: MafiaGame, say: Callable[[int], str] = lambda seat: f"hello from {seat}"
            ) -> list[int]:
    """Play the day's discussion; returns who spoke, in order."""
    spoke = []
    while not game.over and game.phase == "day":
        seat = actor(game)
        spoke.append(seat)
        game.act(seat, say(seat))
    return spoke


def vote(game: MafiaGame, choose: Callable[[int], int]) -> list[int]:
    """Play the day vote, `choose(voter)` giving each vote; returns who voted, in order."""
    voters = []
    while not game.over and game.phase == "vote":
        seat = actor(game)
        voters.append(seat)
        game.act(seat, f"[{choose(seat)}]")
    return voters


def day(game: MafiaGame, out: int) -> None:
    """A day where everyone votes `out` (`out` votes for the first other living player)."""
    discuss(game)
    vote(game, lambda seat: out if seat != out else next(
        s for s in game.living() if s != out))
