"""Merging Parlor databases (server/store/merge.py, `parlor merge`): games played into real SQLite
files by `parlor sim` (scripted, random and LLM seats against a fake endpoint), a campaign's
games played on a server's tables, and what goes with them (people, texts, bot failures,
debriefs, consents, SocialMaze instances), merged; every game equal after the merge, nothing
copied twice, ratings equal to a rebuild's, and a failed merge changing nothing."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from engine.core import ActionRecord, GameRecord, Result
from server.cli import main
from server.net.app import Server
from server.store import study
from server.store.merge import MergeCounts, copy_games, deserialized
from server.store.store import Store
from server.store.transcripts import text_refs
from server.tables.policy import BotPolicy
from tests.fakes import FakeOpenAI
from tests.fakes.seating import FAST, example_responder
from tests.server.store.test_rating_rebuild import stored as stored_ratings

BLOTTO = ["colonel-blotto", "--seat", "random", "--seat", "scripted:adaptive", "--preset",
          "small"]
GRID = ["socialgrid", "--seat", "crew=scripted:agent", "--seat", "impostor=random", "--config",
        "max_steps=6"]
CONSENT = study.parse_study('+++\nname = "pilot"\n+++\nConsent text.\n')
LONG = "You are playing a game of Colonel Blotto. " * 10  # stored once, in `texts`


def sim(db: Path, argv: list[str], games: int, seed: int) -> None:
    assert main(["sim", *argv, "--games", str(games), "--seed", str(seed), "--db", str(db),
                 "--quiet"]) == 0


async def campaign_game(db: Path, campaign: str, number: int, seed: int) -> None:
    """Game `number` of `campaign`, played on a table as the campaign runner plays it."""
    server = Server(str(db), durability="game", instance="camp",
                    bot_policy=BotPolicy.command_line())
    server.store = await Store.open(db, "camp")
    try:
        table = server.create_table("colonel-blotto", "small", {}, ["random", "random"], seed,
                                    campaign=(campaign, f"{campaign}/{number}"))
        await table.start()
        await table.done.wait()
    finally:
        await server.stop()


async def void_campaign_game(store: Store, campaign: str, number: int) -> None:
    game_id = await store.create_game(
        table_id=f"void-{campaign}-{number}", env="colonel-blotto", rules_version="1",
        preset="small", config={}, seed=number, campaign=(campaign, f"{campaign}/{number}"),
        seats=[{"identity": "random", "name": "random", "kind": "bot"}] * 2)
    await store.finish_game(game_id, record=GameRecord("colonel-blotto", "1", {}, number, 2, [],
                                                       [], None, "a provider failed"),
                            statuses={0: "done", 1: "done"}, metrics={})


async def person_game(store: Store, name: str, *, finish: bool = True) -> int:
    """A game of the person `name` (claimed, with a token) against the random bot."""
    await store.claim_name(name, None, f"token-{name}")
    seats = [{"identity": f"human:{name}", "name": name, "kind": "human"},
             {"identity": "random", "name": "random", "kind": "bot"}]
    game_id = await store.create_game(table_id=f"t-{name}", env="colonel-blotto",
                                      rules_version="1", preset=None, config={}, seed=5,
                                      seats=seats)
    if finish:
        result = Result({0: 1.0, 1: -1.0}, (0,), "test")
        await store.finish_game(game_id, record=GameRecord("colonel-blotto", "1", {}, 5, 2, [],
                                                           [], result),
                                statuses={0: "done", 1: "done"}, metrics={"game": {"x": 1}},
                                identities=[f"human:{name}", "random"])
    return game_id


async def extras(db: Path, *, person: str, answered_at: float) -> None:
    """What a server adds beside bot games: a person's game and consent, an interrupted game,
    a bot failure and a debrief (with transcripts), a SocialMaze instance."""
    store = await Store.open(db)
    try:
        await person_game(store, person)
        gone = await person_game(store, f"{person}-gone", finish=False)  # the server died
        await store.record_action(gone, 0, ActionRecord(0, 0, "[A4 B4 C4]", "ok"), [],
                                  transcript=[{"role": "system", "content": LONG + "gone"}])
        llm_game = (await store.fetch("SELECT min(id) FROM games WHERE id IN (SELECT game_id "
                                      "FROM actions WHERE transcript IS NOT NULL)"))[0][0]
        if llm_game is not None:
            transcript = [{"role": "system", "content": LONG + person},
                          {"role": "user", "content": "Your move?"}]
            await store.record_bot_failure(llm_game, 0, 1, "timeout", "default", transcript)
            await store.record_debrief(llm_game, 0, transcript, {"input_tokens": 3})

        def more(c: sqlite3.Connection) -> None:
            study.record(c, f"human:{person}", CONSENT, True, {"age": 30})
            c.execute("UPDATE consents SET answered_at = ?", (answered_at,))
            c.execute("INSERT INTO maze_instances (env, source, id, content_hash, record, "
                      "imported) VALUES ('hidden-role', 'file', ?, 'h', '{}', 0)", (person,))
        await store.write(more)
    finally:
        await store.close()


def llm_sim(db: Path, seed: int) -> None:
    with FakeOpenAI(responder=example_responder) as fake:
        spec = f"openai-compatible:m@{fake.base_url}?{FAST}"
        sim(db, ["colonel-blotto", "--seat", spec, "--seat", "random", "--preset", "small"], 1,
            seed)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, Path]:
    """Two databases of games played apart (some alike: the same seeds on other machines)."""
    folder = tmp_path_factory.mktemp("played")
    a, b = folder / "a.db", folder / "b.db"
    sim(a, BLOTTO, 3, 1)
    sim(a, GRID, 1, 1)
    llm_sim(a, 1)
    asyncio.run(extras(a, person="Ada", answered_at=100.0))
    sim(b, BLOTTO, 2, 1)
    llm_sim(b, 2)
    asyncio.run(extras(b, person="ada", answered_at=200.0))  # another person, Ada's look
    return a, b


@pytest.fixture
def sources(played, tmp_path) -> tuple[Path, Path]:
    """A test's own copies of the two databases (closed stores: each one file)."""
    return Path(shutil.copy(played[0], tmp_path)), Path(shutil.copy(played[1], tmp_path))


