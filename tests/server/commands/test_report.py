"""`parlor report ENV` on the command line: every format, a config chosen by a prefix of its
hash, and bad input in one line with exit 2 (the numbers: tests/server/reports/
test_comparison.py)."""

from __future__ import annotations

import asyncio
import sqlite3

from server.cli import main
from server.commands import report
from server.reports import comparison, tables
from server.reports.comparison import config_hash
from server.store.pseudonyms import Pseudonyms
from server.store.store import Store
from tests.server.reports.stored_games import bot, person, store_game

MODEL = "fixture:model"


async def test_formats_and_bad_input(tmp_path, capsys):
    db = tmp_path / "f.db"
    store = await Store.open(db)
    for seed in range(3):
        await store_game(store, "three-player-ipd", "paper", seed,
                         [person("alice"), bot("random"), bot(MODEL)])
    await store.close()
    for fmt, sign in (("table", "Won (rate)"), ("md", "| who |"), ("csv", "metric,role,who")):
        assert await asyncio.to_thread(main, ["report", "three-player-ipd", "--db", str(db),
                                              "--format", fmt]) == 0
        assert sign in capsys.readouterr().out
    conn = sqlite3.connect(db)
    stored = conn.execute("SELECT config FROM games").fetchone()[0]
    alice = Pseudonyms(conn).label("human:alice", "human")
    in_study = Pseudonyms(conn, "pilot").label("human:alice", "human")
    conn.close()
    # people under the database's pseudonyms, or a study's (as its consents and exports)
    for argv, shown, hidden in (([], alice, in_study), (["--study", "pilot"], in_study, alice)):
        assert await asyncio.to_thread(main, ["report", "three-player-ipd", "--db", str(db),
                                              *argv]) == 0
        out = capsys.readouterr().out
        assert shown in out and hidden not in out and "alice" not in out
    assert await asyncio.to_thread(main, ["ratings", "fit", "three-player-ipd", "--db",
                                          str(db), "--study", "pilot", "--resamples", "0"]) == 0
    assert in_study in capsys.readouterr().out
    assert main(["report", "three-player-ipd", "--db", str(db), "--config-hash",
                 config_hash(stored)[:6]]) == 0
    capsys.readouterr()
    for argv, says in ((["chess"], "unknown environment 'chess'"),
                       (["three-player-ipd", "--preset", "long"], "no stored games"),
                       (["three-player-ipd", "--since", "soon"], "--since must be a date"),
                       (["three-player-ipd", "--db", str(tmp_path / "none.db")],
                        "no database at")):
        argv = [*argv, "--db", str(db)] if "--db" not in argv else argv
        assert main(["report", *argv]) == 2
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err
    assert main(["report", "three-player-ipd", "--db", str(db), "--since", "2999-01-01"]) == 0
    assert "no finished games" in capsys.readouterr().out


def test_the_parsers_choices_are_the_reports():
    assert (report.FORMATS, report.POOLS, report.BY) == \
        (tables.FORMATS, comparison.POOLS, comparison.BY)
