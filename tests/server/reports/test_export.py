"""`parlor export --format mindgames`: the MindGames dataset (one row per player trajectory) from
databases made the way users make them: `parlor sim` runs and a people's game on a server."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bots.base import Bot, BotError
from bots.registry import SCRIPTED, register_scripted
from server.cli import main
from server.reports import export_mindgames
from server.store.pseudonyms import Pseudonyms
from tests.server.conftest import Client

SIMS = [
    ["colonel-blotto", "--seat", "scripted:adaptive", "--seat", "scripted:uniform",
     "--games", "3", "--preset", "small"],
    ["three-player-ipd", "--seat", "scripted:tit-for-tat", "--seat", "scripted:grim",
     "--seat", "random", "--games", "2"],
    ["codenames", *["--seat", "scripted:agent"] * 4, "--games", "2"],
    ["secret-mafia", *["--seat", "scripted:agent"] * 6, "--games", "2", "--seed", "5"],
]


@pytest.fixture(scope="module")
def sim_db(tmp_path_factory) -> Path:
    """Bots' games of the four MindGames envs, stored by `parlor sim`."""
    db = tmp_path_factory.mktemp("export") / "sims.db"
    for args in SIMS:
        assert main(["sim", *args, "--db", str(db), "--quiet"]) == 0
    return db


def export(db: Path, out: Path, *more: str) -> list[dict]:
    assert main(["export", "--format", "mindgames", "--db", str(db), "--out", str(out),
                 *more]) == 0
    return [json.loads(line) for line in out.read_text("utf-8").splitlines()]


def check_against_store(db: Path, rows: list[dict]) -> None:
    """Every row's fields are the stored game's; one row per seat of every finished game."""
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        finished = conn.execute("SELECT * FROM games WHERE status = 'finished'").fetchall()
        people = Pseudonyms(conn)
        seats = {(s["game_id"], s["seat"]): {**dict(s), "identity": people.label(
            s["identity"], s["kind"])} for s in conn.execute("SELECT * FROM seats")}
        actions = conn.execute("SELECT * FROM actions ORDER BY game_id, idx").fetchall()
    expected = sum(1 for (game_id, _) in seats if game_id in {g["id"] for g in finished})
    assert len(rows) == expected
    assert len({r["player_game_id"] for r in rows}) == len(rows)
    games = {g["id"]: g for g in finished}
    for r in rows:
        g, me = games[r["game_id"]], r["player_id"]
        mine = [a for a in actions if a["game_id"] == g["id"] and a["seat"] == me]
        others = sorted(s for (game_id, s) in seats if game_id == g["id"] and s != me)
        assert r["player_game_id"] == f"{g['id']}-{me}"
        assert r["env_name"] == g["env"] and r["reason"] == g["reason"]
        assert r["model_name"] == seats[g["id"], me]["identity"]
        assert r["status"] == seats[g["id"], me]["status"]
        assert r["opponent_names"] == {str(s): seats[g["id"], s]["identity"] for s in others}
        assert r["rewards"] == {str(s): seats[g["id"], s]["reward"]
                                for s in sorted([me, *others])}
        assert r["rewards"] == json.loads(g["result"])["rewards"]
        assert r["num_turns"] == len(mine) == len(r["observations"])
        for i, (turn, a) in enumerate(zip(r["observations"], mine, strict=True)):
            raw = json.loads(a["raw"]) if a["structured"] else a["raw"]
            assert turn["turn"] == i and turn["step"] == a["step"]
            assert turn["outcome"] == a["outcome"] and turn["error"] == a["error"]
            assert turn["observation"].strip()
            if a["outcome"] in ("defaulted", "resigned"):
                assert turn["action"] is None
            else:
                assert turn["action"] == raw


def test_every_finished_game_becomes_one_row_per_seat(sim_db, tmp_path, capsys):
    rows = export(sim_db, tmp_path / "mg.jsonl")
    check_against_store(sim_db, rows)
    assert {r["env_name"] for r in rows} == set(export_mindgames.ENVS)
    assert len(rows) == 3 * 2 + 2 * 3 + 2 * 4 + 2 * 6
    blotto = next(r for r in rows if r["env_name"] == "colonel-blotto")
    assert blotto["model_name"] == "scripted:adaptive" and blotto["role"] == "Commander Alpha"
    assert blotto["opponent_names"] == {"1": "scripted:uniform"}
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "wrote 32 rows (9 games)" in err[0] and "skipped 0 games" in err[0]


