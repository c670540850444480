"""A replay file written back into a database of its own (server/replays/scratch.py, what
`parlor replay FILE --watch` serves): it reads back as the file holds it, a model's transcripts,
usage and raw output and every time included, and checks against its events."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from server.cli import main
from server.replays.replay import Replay
from server.replays.scratch import scratch_database
from tests.fakes import FakeOpenAI
from tests.fakes.seating import FAST, example_responder


def test_a_model_game_reads_back_from_its_scratch_database_as_the_file_holds_it(tmp_path: Path):
    db = tmp_path / "games.db"
    with FakeOpenAI(responder=example_responder) as fake:
        spec = f"openai-compatible:fake-model@{fake.base_url}?{FAST}"
        assert main(["sim", "colonel-blotto", "--seat", spec, "--seat", "scripted:adaptive",
                     "--preset", "small", "--games", "1", "--quiet", "--db", str(db)]) == 0
    with sqlite3.connect(db) as conn:
        original = Replay.from_db(conn, 1)
    assert any(a.get("transcript") for a in original.data["actions"])
    assert any(a.get("usage") for a in original.data["actions"])
    scratch = tmp_path / "scratch" / "replay.db"
    game_id = scratch_database(Replay(original.to_json()), scratch)
    with sqlite3.connect(scratch) as conn:
        again = Replay.from_db(conn, game_id)
        (rated,) = conn.execute("SELECT unrated FROM games").fetchone()
    assert again.to_json() == original.to_json() | {"game_id": game_id}
    again.check()
    assert [d.__dict__ for d in again.decisions()] == [d.__dict__ for d in original.decisions()]
    assert rated.startswith("not rated")
