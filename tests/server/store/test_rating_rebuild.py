"""`parlor ratings rebuild` gives back the numbers the live server wrote: games played over
real websockets (a person with the lobby's bots: held identities, SocialGrid's TrueSkill
league beside its Elo one, Find the Spy by seat) and by `parlor sim` (Blotto; SocialGrid's Crew
Elo league), the ratings and their history copied, wiped, rebuilt and compared."""

from __future__ import annotations

import asyncio
import sqlite3

from server.cli import main
from tests.server.conftest import Client
from tests.server.store.test_rated_with_bots import GAMES, play

RATINGS = "SELECT env, scheme, identity, mu, sigma, games, updated FROM ratings " \
          "ORDER BY env, scheme, identity"
HISTORY = "SELECT game_id, env, scheme, identity, mu_before, sigma_before, mu_after, " \
          "sigma_after FROM rating_history ORDER BY game_id, rowid"


def stored(db) -> tuple[list[tuple], list[tuple]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(RATINGS).fetchall(), conn.execute(HISTORY).fetchall()


async def test_a_rebuild_gives_the_live_numbers(make_server, capsys):
    server = await make_server()
    ada = await Client.connect(server.url, "ada")
    for env, bot, players, config in GAMES:
        await play(ada, env, bot, players, config, seed=3)
    await play(ada, *GAMES[1], seed=4)  # a second game from her stored prior
    await ada.close()
    db = server.db_path
    for argv in (["colonel-blotto", "--seat", "scripted:adaptive", "--seat", "random",
                  "--preset", "small", "--games", "4", "--concurrency", "2"],
                 ["socialgrid", "--seat", "crew=scripted:agent", "--seat", "impostor=random",
                  "--config", "max_steps=6", "--games", "2"]):
        assert await asyncio.to_thread(main, ["sim", *argv, "--db", db, "--quiet"]) == 0
    live = stored(db)
    schemes = {(env, scheme) for env, scheme, *_ in live[0]}
    assert {("socialgrid", "elo"), ("socialgrid", "trueskill"), ("find-the-spy", "trueskill"),
            ("colonel-blotto", "trueskill")} <= schemes
    assert len(live[1]) == len(GAMES) + 1 + 4 * 2 + 2 * 2

    with sqlite3.connect(db) as conn:  # a rebuild must recompute, not keep what is there
        conn.execute("UPDATE ratings SET mu = 0, games = 99")
        conn.execute("DELETE FROM rating_history WHERE rowid % 2 = 0")
    capsys.readouterr()
    assert await asyncio.to_thread(main, ["ratings", "rebuild", "--db", db]) == 0
    assert "colonel-blotto: 4 games rated, 2 ratings" in capsys.readouterr().out
    assert stored(db) == live  # exactly: the same code on the same priors in the same order

    with sqlite3.connect(db) as conn:  # --env leaves the other envs alone
        conn.execute("UPDATE ratings SET mu = 0 WHERE env = 'colonel-blotto'")
        conn.execute("UPDATE ratings SET mu = 0 WHERE env = 'codenames'")
    assert await asyncio.to_thread(main, ["ratings", "rebuild", "--env", "codenames", "--db",
                                    db]) == 0
    ratings, history = stored(db)
    assert history == live[1]
    assert [r for r in ratings if r[0] != "colonel-blotto"] == \
        [r for r in live[0] if r[0] != "colonel-blotto"]
    assert {r[3] for r in ratings if r[0] == "colonel-blotto"} == {0}


def test_an_unknown_env_is_refused(tmp_path, capsys):
    assert main(["ratings", "rebuild", "--env", "nosuch", "--db", str(tmp_path / "x.db")]) == 2
    assert "unknown environment 'nosuch'" in capsys.readouterr().err


def test_a_missing_database_is_refused_and_not_created(tmp_path, capsys):
    assert main(["ratings", "rebuild", "--db", str(tmp_path / "none.db")]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()
