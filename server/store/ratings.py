"""Ratings per environment, by side: TrueSkill (MindGames §7) or Elo (SocialGrid §15).

A game is rated between its places: its sides (`Result.side_groups()`: named sides, else teams,
else one group per seat), or its seats under "trueskill-seats"; ranked by reward (a place's
reward is the best among its seats, higher is better, equal rewards tie). What is rated is an
identity, not a seat: seats of one identity in one place count once (a model playing all five
crewmates is one player).

An identity in two places or more (`scripted:agent` filling crew and impostor seats, a bot
beside a person and against them) is *held*: it plays at its stored rating and keeps it, while
every identity in one place only (the people among them) moves. In such a game each place's
strength is the mean of its identities' skills (TrueSkill partial-play weights 1/k), so a held
identity on both sides favours neither. A game where every identity is held moves nobody and is
not rated.

- "trueskill": mu 25, sigma 25/3, beta 25/6, tau 25/300, draw 0.10; two or more identities on a
  side form a team.
- "trueskill-seats": the same, with every seat a place of its own (Find the Spy: each seat
  answers for itself).
- "elo": SocialGrid's Crew Elo league, K = 64, base 1500, for games of exactly two sides held by
  one identity each (stored as (rating, 0.0) so the leaderboard's mu - 3 sigma order is the Elo
  order). Any other game of such an env (people with bots) is rated by TrueSkill over sides, in
  a league of its own beside the Elo one.
- "none": never rated (one-seat tasks, scored by accuracy).

`plan` says how a game is rated: the league its ratings live in, who is held, or why it is not
rated; `rate` returns the changes ({} for a game it does not rate).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import trueskill

from engine.core import Result

MU, SIGMA = 25.0, 25.0 / 3
ENV = trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=25.0 / 6, tau=25.0 / 300,
                          draw_probability=0.10, backend=None)
ELO_K, ELO_BASE = 64.0, 1500.0
SCHEMES = ("trueskill", "trueskill-seats", "elo", "none")
# The leagues each scheme keeps ratings in, the one people play in first.
LEAGUES = {"trueskill": ("trueskill",), "trueskill-seats": ("trueskill",),
           "elo": ("trueskill", "elo"), "none": ()}

# Why a game was not rated, as `games.unrated` keeps it, where other code reads the reason:
# a void game (a provider or server failure, a leaver before any person moved) and the
# host's one-address rule are left out of fitted ratings too (server/reports/fitted_ratings.py).
VOID = "not rated: the game is void"
SAME_ADDRESS = ("not rated: two of its people connected from the same address "
                "(the host's rule)")

Rating = tuple[float, float]  # (mu, sigma); Elo is (rating, 0.0)
Change = tuple[Rating | None, Rating]  # (before, or None if unrated; after)


@dataclass(frozen=True)
class Plan:
    """How one finished game is rated: `league` ("trueskill" or "elo") and the identities
    `held` at their rating; or, with `league` None, why not (`unrated`, words that complete
    "not rated: …")."""

    league: str | None
    places: tuple[tuple[str, ...], ...] = ()
    held: tuple[str, ...] = ()
    unrated: str | None = None
    fallback: bool = False  # an Elo env's game rated by TrueSkill over sides
    by_seat: bool = False  # the places are seats ("trueskill-seats"), not sides

    @property
    def note(self) -> str | None:
        """How a rated game was rated, in words, when it is not the plain case."""
        parts = []
        if self.fallback:
            parts.append("rated by TrueSkill over sides (the Elo league takes one identity "
                         "per side)")
        if self.held:
            kept = "its rating" if len(self.held) == 1 else "their ratings"
            parts.append(f"{', '.join(self.held)} {_several(self.by_seat)} and "
                         f"{'keeps' if len(self.held) == 1 else 'keep'} {kept}")
        return "; ".join(parts) or None


def _several(by_seat: bool) -> str:
    return "held more than one seat" if by_seat else "sat on more than one side"


def _groups(scheme: str, result: Result) -> list[list[int]]:
    """The seats of each place: one seat each under "trueskill-seats", else the sides."""
    if scheme == "trueskill-seats":
        return [[s] for s in sorted(result.rewards)]
    return result.side_groups()


def _places(scheme: str, result: Result, identities: Sequence[str]) -> list[list[str]]:
    """Each place's distinct identities, in seat order."""
    return [list(dict.fromkeys(identities[s] for s in group))
            for group in _groups(scheme, result)]


