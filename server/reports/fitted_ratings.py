"""Ratings fitted over every stored game of an env (`parlor ratings fit`), the way Chatbot
Arena reports them: one Bradley–Terry / Plackett–Luce fit over all the games at once, so a
rating does not depend on the order the games were played, with bootstrap intervals
(server/reports/plackett_luce.py has the model).

- **Games fitted**: the env's finished games that are not void, ranked by place (sides, or
  seats for "trueskill-seats", as the live ratings group them; reward decides the order, equal
  rewards tie). Games the live ratings leave alone for other reasons (league tables, self-play)
  are fitted; void games (a provider or server failure, a leaver before anyone moved) and games
  under the host's one-address rule never are.
- **Pools**, fitted apart since people's and bots' scales differ: `people` (games where every
  seat is a person), `bots` (every seat a bot: any kind but 'human'), `mixed` (every game,
  people and bots on one scale: most people play beside the lobby's bots).
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

import csv
import io
import json
import sqlite3
from dataclasses import asdict, dataclass, field

import numpy as np

from engine.core import Result
from engine.registry import get
from server.reports import plackett_luce as pl
from server.store import ratings
from server.store.pseudonyms import Pseudonyms

POOLS = ("people", "bots", "mixed")
PROVISIONAL_BELOW = 10  # games in the pool
RESAMPLES = 200
FORMATS = ("table", "csv", "json")


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


def fitted_ratings(conn: sqlite3.Connection, env: str, pool: str = "mixed", *,
                   resamples: int = RESAMPLES, seed: int = 0, names: bool = False,
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
        people = sum(kind == "human" for _, kind in seats)
        if (pool == "people" and people < len(seats)) or (pool == "bots" and people):
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
    label = (lambda i, k: i) if names else Pseudonyms(conn).label
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


def table_text(fit: Fit) -> str:
    """The fit as a plain table with a heading naming what was fitted and left out."""
    left = ", ".join(f"{n} {why}" for why, n in sorted(fit.left_out.items()))
    head = (f"{fit.env}, pool {fit.pool}: {fit.games} games fitted"
            + (f" (left out: {left})" if left else "")
            + f"\n95% intervals from {fit.resamples} bootstrap resamples (seed {fit.seed}); "
              f"* provisional: under {PROVISIONAL_BELOW} games")
    if not fit.rows:
        return head + "\nNo games to fit in this pool."
    width = max(len("player"), *(len(r.player) for r in fit.rows))
    lines = [head, f"{'player':<{width}}  {'kind':<9} {'games':>5}  {'rating':>7}  "
                   f"{'95% interval':>15}"]
    for r in fit.rows:
        lines.append(f"{r.player:<{width}}  {r.kind:<9} {r.games:>5}  {r.rating:>7.0f}  "
                     f"{f'{r.low:.0f} to {r.high:.0f}':>15}{' *' if r.provisional else ''}")
    return "\n".join(lines)


def csv_text(fit: Fit) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["player", "kind", "games", "rating", "low", "high", "provisional"])
    for r in fit.rows:
        writer.writerow([r.player, r.kind, r.games, f"{r.rating:.1f}", f"{r.low:.1f}",
                         f"{r.high:.1f}", int(r.provisional)])
    return out.getvalue().rstrip("\n")


def json_text(fit: Fit) -> str:
    return json.dumps(asdict(fit) | {"provisional_below": PROVISIONAL_BELOW,
                                     "scale": "1000 + 400/ln(10) * strength, mean zero"},
                      indent=1)