async def snapshot(db: Path) -> dict[tuple[Any, ...], dict[str, Any]]:
    """Every game of a database by (instance, table, start, seed), as the store reads it back:
    its row, seats, record, transcripts, bot failures and debriefs, and its players."""
    store = await Store.open(db)
    try:
        games = {}
        for row in await store.fetch("SELECT id, instance, table_id, started, seed FROM games"):
            game_id = row["id"]
            game = await store.game(game_id)
            record = await store.load_record(game_id)
            game.pop("id")
            failures = [{k: v for k, v in f.items() if k != "game_id"}
                        for f in await store.bot_failures(game_id)]
            games[tuple(row)[1:]] = {
                "game": game, "record": json.loads(json.dumps(record.to_json())),
                "transcripts": await store.transcripts(game_id), "failures": failures,
                "debriefs": await store.debriefs(game_id),
                "players": [tuple(p) for p in await store.fetch(
                    "SELECT p.name, p.kind, p.identity FROM seats s JOIN players p ON "
                    "p.id = s.player_id WHERE s.game_id = ? ORDER BY s.seat", (game_id,))]}
        return games
    finally:
        await store.close()


def count(db: Path, sql: str, *params: Any) -> Any:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchone()[0]


def merge(*argv: Path) -> int:
    return main(["merge", *map(str, argv)])


