"""`parlor merge` from the command line: an older source read through a migrated copy, and a
bad source or destination refused in one line with nothing changed (what a merge copies:
tests/server/store/test_merge.py)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from server.store.merge import SourceRefused, open_source
from server.store.migrations import MIGRATIONS
from tests.server.store.test_merge import BLOTTO, merge, sim, snapshot
from tests.server.store.test_store_group_commit import play, write_v4_database


@pytest.fixture
def sources(tmp_path) -> tuple[Path, Path]:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    sim(a, BLOTTO, 2, 1)
    sim(b, BLOTTO, 1, 5)
    return a, b


def test_an_older_source_is_read_through_a_migrated_copy_and_left_as_it_was(tmp_path,
                                                                             capsys):
    old = tmp_path / "v4.db"
    games = [play("colonel-blotto", 2, 1), play("three-player-ipd", 3, 2)]
    write_v4_database(old, games)
    image = old.read_bytes()
    dest = tmp_path / "dest.db"
    assert merge(dest, old) == 0
    assert f"{old}: 2 games copied" in capsys.readouterr().out
    assert old.read_bytes() == image  # read only: still v4
    records = asyncio.run(snapshot(dest))
    assert sorted(json.dumps(g["record"], sort_keys=True) for g in records.values()) == \
        sorted(json.dumps(json.loads(json.dumps(g.record().to_json())), sort_keys=True)
               for g in games)


@pytest.mark.parametrize("source", ["missing", "folder", "text", "sqlite", "newer"])
def test_a_bad_source_is_refused_in_one_line_and_nothing_changes(sources, tmp_path, capsys,
                                                                source):
    a, b = sources
    bad = tmp_path / "bad.db"
    if source == "folder":
        bad.mkdir()
    elif source == "text":
        bad.write_text("not a database\n")
    elif source in ("sqlite", "newer"):
        with sqlite3.connect(bad) as conn:
            conn.execute("CREATE TABLE t (x)")
            if source == "newer":
                conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                conn.execute("INSERT INTO schema_version VALUES (?)", (len(MIGRATIONS) + 1,))
    image = b.read_bytes()
    assert merge(b, a, bad) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"parlor merge: cannot merge {bad}: ") and "\n" not in err
    assert {"missing": "no such file", "folder": "folder", "text": "not a Parlor database",
            "sqlite": "not a Parlor database", "newer": "newer than this Parlor"}[source] in err
    assert b.read_bytes() == image
    fresh = tmp_path / "fresh.db"
    assert merge(fresh, bad) == 2 and not fresh.exists()  # never made for nothing


def test_the_destination_cannot_be_a_source(sources, capsys):
    a, _ = sources
    assert merge(a, a) == 2
    assert "is the destination" in capsys.readouterr().err
    with pytest.raises(SourceRefused, match="no such file"):
        open_source(a.parent / "none.db")
