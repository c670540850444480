"""`parlor maze report`: every finished SocialMaze game of a database, people's and bots'
alike, one row per player per task and setting, with the Wilson interval, the baseline of the
instances played and the paper's numbers; read-only, and bad input in one line."""

from __future__ import annotations

import asyncio
import json
import sqlite3

from server.cli import main
from server.store.pseudonyms import Pseudonyms
from tests.dataset_task.test_game import PAPER
from tests.server.conftest import Client


async def _plays(person: Client, answers: list[str]) -> None:
    created = await person.request("create_table", env="review-decision", seats=["human"],
                                   join_seat=0, config={"instance": json.dumps(PAPER)})
    table_id = created["table"]["id"]
    for answer in answers:
        turn = await person.wait_for("your_turn", table_id=table_id)
        await person.send("act", table_id=table_id, turn=turn["turn"], action=answer)
    await person.wait_for("game_over", table_id=table_id)


async def test_people_and_models_side_by_side(tmp_path, capsys, make_server):
    srv = await make_server()
    alice, bob = await Client.connect(srv.url, "alice"), await Client.connect(srv.url, "bob")
    await _plays(alice, ["Final Decision: Accept"] * 2 + ["Final Decision: Reject"])
    await _plays(alice, ["Final Decision: Reject"] * 3)
    await _plays(bob, ["Final Decision: Accept"] * 3)
    await alice.close()
    await bob.close()
    await srv.stop()
    db = str(tmp_path / "parlor.db")
    league = ["league", "maze", "--task", "review-decision", "find-the-spy", "--seat",
              "review-decision:scripted:majority", "find-the-spy:scripted:describer",
              "--instances", "4", "--db", db, "--quiet"]
    assert await asyncio.to_thread(main, league) == 0
    sim = ["sim", "find-the-spy", *["--seat", "scripted:describer"] * 4, "--games", "3",
           "--db", db, "--quiet"]
    assert await asyncio.to_thread(main, sim) == 0
    capsys.readouterr()
    out = tmp_path / "report.json"
    # people by pseudonym unless names are asked for
    assert await asyncio.to_thread(main, ["maze", "report", "--db", db]) == 0
    printed = capsys.readouterr().out
    with sqlite3.connect(db) as conn:
        alice = Pseudonyms(conn).label("human:alice", "human")
    assert f"{alice} (person)" in printed and "alice" not in printed
    assert await asyncio.to_thread(main, ["maze", "report", "--db", db, "--names", "--json",
                                          str(out)]) == 0
    printed = capsys.readouterr().out
    report = json.loads(out.read_text())
    imported = report["review-decision"]["paper · imported instances"]["models"]
    assert list(imported) == ["alice (person)", "bob (person)"]  # people first, by games
    assert imported["alice (person)"]["games"] == 2
    assert imported["alice (person)"]["accuracy"] == 1.0  # both last answers Reject: right
    assert imported["alice (person)"]["right_stage1"] == 0.5
    assert imported["bob (person)"]["accuracy"] == 0.0
    assert imported["alice (person)"]["majority_baseline"] == 1.0  # one instance, Reject
    synthetic = report["review-decision"]["paper"]["models"]
    assert synthetic["scripted:majority"]["games"] == 4
    spy = report["find-the-spy"]
    assert spy["passive"]["models"]["scripted:describer"]["games"] == 4
    # four describer seats a game: the interval is over its 12 answers, not 3 games
    tables = spy["paper"]["models"]["scripted:describer"]
    assert tables["games"] == 3 and tables["accuracy_95"] is not None
    assert "alice (person)" in printed and "Human (avg.) 96.0%" in printed
    assert printed.count("baseline on these instances") >= 3  # under every row


def test_bad_input_exits_2_with_one_line(tmp_path, capsys):
    assert main(["maze", "report", "--db", str(tmp_path / "none.db")]) == 2
    assert "no database at" in capsys.readouterr().err
    (tmp_path / "x.db").write_text("not sqlite")
    assert main(["maze", "report", "--db", str(tmp_path / "x.db")]) == 2
    assert "not a Parlor database" in capsys.readouterr().err
    assert main(["maze", "report", "--task", "chess", "--db", str(tmp_path / "x.db")]) == 2
    assert "unknown task 'chess'" in capsys.readouterr().err


def test_an_empty_database_says_so(tmp_path, capsys):
    db = tmp_path / "empty.db"
    # a command that opens the database makes it (at the current schema) before it fails
    assert main(["maze", "import", "--db", str(db), str(tmp_path / "missing.json")]) == 2
    capsys.readouterr()
    assert main(["maze", "report", "--db", str(db)]) == 0
    assert "No finished SocialMaze games" in capsys.readouterr().out