def _place_rewards(scheme: str, result: Result) -> list[float]:
    return [max(result.rewards.get(s, 0.0) for s in group) for group in _groups(scheme, result)]


def ranked_places(scheme: str, result: Result, identities: Sequence[str]
                  ) -> list[tuple[tuple[str, ...], float]]:
    """Each place's distinct identities and its reward (higher is better), as the scheme groups
    them ("elo" by side, like "trueskill"): what a fit over stored games ranks
    (server/reports/fitted_ratings.py)."""
    grouping = "trueskill-seats" if scheme == "trueskill-seats" else "trueskill"
    return [(tuple(place), reward) for place, reward in
            zip(_places(grouping, result, identities), _place_rewards(grouping, result),
                strict=True)]


def plan(scheme: str, result: Result, identities: Sequence[str]) -> Plan:
    """How this game is rated under the env's `scheme`, or why it is not."""
    if scheme == "none":
        return Plan(None, unrated="it is scored by accuracy (a task, not a contest)")
    if scheme not in SCHEMES:
        return Plan(None, unrated=f"unknown rating scheme {scheme!r}")
    if result.void:
        return Plan(None, unrated="the game is void")
    by_seat = scheme == "trueskill-seats"
    places = _places(scheme, result, identities)
    if len(places) < 2:
        return Plan(None, unrated="it has " + ("one seat" if by_seat else "fewer than two sides"))
    seen = [i for place in places for i in place]
    held = tuple(dict.fromkeys(i for i in seen if seen.count(i) > 1))
    frozen = tuple(tuple(p) for p in places)
    if len(held) == len(set(seen)):
        return Plan(None, frozen, held, unrated=f"every player {_several(by_seat)} (self-play), "
                                                f"so no rating could move", by_seat=by_seat)
    if scheme == "elo":
        if not held and len(places) == 2 and all(len(p) == 1 for p in places):
            return Plan("elo", frozen)
        return Plan("trueskill", frozen, held, fallback=True)
    return Plan("trueskill", frozen, held, by_seat=by_seat)


def unrated_reason(scheme: str, result: Result, identities: Sequence[str]) -> str | None:
    """Why this game is not rated under `scheme`, or None if it is."""
    return plan(scheme, result, identities).unrated


def rate(scheme: str, result: Result, identities: Sequence[str],
         current: Mapping[str, Rating] | None = None) -> dict[str, Change]:
    """{identity: (before or None, after)} for one finished game, held identities left out;
    {} when it is not rated. `current` holds the stored ratings of the game's identities in
    the plan's league (missing or None = unrated)."""
    how = plan(scheme, result, identities)
    if how.league is None:
        return {}
    current = current or {}
    rewards = _place_rewards(scheme, result)
    if how.league == "elo":
        (a,), (b,) = how.places
        ra, rb = (current[i][0] if i in current else ELO_BASE for i in (a, b))
        score_a = 1.0 if rewards[0] > rewards[1] else 0.0 if rewards[0] < rewards[1] else 0.5
        new_a, new_b = elo_update(ra, rb, score_a)
        return {a: (current.get(a), (new_a, 0.0)), b: (current.get(b), (new_b, 0.0))}
    groups = [{i: ENV.create_rating(*current.get(i, (MU, SIGMA))) for i in place}
              for place in how.places]
    weights = [tuple(1.0 / len(p) for _ in p) for p in how.places] if how.held else None
    rated = ENV.rate(groups, ranks=[-r for r in rewards], weights=weights)
    return {i: (current.get(i), (r.mu, r.sigma)) for group in rated for i, r in group.items()
            if i not in how.held}


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
