"""`parlor ratings rebuild`: every stored TrueSkill and Elo rating recomputed from the games.

An env's ratings and rating history are dropped and its games rated again, one after another,
in the order they ended (`games.ended`, then id: the order the live server rated them, each in
its finishing transaction), through the same code the live server uses (`store.rate_game` over
`ratings.rate`), so the numbers come out the same. The games rated are those the live server
rated: finished, with no reason kept for not rating them (`games.unrated` is NULL: void games,
league tables, self-play and the host's one-address rule stay unrated). It runs as one write
transaction, so a server sharing the file waits for it rather than rating from a half-rebuilt
table.

Several servers writing one file rate their games in the order their transactions commit,
which for two games ending within the same instant on different processes may not be the
order of `ended`; a rebuild then rates them in `ended` order.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from engine.core import Result
from server.store import ratings
from server.store.store import rate_game


@dataclass
class Rebuilt:
    """What a rebuild did for one env: games rated, identities with a rating now."""

    env: str
    games: int = 0
    identities: int = 0


def rebuild(c: sqlite3.Connection, schemes: Mapping[str, str]) -> list[Rebuilt]:
    """Rebuild the ratings of each env in `schemes` (env -> its rating scheme), inside the
    caller's write transaction (a `Store.write` job)."""
    done = []
    for env, scheme in schemes.items():
        c.execute("DELETE FROM rating_history WHERE env = ?", (env,))
        c.execute("DELETE FROM ratings WHERE env = ?", (env,))
        tally = Rebuilt(env)
        games = c.execute("SELECT id, ended, result FROM games WHERE env = ? AND status = "
                          "'finished' AND unrated IS NULL AND result IS NOT NULL "
                          "ORDER BY ended, id", (env,)).fetchall()
        for game_id, ended, result_text in games:
            result = Result.from_json(json.loads(result_text))
            identities = [i for (i,) in c.execute(
                "SELECT identity FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]
            league = ratings.plan(scheme, result, identities).league
            if league is None:
                continue

            rate_game(c, game_id, env, league, identities,
                      partial(ratings.rate, scheme, result, identities), ended)
            tally.games += 1
        tally.identities = c.execute("SELECT count(*) FROM ratings WHERE env = ?",
                                     (env,)).fetchone()[0]
        done.append(tally)
    return done