def test_env_filter_and_stdout(sim_db, capsys):
    assert main(["export", "--format", "mindgames", "--db", str(sim_db), "--env",
                 "three-player-ipd", "--env", "colonel-blotto"]) == 0
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["env_name"] for r in rows] == ["colonel-blotto"] * 6 + ["three-player-ipd"] * 6
    assert "to stdout" in err


def test_games_are_read_page_by_page(sim_db, tmp_path, monkeypatch):
    whole = (tmp_path / "whole.jsonl")
    export(sim_db, whole)
    monkeypatch.setattr(export_mindgames, "PAGE", 2)
    paged = tmp_path / "paged.jsonl"
    export(sim_db, paged)
    assert paged.read_bytes() == whole.read_bytes()


def _board_lines(observation: str) -> list[str]:
    board = observation.split("Board (25 words", 1)[1].split("\n\n", 1)[0]
    return board.splitlines()[1:]


def test_a_codenames_operative_never_sees_the_key(sim_db, tmp_path):
    rows = [r for r in export(sim_db, tmp_path / "cn.jsonl", "--env", "codenames")]
    with sqlite3.connect(sim_db) as conn:
        setups = {i: json.loads(s) for i, s in conn.execute(
            "SELECT id, setup FROM games WHERE env = 'codenames'")}
    seen_key = False
    for r in rows:
        words = [w for ws in setups[r["game_id"]]["key"].values() for w in ws]
        for turn in r["observations"]:
            lines = _board_lines(turn["observation"])
            assert sorted(line.split()[0] for line in lines) == sorted(words)
            hidden = [line for line in lines if "(revealed)" not in line]
            if r["role"] == "operative":
                assert all(line.strip() in words for line in hidden), hidden
            else:  # the spymaster's own key: proof that the check above can fail
                seen_key |= any(line.strip() not in words for line in hidden)
    assert seen_key and any(r["role"] == "operative" and r["num_turns"] for r in rows)


def test_a_mafia_villager_never_sees_anyone_elses_role(sim_db, tmp_path):
    rows = export(sim_db, tmp_path / "sm.jsonl", "--env", "secret-mafia")
    private = ("Your own knowledge:", "Your fellow Mafia", "Tonight Player")
    villagers = [r for r in rows if r["role"] == "Villager"]
    assert villagers and any(r["num_turns"] for r in villagers)
    for r in villagers:
        for turn in r["observations"]:
            assert not [p for p in private if p in turn["observation"]]
    mafia = [t["observation"] for r in rows if r["role"] == "Mafia" for t in r["observations"]]
    assert mafia and all("Your fellow Mafia" in text for text in mafia)


class BrokenBot(Bot):
    async def decide(self, view, legal, memory):
        raise BotError("provider answered 503 five times")


@pytest.fixture
def broken_bot():
    register_scripted("colonel-blotto", "export-broken", "always fails")(
        lambda seed: BrokenBot())
    yield "scripted:export-broken"
    SCRIPTED["colonel-blotto"].pop("export-broken")


async def _play(ada: Client, bad: str) -> dict:
    """Ada's game: her first answer is `bad`, the next ones valid; returns game_over."""
    first = True
    while True:
        msg = await ada.recv()
        if msg["type"] == "your_turn":
            await ada.send("act", table_id=msg["table_id"], turn=msg["turn"],
                           action=bad if first else "[A10 B10]")
            first = False
        elif msg["type"] == "game_over":
            return msg


async def test_a_peoples_game_with_invalid_and_defaulted_moves(server, broken_bot, tmp_path,
                                                              capsys):
    """A person's invalid string is kept as typed; the turns the server played for a failed
    bot have no action; a void game and a game still running are skipped."""
    ada = await Client.connect(server.url, "ada")
    await ada.request("create_table", env="colonel-blotto", preset="small",
                      seats=["human", broken_bot], join_seat=0, on_bot_failure="default")
    over = await _play(ada, "all in on A!")
    assert not over["result"]["void"]
    await ada.request("create_table", env="colonel-blotto", seats=["human", broken_bot],
                      join_seat=0)  # the bot's failure voids this one
    assert (await ada.wait_for("game_over"))["result"]["void"]
    await server.store.create_game(  # a game under way: its row and seats, no end
        table_id="t-running", env="colonel-blotto", rules_version="x", preset=None,
        config={}, seed=1, seats=[{"identity": "human:ada", "name": "ada", "kind": "human"},
                                  {"identity": "random", "name": "random", "kind": "bot"}])
    await ada.close()

    db = Path(server.db_path)
    rows = export(db, tmp_path / "people.jsonl")  # beside the running server
    check_against_store(db, rows)
    assert "skipped 2 games (1 unfinished, 1 void)" in capsys.readouterr().err
    ada_row, bot_row = rows
    # a person by pseudonym unless names are asked for; a bot by its identity
    with sqlite3.connect(db) as conn:
        ada = Pseudonyms(conn).label("human:ada", "human")
    assert ada_row["model_name"] == ada and bot_row["model_name"] == broken_bot
    assert "human:ada" not in (tmp_path / "people.jsonl").read_text()
    named = export(db, tmp_path / "named.jsonl", "--names")
    assert [r["model_name"] for r in named] == ["human:ada", broken_bot]
    assert ada_row["opponent_names"] == {"1": broken_bot}
    bad = ada_row["observations"][0]
    assert bad["action"] == "all in on A!" and bad["outcome"] == "invalid"
    assert bad["error"] and bad["category"] and not bad["fatal"]
    retry = ada_row["observations"][1]
    assert retry["action"] == "[A10 B10]" and retry["outcome"] == "ok"
    assert bad["error"] in retry["observation"] or "invalid" in retry["observation"].lower()
    assert bot_row["num_turns"] >= 3
    for turn in bot_row["observations"]:
        assert turn["action"] is None and turn["outcome"] == "defaulted"
        assert turn["error"].startswith("provider_error") and turn["default_move"]


@pytest.mark.parametrize("args,needle", [
    (["--env", "chess"], "unknown environment 'chess'; valid environments for --format "
                         "mindgames: codenames, colonel-blotto"),
    (["--env", "socialgrid"], "socialgrid is not a mindgames environment; valid environments"),
    (["--out", "{exists}"], "exists; choose another file or add --force"),
    (["--out", "{db}", "--force"], "is the database itself"),
    (["--out", "{tmp}/nowhere/x.jsonl"], "no folder"),
])
def test_bad_input_exits_2_with_one_line(sim_db, tmp_path, capsys, args, needle):
    exists = tmp_path / "taken.jsonl"
    exists.write_text("keep me\n")
    args = [a.format(exists=exists, db=sim_db, tmp=tmp_path) for a in args]
    assert main(["export", "--format", "mindgames", "--db", str(sim_db), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0], err
    assert exists.read_text() == "keep me\n"


def test_force_overwrites(sim_db, tmp_path):
    out = tmp_path / "again.jsonl"
    out.write_text("old\n")
    rows = export(sim_db, out, "--force", "--env", "colonel-blotto")
    assert len(rows) == 6 and not (tmp_path / "again.jsonl.part").exists()


def test_a_missing_database_is_never_created(tmp_path, capsys):
    for args in (["--db", str(tmp_path / "none.db")], []):  # [] = the default database
        assert main(["export", "--format", "mindgames", *args]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "no database at" in err[0]
    assert not (tmp_path / "none.db").exists()
    assert not any((tmp_path / "parlor-home").glob("*.db"))  # $PARLOR_HOME (tests/conftest)


def test_a_file_that_is_not_a_parlor_database(tmp_path, capsys):
    junk = tmp_path / "notes.db"
    junk.write_text("not sqlite at all " * 100)
    assert main(["export", "--format", "mindgames", "--db", str(junk)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not a Parlor database" in err[0]


def test_an_unknown_format_is_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["export", "--format", "csv"])
    assert exit_.value.code == 2
    assert "invalid choice: 'csv' (choose from 'mindgames', 'socialmaze', 'games', " \
           "'actions')" in \
        capsys.readouterr().err
