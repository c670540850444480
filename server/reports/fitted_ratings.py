"""Ratings fitted over every stored game of an env (`parlor ratings fit`), the way Chatbot
Arena reports them: one Bradley–Terry / Plackett–Luce fit over all the games at once, so a
rating does not depend on the order the games were played, with bootstrap intervals
(server/reports/plackett_luce.py has the model).

- **Games fitted**: the env's finished games that are not void, ranked by place (sides, or
  seats for "trueskill-seats", as the live ratings group them; reward decides the order, equal
  rewards tie). Games the live ratings leave alone for other reasons (league tables, self-play)
  are fitted; void games (a provider or server failure, a leaver before anyone moved) and games
  under the host's one-address rule never are.
- **Pools** as `parlor report` has them (`comparison.in_pool`), each fitted apart since
  people's and bots' scales differ: `people` (games where every seat is a person), `bots` (no
  person: any kind but 'human'), `mixed` (people and bots at one table: where most people
  play, beside the lobby's bots), `all` (every game, everyone on one scale; the default).
- **Scale**: 1000 + 400/ln(10) * strength, strengths centred on mean zero (the pool's average
  player is 1000); a 400-point gap is 10:1 odds between single players.
- **Intervals**: 95% percentile intervals over `resamples` bootstrap resamples of the games
  (seeded, so a report is reproducible). **Provisional**: fewer than 10 games in the pool.
- A player's **games** are those that say something about them: not a game where they hold
  the same share of every place (self-play; the lobby's bot beside each of two people),
  where they cancel out. A player with no such game is not listed.
- People are named by pseudonym (server/store/pseudonyms.py) unless `names` is asked for.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass, field

import numpy as np

from engine.core import Result
from engine.registry import get
from server.reports import plackett_luce as pl
from server.reports.comparison import POOLS, in_pool
from server.reports.tables import render
from server.store import ratings
from server.store.pseudonyms import Pseudonyms

PROVISIONAL_BELOW = 10  # games in the pool
RESAMPLES = 200


class NotFitted(ValueError):
    """The env has no fitted rating (its games are scored by accuracy)."""


@dataclass(frozen=True)
class Row:
    player: str  # a bot's identity, a person's pseudonym (or name when asked)
    kind: str
    games: int
    rating: float
    low: float
    high: float
    provisional: bool


@dataclass
class Fit:
    env: str
    pool: str
    games: int  # games fitted
    resamples: int
    seed: int
    left_out: dict[str, int] = field(default_factory=dict)  # why -> games
    rows: list[Row] = field(default_factory=list)


def fitted_ratings(conn: sqlite3.Connection, env: str, pool: str = "all", *,
                   resamples: int = RESAMPLES, seed: int = 0, names: bool = False, study: str = "",
                   alpha: float = pl.ALPHA) -> Fit:
    """The fitted table of `env`'s games in `pool`, best first, read from `conn` (read-only
    is enough); `alpha` is the prior's strength (server/reports/plackett_luce.py)."""
    if pool not in POOLS:
        raise ValueError(f"unknown pool {pool!r}; pools: {', '.join(POOLS)}")
    scheme = get(env).rating
    if scheme not in ratings.SCHEMES or scheme == "none":
        raise NotFitted(f"{env} is not rated: its games are scored by accuracy")
    fit = Fit(env, pool, 0, resamples, seed)
    index: dict[str, int] = {}
    kinds: dict[str, str] = {}
    games: list[list[pl.Place]] = []
    for game_id, status, unrated, result_text in conn.execute(
            "SELECT id, status, unrated, result FROM games WHERE env = ? AND ended IS NOT "
            "NULL ORDER BY id", (env,)):
        why = _left_out(status, unrated, result_text)
        if why is not None:
            fit.left_out[why] = fit.left_out.get(why, 0) + 1
            continue
        seats = conn.execute("SELECT identity, kind FROM seats WHERE game_id = ? ORDER BY seat",
                             (game_id,)).fetchall()
        if not in_pool(pool, [kind for _, kind in seats]):
            fit.left_out[f"not in the {pool} pool"] = fit.left_out.get(
                f"not in the {pool} pool", 0) + 1
            continue
        identities = [identity for identity, _ in seats]
        for identity, kind in seats:
            kinds.setdefault(identity, kind)
            index.setdefault(identity, len(index))
        places = ratings.ranked_places(scheme, Result.from_json(json.loads(result_text)),
                                       identities)
        games.append([(tuple(index[i] for i in place), reward) for place, reward in places])
    fit.games = len(games)
    if not games:
        return fit
    d = pl.design(len(index), games)
    played = dict(zip(index, np.asarray(d.says.sum(axis=1)).ravel().tolist(), strict=True))
    theta = pl.fit(d, alpha=alpha)
    boot = pl.to_elo(pl.bootstrap(d, resamples, seed, alpha, start=theta))
    low, high = np.nanpercentile(boot, [2.5, 97.5], axis=0) if resamples else (
        pl.to_elo(theta), pl.to_elo(theta))
    label = (lambda i, k: i) if names else Pseudonyms(conn, study).label
    rows = [Row(label(identity, kinds[identity]), kinds[identity], int(played[identity]),
                float(pl.to_elo(theta[j])), float(low[j]), float(high[j]),
                played[identity] < PROVISIONAL_BELOW)
            for identity, j in index.items() if played[identity]]
    fit.rows = sorted(rows, key=lambda r: (-r.rating, r.player))
    return fit


def _left_out(status: str, unrated: str | None, result_text: str | None) -> str | None:
    """Why a game is not fitted, or None."""
    if status == "void" or (unrated or "").startswith(ratings.VOID):
        return "void"
    if status != "finished" or result_text is None:
        return "not finished"
    if unrated == ratings.SAME_ADDRESS:
        return "the host's one-address rule"
    return None


COLUMNS = {"player": "player", "kind": "kind", "games": "games", "rating": "rating",
           "low": "95% low", "high": "95% high", "provisional": "provisional"}


def render_fit(fit: Fit, fmt: str = "table") -> str:
    """The fit as `fmt` (table | csv | json | md, server/reports/tables.py): json the whole
    `Fit`; table and md under a heading naming what was fitted and left out."""
    if fmt == "json":
        return json.dumps(asdict(fit) | {"provisional_below": PROVISIONAL_BELOW,
                                         "scale": "1000 + 400/ln(10) * strength, mean zero"},
                          indent=1)
    rows = [asdict(r) for r in fit.rows]
    if fmt == "csv":
        return render(COLUMNS, rows, "csv")
    left = ", ".join(f"{n} {why}" for why, n in sorted(fit.left_out.items()))
    head = (f"{fit.env}, pool {fit.pool}: {fit.games} games fitted"
            + (f" (left out: {left})" if left else "")
            + f"\n95% intervals from {fit.resamples} bootstrap resamples (seed {fit.seed}); "
              f"* provisional: under {PROVISIONAL_BELOW} games")
    if not fit.rows:
        return head + "\nNo games to fit in this pool."
    whole = "{:.0f}".format
    return head + "\n\n" + render(COLUMNS, rows, fmt, {
        "rating": whole, "low": whole, "high": whole,
        "provisional": lambda p: "*" if p else ""})
