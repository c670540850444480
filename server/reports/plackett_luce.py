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
- **Ties** (equal rewards): a tied group counts as the mean of the log-likelihoods of every
  order it could have finished in (each of the k! orders of k tied places a game of weight
  1/k!). With two places a draw is therefore half a win each; A > B = C is A first, then B
  and C drawn.
- A weak Gaussian prior (penalty alpha * sum(theta^2), choix's convention, alpha 0.01) keeps
  the strength of a player who won, or lost, every game finite; the likelihood does not change
  when every theta moves together, so the fit is centred: mean theta is zero.
- A game says something of a player unless they hold the same share of every place
  (self-play; the lobby's bot beside each of two people), where they cancel out (`says`).
- Bootstrap: games resampled with replacement (a weight per game: how often it was drawn),
  seeded; a player with no game in a resample that says something of them has no value in it.

Nothing here knows of databases (server/reports/fitted_ratings.py reads the games). choix fits
plain Bradley–Terry and Plackett–Luce, but not sides of several players, ties or weighted
games, so the likelihood is written here over scipy.optimize (trust-region Newton steps with
the exact Hessian: a few iterations per fit, which the bootstrap repeats); tests check it
against choix where choix applies, and against closed forms.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

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
    """The games as matrices: place strengths s = members @ theta; each term of a game's
    log-likelihood adds `chosen` @ s and takes away `scale` * log(sum of exp(s) over `pool`)."""

    players: int
    games: int
    members: sparse.csr_matrix  # places x players, 1/size for each distinct member
    chosen: sparse.csr_matrix  # terms x places
    pool: sparse.csr_matrix  # terms x places, 1 for each place in the denominator
    scale: np.ndarray  # terms: the denominator's weight
    term_game: np.ndarray  # terms: the game each belongs to
    says: sparse.csr_matrix  # players x games: 1 where the game says something of the player
    hessian_parts: _HessianParts


@dataclass(frozen=True)
class _HessianParts:
    """Index arrays that make the Hessian one `bincount` per part, not sparse products: each
    entry of a term's pool spread over its place's players (`spread`), every pair of those
    within a term (`across`), every pair of players within a place (`within`)."""

    spread_term: np.ndarray
    spread_place: np.ndarray
    spread_value: np.ndarray
    across: tuple[np.ndarray, np.ndarray, np.ndarray]  # spread entries a, b; cell a_j * n + b_j
    within: tuple[np.ndarray, np.ndarray, np.ndarray]  # place, v_a * v_b, cell


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The concatenation of range(start, start + length) for each pair."""
    ends = np.cumsum(lengths)
    offsets = np.repeat(ends - lengths, lengths)
    return np.arange(ends[-1] if ends.size else 0) - offsets + np.repeat(starts, lengths)


def _pairs(group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every ordered pair (a, b) of indices with group[a] == group[b] (`group` sorted)."""
    starts = np.searchsorted(group, group, side="left")
    sizes = np.searchsorted(group, group, side="right") - starts
    return np.repeat(np.arange(group.size), sizes), _ranges(starts, sizes)


def _hessian_parts(players: int, members: sparse.csr_matrix, pool: sparse.csr_matrix
                   ) -> _HessianParts:
    pool_coo = pool.tocoo()  # from CSR: sorted by term
    order = np.lexsort((pool_coo.col, pool_coo.row))
    term, place = pool_coo.row[order], pool_coo.col[order]
    counts = np.diff(members.indptr)
    at = _ranges(members.indptr[place], counts[place])
    spread_term = np.repeat(term, counts[place])
    spread_place = np.repeat(place, counts[place])
    player = members.indices[at]
    a, b = _pairs(spread_term)
    m_place = np.repeat(np.arange(members.shape[0]), counts)
    ma, mb = _pairs(m_place)
    return _HessianParts(
        spread_term, spread_place, members.data[at],
        (a, b, player[a] * players + player[b]),
        (m_place[ma], members.data[ma] * members.data[mb],
         members.indices[ma] * players + members.indices[mb]))


def design(players: int, games: Sequence[Sequence[Place]]) -> Design:
    """Lay out `games` (each a list of (players, reward) places) over `players` players.

    A tied group G among the places still in play R contributes the mean, over every order of
    G, of Plackett–Luce's log-likelihood of choosing G's places one by one: the sum of their
    strengths, less, for each k < |G|, the mean over the k-subsets S of G of log sum over
    R - S (in a random order the first k chosen are a uniform k-subset). 2^|G| terms: places
    are at most a handful (sides, or Find the Spy's four seats)."""
    members: tuple[list[int], list[int], list[float]] = ([], [], [])
    chosen: tuple[list[int], list[int], list[float]] = ([], [], [])
    pool: tuple[list[int], list[int]] = ([], [])
    scale: list[float] = []
    term_game: list[int] = []
    place = 0

    def term(g: int, picked: Sequence[int], among: Sequence[int], weight: float) -> None:
        row = len(scale)
        chosen[0].extend([row] * len(picked))
        chosen[1].extend(picked)
        chosen[2].extend([1.0] * len(picked))
        pool[0].extend([row] * len(among))
        pool[1].extend(among)
        scale.append(weight)
        term_game.append(g)

    says: tuple[list[int], list[int]] = ([], [])
    for g, game in enumerate(games):
        first = place
        shares: dict[int, list[float]] = {}
        for k, (players_of, _) in enumerate(game):
            for j in set(players_of):
                shares.setdefault(j, [0.0] * len(game))[k] = 1.0 / len(set(players_of))
        told = [j for j, share in shares.items() if len(set(share)) > 1]
        says[0].extend(told)
        says[1].extend([g] * len(told))
        for players_of, _ in game:
            distinct = sorted(set(players_of))
            members[0].extend([place] * len(distinct))
            members[1].extend(distinct)
            members[2].extend([1.0 / len(distinct)] * len(distinct))
            place += 1
        left = [first + i for i in range(len(game))]
        for reward in sorted({r for _, r in game}, reverse=True):
            if len(left) < 2:
                break
            group = [first + i for i, (_, r) in enumerate(game) if r == reward]
            for k in range(len(group)):
                subsets = list(combinations(group, k))
                for j, gone in enumerate(subsets):
                    term(g, group if k == 0 and j == 0 else (),
                         [p for p in left if p not in gone], 1.0 / len(subsets))
            left = [p for p in left if p not in group]
    member_matrix = sparse.csr_matrix((members[2], members[:2]), shape=(place, players))
    pool_matrix = sparse.csr_matrix((np.ones(len(pool[0])), pool), shape=(len(scale), place))
    return Design(
        players, len(games), member_matrix,
        sparse.csr_matrix((chosen[2], chosen[:2]), shape=(len(scale), place)), pool_matrix,
        np.asarray(scale), np.asarray(term_game, dtype=np.intp),
        sparse.csr_matrix((np.ones(len(says[0])), says), shape=(players, len(games))),
        _hessian_parts(players, member_matrix, pool_matrix))


Objective = Callable[[np.ndarray], tuple[float, np.ndarray]]


def penalised(d: Design, weights: np.ndarray | None = None, alpha: float = ALPHA
              ) -> tuple[Objective, Callable[[np.ndarray], np.ndarray]]:
    """The negative penalised log-likelihood of theta with its gradient, and its Hessian;
    `weights`: how much each game counts (default 1 each)."""
    w = np.ones(d.games) if weights is None else np.asarray(weights, dtype=float)
    wt = w[d.term_game]
    ws = wt * d.scale
    chosen_t = d.chosen.T.tocsr()
    pool_t = d.pool.T.tocsr()
    members_t = d.members.T.tocsr()

    def parts(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        s = d.members @ theta
        top = s.max() if s.size else 0.0
        e = np.exp(s - top)
        return s, e, d.pool @ e, top

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        s, e, z, top = parts(theta)
        loglik = wt @ (d.chosen @ s) - ws @ (np.log(z) + top)
        grad_s = chosen_t @ wt - e * (pool_t @ (ws / z))
        value = -loglik + alpha * theta @ theta
        return value, -(members_t @ grad_s) + 2 * alpha * theta

    h = d.hessian_parts
    cells = d.players * d.players

    def hessian(theta: np.ndarray) -> np.ndarray:
        # each term's log-sum-exp has Hessian diag(p) - p p^T (p: the softmax over its pool),
        # carried to the players through the places' means
        _, e, z, _ = parts(theta)
        q = e[h.spread_place] * h.spread_value / z[h.spread_term]
        a, b, cell = h.across
        outer = np.bincount(cell, ws[h.spread_term[a]] * q[a] * q[b], cells)
        place, product, cell = h.within
        own = np.bincount(cell, (e * (pool_t @ (ws / z)))[place] * product, cells)
        return (own - outer).reshape(d.players, d.players) + 2 * alpha * np.eye(d.players)

    return objective, hessian


def fit(d: Design, weights: np.ndarray | None = None, alpha: float = ALPHA,
        start: np.ndarray | None = None) -> np.ndarray:
    """The penalised maximum-likelihood strengths (mean zero); `weights`: how much each game
    counts (default 1 each)."""
    objective, hessian = penalised(d, weights, alpha)
    x0 = np.zeros(d.players) if start is None else start
    found = optimize.minimize(objective, x0, jac=True, hess=hessian, method="trust-exact",
                              options={"gtol": 1e-9})
    theta = found.x
    return theta - theta.mean() if theta.size else theta


def bootstrap(d: Design, resamples: int, seed: int, alpha: float = ALPHA,
              start: np.ndarray | None = None) -> np.ndarray:
    """Strengths refitted on `resamples` resamples of the games (resamples x players); NaN
    where no game of the resample says something of a player."""
    rng = np.random.default_rng(seed)
    out = np.empty((resamples, d.players))
    for b in range(resamples):
        counts = np.bincount(rng.integers(0, d.games, d.games), minlength=d.games)
        theta = fit(d, counts.astype(float), alpha, start)
        present = d.says @ counts > 0
        out[b] = np.where(present, theta, np.nan)
    return out