def test_every_game_is_copied_whole_once_and_ratings_are_a_rebuilds(sources, tmp_path, capsys):
    a, b = sources
    dest = tmp_path / "merged.db"
    assert merge(dest, a, b) == 0
    out = capsys.readouterr().out
    assert f"{a}: 6 games copied, 0 duplicates skipped, 1 unfinished skipped" in out
    assert f"{b}: 4 games copied, 0 duplicates skipped, 1 unfinished skipped" in out
    assert "ratings rebuilt: colonel-blotto:" in out and "ratings rebuilt: socialgrid:" in out

    merged = asyncio.run(snapshot(dest))
    played = {**asyncio.run(snapshot(a)), **asyncio.run(snapshot(b))}
    finished = {k: g for k, g in played.items() if g["game"]["status"] != "running"}
    assert len(merged) == len(finished) == 10
    for key, game in finished.items():
        assert merged[key] == game, key
    assert any(g["transcripts"] for g in merged.values())  # LLM prompts, through `texts`
    assert any(g["failures"] and g["debriefs"] for g in merged.values())
    assert all(g["game"]["status"] != "running" for g in merged.values())
    # Texts: only those the copied games point at (the interrupted games' not), once each.
    with sqlite3.connect(dest) as conn:
        refs = set().union(*(text_refs(json.loads(t)) for (t,) in conn.execute(
            "SELECT transcript FROM actions UNION ALL SELECT transcript FROM bot_failures "
            "UNION ALL SELECT transcript FROM debriefs") if t))
        assert {h for (h,) in conn.execute("SELECT hash FROM texts")} == refs
    gone = "SELECT count(*) FROM texts WHERE text LIKE '%gone'"
    assert count(a, gone) == 1 and count(dest, gone) == 0
    with sqlite3.connect(dest) as conn:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    # Ada (claimed in a) keeps her name's look and token; a's "ada" is another person whose
    # name looks the same: copied without them, so neither can say hello as the other.
    with sqlite3.connect(dest) as conn:
        people = dict(conn.execute("SELECT identity, skeleton IS NOT NULL AND token_hash IS NOT "
                                   "NULL FROM players WHERE kind = 'human'").fetchall())
    assert people == {"human:Ada": 1, "human:ada": 0}
    assert count(dest, "SELECT count(*) FROM players WHERE identity = 'random'") == 1

    # The destination's own settings stay: its pseudonym key is not a source's.
    key = "SELECT value FROM settings WHERE key = 'pseudonym_key'"
    assert count(dest, key) not in (count(a, key), count(b, key))
    assert count(dest, "SELECT count(*) FROM maze_instances") == 2

    ratings = stored_ratings(dest)
    assert ratings[0] and ratings[1]
    assert main(["ratings", "rebuild", "--db", str(dest)]) == 0
    assert stored_ratings(dest) == ratings

    # Merging again, or merging the merged file back into a source, adds nothing new.
    capsys.readouterr()
    assert merge(dest, a, b) == 0
    out = capsys.readouterr().out
    assert f"{a}: 0 games copied, 6 duplicates skipped, 1 unfinished skipped" in out
    assert "ratings rebuilt" not in out and asyncio.run(snapshot(dest)) == merged
    assert merge(a, dest) == 0
    assert f"{dest}: 4 games copied, 6 duplicates skipped, 0 unfinished skipped" in \
        capsys.readouterr().out
    assert merge(dest, a) == 0
    assert f"{a}: 0 games copied, 10 duplicates skipped, 1 unfinished skipped" in \
        capsys.readouterr().out
    assert count(dest, "SELECT count(*) FROM games") == 10


def test_a_persons_answers_keep_their_order_and_are_copied_once(sources, tmp_path):
    a, b = sources
    dest = tmp_path / "merged.db"
    asyncio.run(extras(dest, person="bo", answered_at=150.0))  # bo's, between a's and b's
    with sqlite3.connect(dest) as conn:
        conn.execute("UPDATE consents SET identity = 'human:Ada'")  # Ada answered here too
    assert merge(dest, b, a) == 0
    assert merge(dest, a, b) == 0
    with sqlite3.connect(dest) as conn:
        answers = conn.execute("SELECT identity, answered_at FROM consents ORDER BY identity, "
                               "id")  # a person's latest answer (by id) is their last
        assert [tuple(r) for r in answers] == [("human:Ada", 100.0), ("human:Ada", 150.0),
                                               ("human:ada", 200.0)]
        assert study.status(conn, "human:Ada", CONSENT) == study.AGREED


