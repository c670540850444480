"""A player's profile, read from the store: games, win/draw/loss and ratings per env, the mean
of each seat metric, recent games and the rating after each rated game (protocol `profile`).

A profile of someone else shows only what a leaderboard already shows of them (their rated
games' record, their ratings and how those moved) and only of finished games: never their
metrics or which tables they sat at. A person the leaderboards do not list has no profile for
others (their name stays private); a bot's is public as soon as it is rated.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from typing import Any

from engine.core import UnknownEnvError
from engine.outcome import DRAW, LOSS, WIN, seat_outcome
from engine.registry import get
from server.store import names
from server.wire.protocol import plain_label

RECENT = 10  # recent games listed
HISTORY = 500  # rating points per env and scheme at most (the latest)
TOP = 5  # players whose rating a report plots (the leaderboard's first)
PROVISIONAL_BELOW = 10  # rated games under which a rating is marked provisional
PEOPLE, BOTS = "people", "bots"  # the pool each stored TrueSkill/Elo rating belongs to


class UnknownPlayer(LookupError):
    """No player of that name, or one whose profile the asker may not see."""


def profile(conn: sqlite3.Connection, name: str, asker: str) -> dict[str, Any]:
    """The profile of `name` (a person's name or a bot identity) as `asker` (a person's name)
    may see it; UnknownPlayer when there is none to see."""
    identity = _identity(conn, name)
    own = identity == f"human:{asker}"
    rated = {r[0] for r in conn.execute(
        "SELECT DISTINCT env FROM ratings WHERE identity = ?", (identity,))}
    if identity is None or (not own and not rated):
        raise UnknownPlayer(f"no player called {name!r} is on a leaderboard")
    shown = identity.removeprefix("human:")
    pool = PEOPLE if identity.startswith("human:") else BOTS
    played = _played(conn, identity, rated_only=not own)
    envs = []
    for env_id, games in played.items():
        tally = {WIN: 0, DRAW: 0, LOSS: 0}
        for game in games:
            if game["outcome"] in tally:
                tally[game["outcome"]] += 1
        envs.append({"env": env_id, "games": len(games), "wins": tally[WIN],
                     "draws": tally[DRAW], "losses": tally[LOSS],
                     "ratings": _ratings(conn, identity, env_id, pool),
                     "metrics": _metrics(env_id, games) if own else []})
    envs.sort(key=lambda e: -e["games"])
    everything = sorted((g for games in played.values() for g in games),
                        key=lambda g: -g["game_id"])
    recent = [{k: g[k] for k in ("game_id", "table_id", "env", "ended", "outcome", "rated")}
              for g in everything[:RECENT]] if own else []
    return {"name": shown, "games": len(everything), "envs": envs, "recent": recent,
            "history": _history(conn, identity)}


def _identity(conn: sqlite3.Connection, name: str) -> str | None:
    """A person's identity by name, however it is spelt ("ALICE" is alice: names.same), else
    a bot's identity as given."""
    row = conn.execute("SELECT name, identity FROM players WHERE kind = 'human' AND skeleton = ?",
                       (names.skeleton(name),)).fetchone()
    if row is not None and names.same(row["name"], name):
        return row["identity"]
    row = conn.execute("SELECT identity FROM players WHERE identity = ? AND kind != 'human'",
                       (name,)).fetchone()
    return row["identity"] if row else None


