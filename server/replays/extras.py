"""What an env's replay viewer shows beyond each frame, computed once over the whole perspective
(SocialGrid: each agent's trust over the votes, the vote sessions): env id -> a function of
(replay, perspective seat or None, the perspective's frames as `Replay.seen` gives them) to a
JSON object whose items name the frame positions they belong to, so a viewer shows only what
happened up to the frame it is on. Only what the perspective saw may go in."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from server.replays import socialgrid
from server.replays.replay import Frame, Replay

Extras = Callable[[Replay, "int | None", Sequence[Frame]], dict[str, Any]]

EXTRAS: dict[str, Extras] = {"socialgrid": socialgrid.extras}


def extras_for(replay: Replay, seat: int | None, frames: Sequence[Frame]) -> dict[str, Any]:
    """The env's extras for this perspective ({} for an env with none)."""
    compute = EXTRAS.get(replay.env.id)
    return compute(replay, seat, frames) if compute else {}
