"""Ratings per environment, by side: TrueSkill (MindGames §7) or Elo (SocialGrid §15).

A game is rated between its sides (`Result.side_groups()`: named sides, else teams, else one
group per seat), ranked by reward: a side's reward is the best reward among its seats, higher is
better, equal rewards tie. What is rated is an identity, not a seat: seats of one identity on one
side count once (a model playing all five crewmates is one player), and a game where an identity
sits on two sides is not rated (self-play across sides says nothing about its skill).

- "trueskill": mu 25, sigma 25/3, beta 25/6, tau 25/300, draw 0.10; two or more identities on a
  side form a team.
- "elo": SocialGrid's Crew Elo, K = 64, base 1500; exactly two sides, one identity each. Stored
  as (rating, 0.0) so the leaderboard's mu - 3 sigma order is the Elo order.
- "none": never rated (one-seat tasks).

`rate` returns {} for a game it does not rate; `unrated_reason` says why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import trueskill

from engine.core import Result

MU, SIGMA = 25.0, 25.0 / 3
ENV = trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=25.0 / 6, tau=25.0 / 300,
                          draw_probability=0.10, backend=None)
ELO_K, ELO_BASE = 64.0, 1500.0
SCHEMES = ("trueskill", "elo", "none")

Rating = tuple[float, float]  # (mu, sigma); Elo is (rating, 0.0)
Change = tuple[Rating | None, Rating]  # (before, or None if unrated; after)


def _sides(result: Result, identities: Sequence[str]) -> list[list[str]]:
    """Each side's distinct identities, in seat order."""
    return [list(dict.fromkeys(identities[s] for s in group)) for group in result.side_groups()]


def _side_rewards(result: Result) -> list[float]:
    return [max(result.rewards.get(s, 0.0) for s in group) for group in result.side_groups()]


def unrated_reason(scheme: str, result: Result, identities: Sequence[str]) -> str | None:
    """Why this game is not rated under `scheme`, or None if it is."""
    if scheme == "none":
        return "the environment is not rated"
    if scheme not in SCHEMES:
        return f"unknown rating scheme {scheme!r}"
    if result.void:
        return "the game is void"
    sides = _sides(result, identities)
    if len(sides) < 2:
        return "fewer than two sides"
    seen = [i for side in sides for i in side]
    if len(set(seen)) < len(seen):
        return "an identity plays on two sides"
    if scheme == "elo" and (len(sides) != 2 or any(len(side) != 1 for side in sides)):
        return "Elo needs exactly two sides, each held by one identity"
    return None


def rate(scheme: str, result: Result, identities: Sequence[str],
         current: Mapping[str, Rating] | None = None) -> dict[str, Change]:
    """{identity: (before or None, after)} for one finished game; {} when it is not rated.

    `current` holds the stored ratings of the game's identities (missing or None = unrated)."""
    if unrated_reason(scheme, result, identities) is not None:
        return {}
    current = current or {}
    sides, rewards = _sides(result, identities), _side_rewards(result)
    if scheme == "elo":
        (a,), (b,) = sides
        ra, rb = (current[i][0] if i in current else ELO_BASE for i in (a, b))
        score_a = 1.0 if rewards[0] > rewards[1] else 0.0 if rewards[0] < rewards[1] else 0.5
        new_a, new_b = elo_update(ra, rb, score_a)
        return {a: (current.get(a), (new_a, 0.0)), b: (current.get(b), (new_b, 0.0))}
    groups = [{i: ENV.create_rating(*current.get(i, (MU, SIGMA))) for i in side} for side in sides]
    rated = ENV.rate(groups, ranks=[-r for r in rewards])
    return {i: (current.get(i), (r.mu, r.sigma)) for group in rated for i, r in group.items()}


def per_seat(changes: Mapping[str, Change], identities: Sequence[str]) -> dict[int, Change]:
    """{seat: (before, after)} for the game_over message: each seat shows its identity's change."""
    return {seat: changes[i] for seat, i in enumerate(identities) if i in changes}


def elo_expected(ra: float, rb: float) -> float:
    """E_A = 1 / (1 + 10^((R_B - R_A) / 400))."""
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))


def elo_update(ra: float, rb: float, score_a: float, k: float = ELO_K) -> tuple[float, float]:
    """One match: A scored `score_a` (1 win, 0.5 draw, 0 loss) against B."""
    ea = elo_expected(ra, rb)
    return ra + k * (score_a - ea), rb + k * ((1.0 - score_a) - (1.0 - ea))


def elo_league(matches: Iterable[tuple[str, str, float]], k: float = ELO_K,
               base: float = ELO_BASE, iterations: int = 10) -> dict[str, float]:
    """SocialGrid's league: replay (a, b, score_a) in order, `iterations` passes over the list,
    everyone starting at `base`. A self-play match (a == b) leaves the rating unchanged."""
    matches = list(matches)
    elo: dict[str, float] = {}
    for a, b, _ in matches:
        elo.setdefault(a, base)
        elo.setdefault(b, base)
    for _ in range(iterations):
        for a, b, score_a in matches:
            if a != b:
                elo[a], elo[b] = elo_update(elo[a], elo[b], score_a, k)
    return elo


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma
