"""`parlor ratings fit` over a real SQLite file of Blotto games whose fitted ratings are known
by hand: pools fitted apart, void games and the host's one-address rule left out, people
shown by pseudonym."""

from __future__ import annotations

import math
import sqlite3

import pytest
from scipy.optimize import brentq
from scipy.special import expit

from engine.records import GameRecord, Result
from server.reports.export import connect
from server.reports.fitted_ratings import fitted_ratings
from server.store import ratings
from server.store.pseudonyms import Pseudonyms
from server.store.store import Store

ENV = "colonel-blotto"
ADA, BO, BOT, RANDOM = "human:ada", "human:bo", "scripted:adaptive", "random"


def kind(identity: str) -> str:
    return "human" if identity.startswith("human:") else "bot"


async def store_game(store: Store, a: str | tuple[str, ...], b: str | tuple[str, ...],
                     score_a: float, *, void: bool = False, unrated: str | None = None) -> None:
    """A game of side a against side b (one identity, or a team of seats)."""
    sides = [(a,) if isinstance(a, str) else a, (b,) if isinstance(b, str) else b]
    order = [i for side in sides for i in side]
    seats = [{"identity": i, "name": i.removeprefix("human:"), "kind": kind(i)} for i in order]
    game_id = await store.create_game(table_id="t1", env=ENV, rules_version="1", preset=None,
                                      config={}, seed=0, seats=seats)
    reward_a = {1: 1.0, 0: -1.0}.get(score_a, 0.0)
    rewards = {s: reward_a if s < len(sides[0]) else -reward_a for s in range(len(order))}
    winners = tuple(s for s, r in rewards.items() if r > 0)
    teams = (tuple(range(len(sides[0]))), tuple(range(len(sides[0]), len(order))))
    result = Result(rewards, winners, "test", teams=teams, void=void)
    await store.finish_game(game_id, record=GameRecord(ENV, "1", {}, 0, len(order), [], [],
                                                       result),
                            statuses=dict.fromkeys(rewards, "done"), metrics={}, unrated=unrated)


async def blotto_games(path):
    """The games every test here and tests/server/commands/test_ratings.py fit."""
    store = await Store.open(path)
    for score in (1, 1, 1, 0):  # people: ada beat bo 3 times in 4
        await store_game(store, ADA, BO, score)
    for score in (1, 1, 0.5, 0):  # bots: 2 wins, a draw and a loss = 2.5 to 1.5
        await store_game(store, BOT, RANDOM, score)
    for score in (1, 0):  # mixed: ada and the bot, a win each
        await store_game(store, ADA, BOT, score)
    # games that say nothing of an identity in every place alike: self-play, and the lobby's
    # bot beside each of two people (ada beat bo once more)
    await store_game(store, RANDOM, RANDOM, 1)
    await store_game(store, (ADA, BOT), (BO, BOT), 1)
    # never fitted: a void game, a game void by a provider failure, the host's rule
    await store_game(store, BO, ADA, 1, void=True, unrated=ratings.VOID)
    await store_game(store, BO, ADA, 1, unrated=f"{ratings.VOID} (a provider failed)")
    await store_game(store, BO, ADA, 1, unrated=ratings.SAME_ADDRESS)
    # fitted though not rated live: a league's table
    await store_game(store, RANDOM, BOT, 0, unrated="not rated: this table's games leave the "
                                                    "ratings alone (a league rates them)")
    await store.close()
    return path


@pytest.fixture
async def db(tmp_path):
    return await blotto_games(tmp_path / "parlor.db")


def fit(db, pool, **options):
    conn = connect(db)
    try:
        return fitted_ratings(conn, ENV, pool, **options)
    finally:
        conn.close()


def by_player(result):
    return {r.player: r for r in result.rows}


def test_pools_are_fitted_apart_with_the_hand_checked_gaps(db):
    people = fit(db, "people", alpha=0.0, resamples=0, names=True)
    assert people.games == 4 and set(by_player(people)) == {ADA, BO}
    assert [r.games for r in people.rows] == [4, 4]
    rows = by_player(people)
    # Bradley–Terry with no prior: the gap is the log odds, 3:1, on the Elo scale
    assert rows[ADA].rating - rows[BO].rating == pytest.approx(400 * math.log10(3), abs=1e-3)
    assert rows[ADA].rating + rows[BO].rating == pytest.approx(2000, abs=1e-6)  # mean 1000
    assert people.left_out == {"void": 2, "the host's one-address rule": 1,
                               "not in the people pool": 9}

    bots = fit(db, "bots", alpha=0.0, resamples=0)
    rows = by_player(bots)
    assert bots.games == 6 and set(rows) == {BOT, RANDOM}
    assert rows[RANDOM].games == 5  # its self-play game says nothing of it
    # 2 wins, 1 draw (half each), 1 loss, and a league game won: 3.5 to 1.5
    assert rows[BOT].rating - rows[RANDOM].rating == pytest.approx(400 * math.log10(3.5 / 1.5),
                                                                   abs=1e-3)
    # no prior: a resample where one side won every game has no finite fit, so no bootstrap
    assert all(r.provisional and r.low == r.rating == r.high for r in bots.rows)
    with_prior = fit(db, "bots", resamples=100)
    assert all(r.low < r.rating < r.high for r in with_prior.rows)

    mixed = by_player(fit(db, "mixed", resamples=0, names=True))  # people with bots
    assert (mixed[ADA].games, mixed[BOT].games, mixed[BO].games) == (3, 2, 1)  # bot beside both
    everyone = by_player(fit(db, "all", alpha=0.0, resamples=0, names=True))
    assert {r.kind for r in everyone.values()} == {"human", "bot"} and len(everyone) == 4
    assert (everyone[BOT].games, everyone[ADA].games, everyone[BO].games) == (7, 7, 5)
    mixed = everyone
    # ada-bo, ada-bot and bot-random form a tree, so each gap is fitted on its own games:
    # ada-bot 1:1 is a gap of 0; ada-bo is 3:1 plus one win by sides whose means differ by half
    # the gap (the bot beside both cancels out): x maximises 3 ln s(x) + ln s(-x) + ln s(x/2)
    def slope(x: float) -> float:
        return 3 * expit(-x) - expit(x) + 0.5 * expit(-x / 2)

    gap = brentq(slope, 0.0, 5.0) * 400 / math.log(10)
    assert mixed[ADA].rating - mixed[BO].rating == pytest.approx(gap, abs=1e-3)
    assert gap > 400 * math.log10(3)  # the shared win counts, at half weight
    assert mixed[ADA].rating == pytest.approx(mixed[BOT].rating, abs=1e-3)


def test_people_are_shown_by_pseudonym_unless_names_are_asked(db):
    conn = sqlite3.connect(db)
    ada = Pseudonyms(conn).label(ADA, "human")
    conn.close()
    players = set(by_player(fit(db, "all", resamples=10)))
    assert ada in players and ADA not in players and not any(p.startswith("human:") for p in players)
    assert ADA in by_player(fit(db, "all", resamples=10, names=True))
