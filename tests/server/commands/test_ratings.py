"""`parlor ratings fit` from the command line: its formats, its errors (the fitted numbers
themselves: tests/server/reports/test_fitted_ratings.py, over the same games)."""

from __future__ import annotations

import json

import pytest

from server.cli import main
from tests.server.reports.test_fitted_ratings import BOT, ENV, RANDOM, blotto_games


@pytest.fixture
async def db(tmp_path):
    return await blotto_games(tmp_path / "parlor.db")


def test_the_command_prints_the_table_csv_and_json(db, capsys):
    assert main(["ratings", "fit", ENV, "--pool", "bots", "--db", str(db), "--resamples",
                 "50", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pool"] == "bots" and data["games"] == 6 and data["resamples"] == 50
    assert [r["player"] for r in data["rows"]] == [BOT, RANDOM]
    assert main(["ratings", "fit", ENV, "--db", str(db), "--resamples", "20"]) == 0
    table = capsys.readouterr().out
    assert "pool all: 13 games fitted (left out: 1 the host's one-address rule, 2 void)" \
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


def test_the_command_offers_the_reports_pools_and_formats():
    from server.commands import ratings as command
    from server.reports import comparison, tables

    assert (command.POOLS, command.FORMATS) == (comparison.POOLS, tables.FORMATS)
