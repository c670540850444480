"""A person who plays with and against the lobby's default bots is rated (issue 22): over real
websockets and a real SQLite file, ada plays each game to its end and her rating row moves,
while the bot that fills seats on both sides keeps its rating; every game that is not rated
says why, in game_over and in the leaderboard."""

from __future__ import annotations

import random

import pytest

from bots.random_bot import random_action
from engine.spaces import ActionSpace
from server.store.ratings import MU
from tests.server.conftest import Client
from tests.server.net.test_play import rows

# env, the default bot the create-table screen offers, the seat count, a small config
GAMES = [
    ("socialgrid", "scripted:agent", 7, {"max_steps": 4}),
    ("codenames", "scripted:agent", 4, {}),
    ("secret-mafia", "scripted:agent", 6, {}),
    ("find-the-spy", "scripted:describer", 4, {}),
]


async def play(ada: Client, env: str, bot: str, players: int, config: dict, seed: int) -> dict:
    """Ada at seat 0, the bot in every other seat; she answers every turn with a legal move
    (drawn at random, as a person trying things would) until game_over."""
    await ada.request("create_table", env=env, seats=["human"] + [bot] * (players - 1),
                      seed=seed, join_seat=0, config=config)
    rng = random.Random(seed)
    while True:
        msg = await ada.recv(timeout=30)
        if msg["type"] == "your_turn":
            action = random_action(ActionSpace.from_json(msg["legal"]), rng)
            await ada.send("act", table_id=msg["table_id"], turn=msg["turn"], action=action)
        elif msg["type"] == "game_over":
            return msg


def rating_row(db, env: str) -> dict | None:
    found = rows(db, "SELECT scheme, mu, sigma, games FROM ratings WHERE env = ? AND "
                     "identity = 'human:ada'", env)
    return found[0] if found else None


@pytest.mark.parametrize(("env", "bot", "players", "config"), GAMES)
async def test_a_person_with_the_default_bots_is_rated(make_server, env, bot, players, config):
    server = await make_server()
    ada = await Client.connect(server.url, "ada")
    over = await play(ada, env, bot, players, config, seed=3)
    assert not over["result"]["void"]
    assert over["unrated"] is None
    assert over["rating_scheme"] == "trueskill"
    assert over["rating_changes"]["0"]["identity"] == "human:ada"
    assert over["rating_changes"]["0"]["before"] is None
    assert over["rating_held"] == [str(s) for s in range(1, players)]  # the bot, everywhere
    several = "held more than one seat" if env == "find-the-spy" else "sat on more than one side"
    assert f"{bot} {several} and keeps its rating" in over["rating_note"]
    if env == "socialgrid":  # not the Crew Elo league: that wants one identity per side
        assert "the Elo league takes one identity per side" in over["rating_note"]
    first = rating_row(server.db_path, env)
    assert first is not None and first["scheme"] == "trueskill" and first["games"] == 1
    assert first["mu"] == pytest.approx(over["rating_changes"]["0"]["after"]["mu"])
    assert first["sigma"] < MU / 3
    assert rows(server.db_path, "SELECT count(*) n FROM ratings WHERE identity = ?", bot) == \
        [{"n": 0}]

    over = await play(ada, env, bot, players, config, seed=4)
    second = rating_row(server.db_path, env)
    assert second["games"] == 2 and second["sigma"] < first["sigma"]
    assert over["rating_changes"]["0"]["before"]["mu"] == pytest.approx(first["mu"])
    assert rows(server.db_path, "SELECT count(*) n FROM games WHERE unrated IS NOT NULL") == \
        [{"n": 0}]

    board = await ada.request("leaderboard", env=env)
    assert board["league"] == "trueskill" and board["unrated_count"] == 0
    assert [r["identity"] for r in board["rows"]] == ["human:ada"]
    await ada.close()


async def test_every_game_that_is_not_rated_says_why_and_the_leaderboard_lists_it(server):
    ada = await Client.connect(server.url, "ada")
    # Ada leaves before any person moved: void.
    table = (await ada.request("create_table", env="codenames", seats=["human"] + [
        "scripted:agent"] * 3, seed=1, join_seat=0))["table"]
    if not any(m["type"] == "your_turn" for m in ada.received):  # Red starts
        await ada.wait_for("your_turn")
    await ada.request("leave", table_id=table["id"])
    over = next(m for m in ada.received if m["type"] == "game_over")
    assert over["result"]["void"] and over["rating_changes"] == {}
    assert over["unrated"] == ("not rated: the game is void (Red Spymaster left the game "
                               "before any person moved)")
    # One bot in every seat: self-play moves nobody.
    bots = (await ada.request("create_table", env="codenames", seats=["scripted:agent"] * 4,
                              seed=2))["table"]
    await ada.send("spectate", table_id=bots["id"])
    over = await ada.wait_for("game_over", table_id=bots["id"])
    assert not over["result"]["void"] and over["rating_changes"] == {}
    assert over["unrated"] == ("not rated: every player sat on more than one side (self-play), "
                               "so no rating could move")
    assert over["rating_scheme"] is None and over["rating_held"] == []

    board = await ada.request("leaderboard", env="codenames")
    assert board["rows"] == [] and board["unrated_count"] == 2
    assert [(g["table_id"], g["status"], g["unrated"]) for g in board["unrated"]] == [
        (bots["id"], "finished", over["unrated"]),
        (table["id"], "void", "not rated: the game is void (Red Spymaster left the game "
                              "before any person moved)")]
    refused = await ada.request("leaderboard", env="codenames", scheme="elo")
    assert refused["type"] == "error" and "keeps no 'elo' ratings" in refused["message"]
    await ada.close()


async def test_ratings_stored_before_keep_their_league_and_old_unrated_games_say_so(tmp_path):
    """A database from before this change: SocialGrid's ratings were Elo, every other env's
    TrueSkill; a void game and a finished game nobody was rated in get a reason."""
    import sqlite3

    from server.store.migrations import MIGRATIONS
    from server.store.names import skeleton
    from server.store.store import Store
    from tests.server.conftest import schema_at

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.create_function("name_skeleton", 1, skeleton, deterministic=True)  # as the store
        schema_at(conn, next(i for i, script in enumerate(MIGRATIONS)
                             if "ratings_by_scheme" in script))
        for game_id, env, status in ((1, "socialgrid", "finished"), (2, "codenames", "void"),
                                     (3, "codenames", "finished"), (4, "codenames", "finished")):
            conn.execute("INSERT INTO games (id, table_id, env, rules_version, config, seed, "
                         "started, ended, status) VALUES (?, 't', ?, '1', '{}', '0', 0, 1, ?)",
                         (game_id, env, status))
        conn.executemany("INSERT INTO ratings VALUES (?, ?, ?, 0, 1, 0)",
                         [("socialgrid", "m", 1532.0), ("codenames", "m", 27.0)])
        conn.executemany("INSERT INTO rating_history VALUES (?, ?, 'm', NULL, NULL, ?, 0)",
                         [(1, "socialgrid", 1532.0), (3, "codenames", 27.0)])
    store = await Store.open(path)
    try:
        assert [r["mu"] for r in await store.leaderboard("socialgrid", "elo")] == [1532.0]
        assert await store.leaderboard("socialgrid", "trueskill") == []
        assert [r["mu"] for r in await store.leaderboard("codenames")] == [27.0]
        count, games = await store.unrated_games("codenames")
        assert count == 2 and [(g["id"], g["unrated"]) for g in games] == [
            (4, "not rated (games stored before this version kept no reason)"),
            (2, "not rated: the game is void")]
    finally:
        await store.close()