async def test_a_campaigns_game_is_one_game_whatever_merged_it(tmp_path):
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    for number in (0, 2, 3):  # a played 0, 2 and 3 of campaign c; 1 ended void
        await campaign_game(a, "c", number, 10 + number)
    await campaign_game(b, "c", 0, 10)  # b played 0 and 1; 2 and 3 ended void
    await campaign_game(b, "c", 1, 11)
    await campaign_game(b, "other", 0, 10)  # another campaign's game 0
    for db, void in ((a, (1, 4)), (b, (2, 3, 4))):  # 4 ended void in both
        store = await Store.open(db)
        for number in void:
            await void_campaign_game(store, "c", number)
        await store.close()

    conns = [sqlite3.connect(a), sqlite3.connect(b)]
    try:
        # b into a: b's 0 is a's (a has it finished), 1 is added beside the void game a had,
        # 2 and 3 are void where a has them finished, 4 void where a has it void; "other" is
        # new.
        counts = copy_games(conns[1], conns[0])
        assert (counts.copied, counts.duplicates, counts.unfinished) == (2, 4, 0)
        rows = conns[0].execute("SELECT campaign, game_key, status FROM games WHERE game_key "
                                "IS NOT NULL ORDER BY game_key, status").fetchall()
        assert rows == [("c", "c/0", "finished"), ("c", "c/1", "finished"),
                        ("c", "c/1", "void"), ("c", "c/2", "finished"), ("c", "c/3", "finished"),
                        ("c", "c/4", "void"), ("other", "other/0", "finished")]
        # Back: b has 0 and 1, and void 2 and 3, so a's finished 2 and 3 are added.
        counts = copy_games(conns[0], conns[1])
        assert (counts.copied, counts.duplicates) == (2, 5)
        for src, dst in ((conns[1], conns[0]), (conns[0], conns[1])):
            assert copy_games(src, dst).copied == 0
        assert not conns[0].in_transaction and not conns[1].in_transaction
    finally:
        for conn in conns:
            conn.close()


async def test_a_serialized_database_merges_inside_a_store_write(sources, tmp_path):
    """As the campaign runner's Ray backend does: a worker's database shipped as bytes, merged
    by a job of the driver's store (here beside another job in the same commit)."""
    a, _ = sources
    with sqlite3.connect(a) as conn:
        image = conn.serialize()  # a file in WAL mode, as every store's
    dest = tmp_path / "driver.db"
    store = await Store.open(dest)
    src = deserialized(image)
    try:
        counts, other = await asyncio.gather(
            store.write(partial(copy_games, src)),
            store.write(lambda c: c.execute("SELECT count(*) FROM games").fetchone()[0]))
        assert isinstance(counts, MergeCounts) and (counts.copied, counts.unfinished) == (6, 1)
        assert store.commits == 1 and other == 6  # one transaction, committed by the store
        assert (await store.write(partial(copy_games, src))).duplicates == 6
    finally:
        src.close()
        await store.close()
    merged = await snapshot(dest)
    assert all(merged[k] == g for k, g in (await snapshot(a)).items() if k in merged)


async def test_a_merge_that_fails_midway_leaves_the_destination_as_it_was(sources, tmp_path):
    a, b = sources
    dest = tmp_path / "dest.db"
    assert await asyncio.to_thread(merge, dest, b) == 0
    before = await snapshot(dest)
    with sqlite3.connect(a) as conn:
        broken = deserialized(conn.serialize())
    broken.execute("DROP TABLE debriefs")  # read after the first game's other rows
    store = await Store.open(dest)
    try:
        with pytest.raises(sqlite3.OperationalError, match="debriefs"):
            await store.write(partial(copy_games, broken))
    finally:
        await store.close()
    plain = sqlite3.connect(dest)  # and through a plain connection, outside any transaction
    try:
        with pytest.raises(sqlite3.OperationalError, match="debriefs"):
            copy_games(broken, plain)
        assert not plain.in_transaction
    finally:
        plain.close()
        broken.close()
    assert await snapshot(dest) == before
