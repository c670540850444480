"""Bradley–Terry and Plackett–Luce strengths fitted over a set of games (numbers in, numbers
out): what `parlor ratings fit` reports, independent of the order games were played.

A game is a list of places (sides, or seats), each a set of players and a reward (higher is
better). Its likelihood is Plackett–Luce's: the best place is chosen first from all places
with probability exp(s_p) / sum exp(s_q), the next from those left, and so on; with two
places that is Bradley–Terry, P(A beats B) = 1 / (1 + exp(s_B - s_A)).

- A place's strength s_p is the **mean** of its distinct players' strengths theta. Not the
  sum: with sides of different sizes a sum would make the likelihood depend on where zero is,
  and a bot filling seats on both sides (the lobby's) would favour the larger side. With the
  mean, one player on every side cancels out (person + bot against the bot rates the person
  against the bot at half weight), as the live TrueSkill's held identities do.
- **Ties** (equal rewards): a tied group shares one choice equally: each member is chosen
  with weight 1/|group| from the places still in play, then the whole group leaves. With two
  places a draw is therefore half a win each.
- A weak Gaussian prior (penalty alpha * sum(theta^2), choix's convention, alpha 0.01) keeps
  the strength of a player who won, or lost, every game finite; the likelihood does not change
  when every theta moves together, so the fit is centred: mean theta is zero.
- Bootstrap: games resampled with replacement (a weight per game: how often it was drawn),
  seeded; a player missing from a resample has no value in it.

Nothing here knows of databases (server/reports/fitted_ratings.py reads the games). choix fits
plain Bradley–Terry and Plackett–Luce, but not sides of several players, ties or weighted
games, so the likelihood is written here over scipy.optimize; tests check it against choix
where choix applies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import optimize, sparse

ALPHA = 0.01
ELO_SCALE = 400.0 / math.log(10.0)  # one unit of strength in Elo points
ELO_CENTRE = 1000.0

Place = tuple[Sequence[int], float]  # (players, reward)


def to_elo(theta: np.ndarray | float) -> np.ndarray | float:
    """Strength on an Elo-like scale: 1000 + 400/ln(10) * theta, so a rating gap of 400 means
    odds of 10 to 1 between two single players, as in Elo."""
    return ELO_CENTRE + ELO_SCALE * theta


@dataclass(frozen=True)
class Design:
    """The games as matrices: place strengths s = members @ theta; each choice (a stage of a
    game) picks `chosen` (weights summing to 1) from the places in `pool`."""

    players: int
    games: int
    members: sparse.csr_matrix  # places x players, 1/size for each distinct member
    chosen: sparse.csr_matrix  # stages x places
    pool: sparse.csr_matrix  # stages x places, 1 for each place still in play
    stage_game: np.ndarray  # the game each stage belongs to


def design(players: int, games: Sequence[Sequence[Place]]) -> Design:
    """Lay out `games` (each a list of (players, reward) places) over `players` players."""
    m_rows, m_cols, m_vals = [], [], []
    c_rows, c_cols, c_vals = [], [], []
    p_rows, p_cols = [], []
    stage_game = []
    place = stage = 0
    for g, game in enumerate(games):
        first = place
        for members, _ in game:
            distinct = sorted(set(members))
            m_rows += [place] * len(distinct)
            m_cols += distinct
            m_vals += [1.0 / len(distinct)] * len(distinct)
            place += 1
        left = list(range(len(game)))
        for reward in sorted({r for _, r in game}, reverse=True):
            if len(left) < 2:
                break
            group = [i for i in left if game[i][1] == reward]
            c_rows += [stage] * len(group)
            c_cols += [first + i for i in group]
            c_vals += [1.0 / len(group)] * len(group)
            p_rows += [stage] * len(left)
            p_cols += [first + i for i in left]
            stage_game.append(g)
            stage += 1
            left = [i for i in left if game[i][1] != reward]
    return Design(
        players, len(games),
        sparse.csr_matrix((m_vals, (m_rows, m_cols)), shape=(place, players)),
        sparse.csr_matrix((c_vals, (c_rows, c_cols)), shape=(stage, place)),
        sparse.csr_matrix((np.ones(len(p_rows)), (p_rows, p_cols)), shape=(stage, place)),
        np.asarray(stage_game, dtype=np.intp))


def fit(d: Design, weights: np.ndarray | None = None, alpha: float = ALPHA,
        start: np.ndarray | None = None) -> np.ndarray:
    """The penalised maximum-likelihood strengths (mean zero); `weights`: how much each game
    counts (default 1 each)."""
    w = np.ones(d.games) if weights is None else np.asarray(weights, dtype=float)
    ws = w[d.stage_game]
    chosen_t = d.chosen.T.tocsr()
    pool_t = d.pool.T.tocsr()
    members_t = d.members.T.tocsr()

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        s = d.members @ theta
        top = s.max() if s.size else 0.0
        e = np.exp(s - top)
        z = d.pool @ e
        loglik = ws @ (d.chosen @ s) - ws @ (np.log(z) + top)
        grad_s = chosen_t @ ws - e * (pool_t @ (ws / z))
        value = -loglik + alpha * theta @ theta
        return value, -(members_t @ grad_s) + 2 * alpha * theta

    x0 = np.zeros(d.players) if start is None else start
    found = optimize.minimize(objective, x0, jac=True, method="L-BFGS-B",
                              options={"gtol": 1e-10, "ftol": 1e-15, "maxiter": 10000})
    theta = found.x
    return theta - theta.mean() if theta.size else theta


def bootstrap(d: Design, resamples: int, seed: int, alpha: float = ALPHA,
              start: np.ndarray | None = None) -> np.ndarray:
    """Strengths refitted on `resamples` resamples of the games (resamples x players); NaN
    where a player has no game in the resample."""
    rng = np.random.default_rng(seed)
    played = (d.pool.T @ sparse.csr_matrix(
        (np.ones(d.stage_game.size), (np.arange(d.stage_game.size), d.stage_game)),
        shape=(d.stage_game.size, d.games)))  # places x games
    in_game = (d.members.T @ played) > 0  # players x games
    out = np.empty((resamples, d.players))
    for b in range(resamples):
        counts = np.bincount(rng.integers(0, d.games, d.games), minlength=d.games)
        theta = fit(d, counts.astype(float), alpha, start)
        present = np.asarray(in_game @ counts).ravel() > 0
        out[b] = np.where(present, theta, np.nan)
    return out