def _played(conn: sqlite3.Connection, identity: str, rated_only: bool
            ) -> dict[str, list[dict[str, Any]]]:
    """The identity's ended games per env, newest last: each with its outcome for the identity
    (won if a seat of it won and none lost, lost if one lost and none won, else drawn; void
    games: "void"), whether it was rated for it, and its seats' metrics. `rated_only`: only
    games rated for it (what a leaderboard counts)."""
    rows = conn.execute(
        """SELECT g.id, g.table_id, g.env, g.ended, g.status, g.result, g.metrics,
                  group_concat(s.seat) AS seats,
                  EXISTS (SELECT 1 FROM rating_history h WHERE h.game_id = g.id
                          AND h.identity = ?) AS rated
           FROM seats s JOIN games g ON g.id = s.game_id
           WHERE s.identity = ? AND g.status IN ('finished', 'void')
           GROUP BY g.id ORDER BY g.id""", (identity, identity))
    played: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if rated_only and not r["rated"]:
            continue
        result = json.loads(r["result"]) if r["result"] else None
        seats = [int(s) for s in str(r["seats"]).split(",")]
        outcomes = {seat_outcome(result, s) for s in seats}
        if r["status"] == "void" or None in outcomes:
            outcome = "void"
        elif WIN in outcomes and LOSS not in outcomes:
            outcome = WIN
        elif LOSS in outcomes and WIN not in outcomes:
            outcome = LOSS
        else:
            outcome = DRAW
        per_seat = (json.loads(r["metrics"]) if r["metrics"] else {}).get("seats") or {}
        played[r["env"]].append({
            "game_id": r["id"], "table_id": r["table_id"], "env": r["env"], "ended": r["ended"],
            "outcome": outcome, "rated": bool(r["rated"]),
            "metrics": [per_seat.get(str(s)) or {} for s in seats]})
    return played


def _ratings(conn: sqlite3.Connection, identity: str, env: str, pool: str
             ) -> list[dict[str, Any]]:
    return [{"scheme": r["scheme"], "pool": pool, "rating": r["mu"] - 3 * r["sigma"],
             "mu": r["mu"], "sigma": r["sigma"], "provisional": r["games"] < PROVISIONAL_BELOW}
            for r in conn.execute("SELECT scheme, mu, sigma, games FROM ratings WHERE env = ? "
                                  "AND identity = ? ORDER BY scheme", (env, identity))]


def _metrics(env_id: str, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each numeric seat metric's mean over the identity's seat-games of finished games (a
    yes/no figure's mean is its rate), labelled as the env labels it."""
    try:
        labels = get(env_id).metric_labels
    except UnknownEnvError:  # an env this Parlor no longer has: its keys in words
        labels = {}
    sums: dict[str, list[float]] = {}
    for game in games:
        if game["outcome"] == "void":
            continue
        for values in game["metrics"]:
            for key, value in values.items():
                if isinstance(value, bool | int | float):
                    sums.setdefault(key, []).append(float(value))
    return [{"label": plain_label(key, labels), "value": round(sum(v) / len(v), 4)}
            for key, v in sums.items()]


def _history(conn: sqlite3.Connection, identity: str, env: str | None = None,
             scheme: str | None = None) -> list[dict[str, Any]]:
    """The identity's rating after each of its rated games, oldest first, per env and scheme
    (the latest HISTORY points of each; of one env and scheme when given)."""
    rows = conn.execute(
        """SELECT env, scheme, time, rating FROM (
               SELECT h.env, h.scheme, g.ended AS time, h.mu_after - 3 * h.sigma_after AS rating,
                      row_number() OVER (PARTITION BY h.env, h.scheme ORDER BY g.id DESC) AS n,
                      g.id
               FROM rating_history h JOIN games g ON g.id = h.game_id
               WHERE h.identity = ? AND g.ended IS NOT NULL AND coalesce(h.env = ?, 1)
                     AND coalesce(h.scheme = ?, 1))
           WHERE n <= ? ORDER BY env, scheme, id""", (identity, env, scheme, HISTORY))
    return [dict(r) for r in rows]


def ratings_over_time(conn: sqlite3.Connection, env: str, leagues: tuple[str, ...],
                      top: int = TOP) -> dict[str, Any]:
    """The leaderboard's `top` of an env's first league with players, each with its rating
    after each rated game (a report's rating plot): {scheme, series: [{who, points}]}; people
    by name, as the leaderboard shows them."""
    for scheme in leagues:
        best = conn.execute("SELECT identity FROM ratings WHERE env = ? AND scheme = ? "
                            "ORDER BY mu - 3 * sigma DESC LIMIT ?", (env, scheme, top)).fetchall()
        if best:
            return {"scheme": scheme, "series": [
                {"who": r["identity"].removeprefix("human:"),
                 "points": [p["rating"] for p in _history(conn, r["identity"], env, scheme)]}
                for r in best]}
    return {"scheme": None, "series": []}
