"""`parlor ratings fit` over a real SQLite file of Blotto games whose fitted ratings are known
by hand: pools fitted apart, void games and the host's one-address rule left out, people
shown by pseudonym."""

from __future__ import annotations

import json
import math
import sqlite3

import pytest

from engine.records import GameRecord, Result
from server.cli import main
from server.reports.export import connect
from server.reports.fitted_ratings import fitted_ratings
from server.store import ratings
from server.store.pseudonyms import Pseudonyms
from server.store.store import Store

ENV = "colonel-blotto"
ADA, BO, BOT, RANDOM = "human:ada", "human:bo", "scripted:adaptive", "random"


def kind(identity: str) -> str:
    return "human" if identity.startswith("human:") else "bot"


async def store_game(store: Store, a: str, b: str, score_a: float, *, void: bool = False,
                     unrated: str | None = None) -> None:
    seats = [{"identity": i, "name": i.removeprefix("human:"), "kind": kind(i)} for i in (a, b)]
    game_id = await store.create_game(table_id="t1", env=ENV, rules_version="1", preset=None,
                                      config={}, seed=0, seats=seats)
    rewards = {0: 1.0, 1: -1.0} if score_a == 1 else {0: -1.0, 1: 1.0} if score_a == 0 else \
        {0: 0.0, 1: 0.0}
    winners = tuple(s for s, r in rewards.items() if r > 0)
    result = Result(rewards, winners, "test", void=void)
    await store.finish_game(game_id, record=GameRecord(ENV, "1", {}, 0, 2, [], [], result),
                            statuses={0: "done", 1: "done"}, metrics={}, unrated=unrated)


@pytest.fixture
async def db(tmp_path):
    path = tmp_path / "parlor.db"
    store = await Store.open(path)
    for score in (1, 1, 1, 0):  # people: ada beat bo 3 times in 4
        await store_game(store, ADA, BO, score)
    for score in (1, 1, 0.5, 0):  # bots: 2 wins, a draw and a loss = 2.5 to 1.5
        await store_game(store, BOT, RANDOM, score)
    for score in (1, 0):  # mixed: ada and the bot, a win each
        await store_game(store, ADA, BOT, score)
    # never fitted: a void game, a game void by a provider failure, the host's rule
    await store_game(store, BO, ADA, 1, void=True, unrated=ratings.VOID)
    await store_game(store, BO, ADA, 1, unrated=f"{ratings.VOID} (a provider failed)")
    await store_game(store, BO, ADA, 1, unrated=ratings.SAME_ADDRESS)
    # fitted though not rated live: a league's table
    await store_game(store, RANDOM, BOT, 0, unrated="not rated: this table's games leave the "
                                                    "ratings alone (a league rates them)")
    await store.close()
    return path


def fit(db, pool, **options):
    conn = connect(db)
    try:
        return fitted_ratings(conn, ENV, pool, **options)
    finally:
        conn.close()


def by_player(result):
    return {r.player: r for r in result.rows}


def test_pools_are_fitted_apart_with_the_hand_checked_gaps(db):
    people = fit(db, "people", alpha=0.0, names=True)
    assert people.games == 4 and set(by_player(people)) == {ADA, BO}
    rows = by_player(people)
    # Bradley–Terry with no prior: the gap is the log odds, 3:1, on the Elo scale
    assert rows[ADA].rating - rows[BO].rating == pytest.approx(400 * math.log10(3), abs=1e-3)
    assert rows[ADA].rating + rows[BO].rating == pytest.approx(2000, abs=1e-6)  # mean 1000
    assert people.left_out == {"void": 2, "the host's one-address rule": 1}

    bots = fit(db, "bots", alpha=0.0)
    rows = by_player(bots)
    assert bots.games == 5 and set(rows) == {BOT, RANDOM}
    # 2 wins, 1 draw (half each), 1 loss, and a league game won: 3.5 to 1.5
    assert rows[BOT].rating - rows[RANDOM].rating == pytest.approx(400 * math.log10(3.5 / 1.5),
                                                                   abs=1e-3)
    assert all(r.provisional and r.low <= r.rating <= r.high for r in bots.rows)

    mixed = by_player(fit(db, "mixed"))
    assert {r.kind for r in mixed.values()} == {"human", "bot"}
    assert mixed[BOT].games == 7 and len(mixed) == 4


def test_people_are_shown_by_pseudonym_unless_names_are_asked(db):
    conn = sqlite3.connect(db)
    ada = Pseudonyms(conn).label(ADA, "human")
    conn.close()
    players = set(by_player(fit(db, "mixed", resamples=10)))
    assert ada in players and ADA not in players and not any(p.startswith("human:") for p in players)
    assert ADA in by_player(fit(db, "mixed", resamples=10, names=True))


def test_the_command_prints_the_table_csv_and_json(db, capsys):
    assert main(["ratings", "fit", ENV, "--pool", "bots", "--db", str(db), "--resamples",
                 "50", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pool"] == "bots" and data["games"] == 5 and data["resamples"] == 50
    assert [r["player"] for r in data["rows"]] == [BOT, RANDOM]
    assert main(["ratings", "fit", ENV, "--db", str(db), "--resamples", "20"]) == 0
    table = capsys.readouterr().out
    assert "pool mixed: 11 games fitted (left out: 1 the host's one-address rule, 2 void)" \
        in table
    assert "human:" not in table
    assert sum(line.endswith(" *") for line in table.splitlines()) == 4  # all under 10 games
    assert main(["ratings", "fit", ENV, "--db", str(db), "--format", "csv",
                 "--resamples", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "player,kind,games,rating,low,high,provisional" and len(lines) == 5


@pytest.mark.parametrize(("argv", "says"), [
    (["nosuch"], "unknown environment 'nosuch'"),
    (["hidden-role"], "hidden-role is not rated: its games are scored by accuracy"),
    ([ENV, "--resamples", "-1"], "--resamples must be 0 or more"),
])
def test_bad_input_gets_a_clear_error(db, capsys, argv, says):
    assert main(["ratings", "fit", *argv, "--db", str(db)]) == 2
    assert says in capsys.readouterr().err


def test_a_missing_database_is_refused_and_not_created(tmp_path, capsys):
    assert main(["ratings", "fit", ENV, "--db", str(tmp_path / "none.db")]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()
