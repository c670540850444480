"""Where `parlor` and `parlor serve` keep their database: one place whatever the working
directory ($PARLOR_HOME, else XDG's data home, else ~/.local/share/parlor), --db overrides,
and the path is said on stderr."""

from __future__ import annotations

from pathlib import Path

import server.net.serve
import tui.launch
from server.cli import main
from server.store.location import default_db


def test_the_default_database_does_not_depend_on_the_working_directory(tmp_path):
    home = Path.home()
    assert default_db({"PARLOR_HOME": "/srv/p", "XDG_DATA_HOME": "/x"}) == \
        Path("/srv/p/parlor.db")
    assert default_db({"XDG_DATA_HOME": "/x/data"}) == Path("/x/data/parlor/parlor.db")
    assert default_db({"XDG_DATA_HOME": "relative"}) == \
        home / ".local/share/parlor/parlor.db"  # XDG: a relative path is ignored
    assert default_db({}) == home / ".local/share/parlor/parlor.db"


def test_serve_and_local_play_use_it_and_say_so(tmp_path, monkeypatch, capsys):
    used: list[str] = []
    monkeypatch.setattr(server.net.serve, "run_serve", lambda args: used.append(args.db) or 0)
    monkeypatch.setattr(tui.launch, "run_local", lambda db, name, **options: used.append(db) or 0)
    monkeypatch.setenv("PARLOR_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    expected = str(tmp_path / "home" / "parlor.db")
    assert main(["serve", "--port", "0"]) == 0
    assert main([]) == 0
    assert used == [expected, expected]
    assert capsys.readouterr().err.splitlines() == [f"Parlor database: {expected}"] * 2
    assert main(["serve", "--db", "mine.db"]) == 0
    assert main(["--db", "mine.db"]) == 0
    assert used[2:] == [str(tmp_path / "mine.db")] * 2
    assert f"Parlor database: {tmp_path / 'mine.db'}" in capsys.readouterr().err
