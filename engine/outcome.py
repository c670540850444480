"""Win, draw or loss of one seat, read from a game's result the same way for every env.

- **win**: the seat is among the result's winners;
- **loss**: otherwise, when its reward is below the middle of the reward scale (rewards run from
  -1 to +1, so: a negative reward);
- **draw**: everything else — an all-tied game, or a middle place that earns 0 (the three-player
  IPD's rank rule gives the middle seat 0: it neither won nor lost).

A void (aborted) game is none of the three.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.records import Result

WIN, DRAW, LOSS = "win", "draw", "loss"
MIDDLE = 0.0  # the middle of the -1..+1 reward scale

OUTCOME_LABELS = {
    "reward": "Reward (-1 loss, 0 draw or middle place, +1 win)",
    "win": "Won",
    "draw": "Drawn (tie or middle place)",
    "loss": "Lost",
}


def seat_outcome(result: Result | Mapping[str, Any] | None, seat: int) -> str | None:
    """"win", "draw" or "loss" for `seat`; None when there is no result or the game is void.
    `result` is a `Result` or its JSON form (what the server sends in `game_over`)."""
    if result is None:
        return None
    if isinstance(result, Result):
        void, winners, reward = result.void, result.winners, result.rewards.get(seat, 0.0)
    else:
        rewards = result.get("rewards") or {}
        void, winners = result.get("void"), result.get("winners") or ()
        reward = rewards.get(str(seat), rewards.get(seat, 0.0))
    if void:
        return None
    if seat in winners:
        return WIN
    return LOSS if reward < MIDDLE else DRAW


def outcome_counts(result: Result | Mapping[str, Any] | None, seat: int) -> dict[str, int]:
    """{"win", "draw", "loss"} as 0/1 for `seat` (all 0 for a void game), for metrics."""
    found = seat_outcome(result, seat)
    return {WIN: int(found == WIN), DRAW: int(found == DRAW), LOSS: int(found == LOSS)}
