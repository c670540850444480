"""TrueSkill per environment (MindGames §7): mu 25, sigma 25/3, beta 25/6, tau 25/300, draw 0.10.

Each seat is its own group unless the result names teams; ranks come from terminal rewards
(higher reward = better rank, equal rewards tie). Void games are never rated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import trueskill

from engine.core import Result

MU, SIGMA = 25.0, 25.0 / 3
ENV = trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=25.0 / 6, tau=25.0 / 300,
                          draw_probability=0.10, backend=None)

Rating = tuple[float, float]


def rate(result: Result, identities: Sequence[str], current: Mapping[str, Rating]
         ) -> dict[int, tuple[Rating | None, Rating]]:
    """New (mu, sigma) per seat: {seat: (before or None if unrated, after)}.

    Empty when the game is void, or when one identity holds several seats (self-play says nothing
    about its skill against others, and its two updates would contradict each other)."""
    if result.void or len(set(identities)) < len(identities):
        return {}
    teams = [list(t) for t in result.teams] or [[s] for s in range(len(identities))]
    groups = [{s: ENV.create_rating(*current.get(identities[s], (MU, SIGMA))) for s in team}
              for team in teams]
    ranks = [-max(result.rewards.get(s, 0.0) for s in team) for team in teams]
    rated = ENV.rate(groups, ranks=ranks)
    changes: dict[int, tuple[Rating | None, Rating]] = {}
    for group in rated:
        for seat, r in group.items():
            changes[seat] = (current.get(identities[seat]), (r.mu, r.sigma))
    return changes


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma
