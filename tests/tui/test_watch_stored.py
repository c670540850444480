"""Games that were never a table of the running server (played by `parlor sim` into its
database) watched in the TUI: from the lobby by their id (g), and with `parlor replay GAME_ID
--watch`, which opens the TUI straight on the game's replay over a local server."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.cli import main
from server.replays.replay import Replay
from tests.tui.helpers import on_screen, screen_text, wait_for, wait_for_footer, wait_for_text
from tui.app import ParlorApp


def sim_game(db: Path) -> int:
    """A Blotto game of two random bots played by `parlor sim` into `db`; its id."""
    assert main(["sim", "colonel-blotto", "--seat", "random", "--seat", "random", "--preset",
                 "small", "--games", "1", "--seed", "3", "--quiet", "--db", str(db)]) == 0
    with sqlite3.connect(db) as conn:
        (game_id,) = conn.execute("SELECT id FROM games").fetchone()
    return int(game_id)


@pytest.fixture
async def simmed(server_db: Path) -> AsyncIterator[tuple[Any, int]]:
    """(a server over a database holding a `parlor sim` game, that game's id)."""
    from server.net.embedded import start_embedded

    game_id = await asyncio.to_thread(sim_game, server_db)  # sim runs its own event loop
    server = await asyncio.to_thread(start_embedded, str(server_db))
    try:
        yield server, game_id
    finally:
        await asyncio.to_thread(server.stop)


def last_step(text: str) -> int:
    found = re.search(r"step \d+ / (\d+)", text)
    assert found, text
    return int(found.group(1))


async def ask_for(pilot, app: ParlorApp, typed: str) -> None:
    """On the lobby: g, then `typed` in the game id box and Enter."""
    await pilot.press("g")
    await on_screen(pilot, app, "open_replay")
    box = app.screen.query_one("#open-replay-input")
    await wait_for(pilot, lambda: app.focused is box, "the game id box focused")
    box.value = ""
    await pilot.press(*typed, "enter")


async def test_a_sim_game_opens_by_its_id_from_the_lobby(simmed):
    server, game_id = simmed
    app = ParlorApp(server.url, "tester")
    async with app.run_test(size=(120, 40)) as pilot:
        await on_screen(pilot, app, "lobby")
        assert await wait_for_footer(pilot, app, "Replay a game")
        assert not any(t.get("game_id") == game_id for t in app.session.tables)
        # Anything but a number is refused in the box, which stays open.
        await ask_for(pilot, app, "x7")
        await wait_for_text(pilot, "'x7' is not a game id: type its number, digits only.")
        assert app.screen.KIND == "open_replay"
        box = app.screen.query_one("#open-replay-input")
        box.value = ""
        await pilot.press("0", "enter")
        await wait_for_text(pilot, "Game ids start at 1.")
        box.value = ""
        await pilot.press("enter")
        await wait_for_text(pilot, "Type the game's id first")
        await pilot.press("escape")
        await on_screen(pilot, app, "lobby")
        # The game's id: its replay, stepped forward; Esc is the lobby again.
        await ask_for(pilot, app, str(game_id))
        await on_screen(pilot, app, "replay")
        text = await wait_for_text(pilot, "Replay — Colonel Blotto", "omniscient", "step 0 / ")
        assert last_step(text) > 1
        await pilot.press("right")
        await wait_for_text(pilot, "step 1 / ")
        await pilot.press("right")
        await wait_for_text(pilot, "step 2 / ")
        await pilot.press("escape")
        await on_screen(pilot, app, "lobby")
        # A number the database has no game of: said plainly on the replay screen.
        await ask_for(pilot, app, "999")
        await on_screen(pilot, app, "replay")
        await wait_for_text(pilot, "Replay — game 999",
                            "Cannot show this replay: no game 999 on this server "
                            "(unknown_game). Esc goes back.")
        await pilot.press("escape")
        await on_screen(pilot, app, "lobby")


async def test_watch_opens_on_the_replay_from_a_seat_and_esc_is_the_lobby(simmed):
    """What `parlor replay GAME_ID --watch --seat 1` runs (tui/launch.py's run_local): the
    app on the database's local server, asked to open that game's replay."""
    server, game_id = simmed
    app = ParlorApp(server.url, "tester", replay=(game_id, 1))
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, app, "replay")
        await wait_for_text(pilot, "seat 1: random #1", "step 0 / ")
        await pilot.press("right")
        await wait_for_text(pilot, "step 1 / ")
        await pilot.press("escape")
        await on_screen(pilot, app, "lobby")
        await wait_for_text(pilot, "you are tester")
        assert "seat 1:" not in screen_text(app)


def test_watch_refuses_what_it_cannot_show_in_one_line(tmp_path, capsys, monkeypatch):
    db = tmp_path / "games.db"
    game_id = sim_game(db)
    opened: list[tuple[Any, ...]] = []
    monkeypatch.setattr("tui.launch.run_local",
                        lambda *a, **k: opened.append((a, k)) or 0)

    def refused(*args: str) -> str:
        assert main(["replay", *args]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        return err

    base = [str(game_id), "--watch", "--db", str(db)]
    assert "give one or the other" in refused(*base, "--export", str(tmp_path / "r.json"))
    assert "give one or the other" in refused(*base, "--markdown", str(tmp_path / "r.md"))
    assert "no seat 2; this game's seats are 0..1" in refused(*base, "--seat", "2")
    assert f"no game 99 in {db}" in refused("99", "--watch", "--db", str(db))
    assert "neither a game id nor a replay file" in refused("x1", "--watch", "--db", str(db))
    assert "no database at" in refused(str(game_id), "--watch", "--db", str(tmp_path / "no.db"))
    with sqlite3.connect(db) as conn:  # a game whose process was stopped mid-game
        conn.execute("UPDATE games SET ended = NULL")
    assert "has not ended" in refused(*base)
    assert not opened  # the TUI never opened
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET ended = started")
    assert main(["--name", "ann", "replay", *base, "--seat", "1"]) == 0
    assert main(["replay", *base, "--name", "bea"]) == 0
    (args, options), (again, _) = opened
    assert args == (str(db.absolute()), "ann") and options["replay"] == (game_id, 1)
    assert again == (str(db.absolute()), "bea")


def test_watch_of_a_replay_file_opens_a_scratch_database_of_that_game(tmp_path, monkeypatch):
    db = tmp_path / "games.db"
    game_id = sim_game(db)
    file = tmp_path / "game.json"
    assert main(["replay", str(game_id), "--export", str(file), "--db", str(db)]) == 0
    seen: dict[str, Any] = {}

    def run_local(path: str, name: str | None, **options: Any) -> int:
        with sqlite3.connect(path) as conn:
            seen["game"] = Replay.from_db(conn, options["replay"][0]).to_json()
        seen.update(path=path, options=options)
        return 0

    monkeypatch.setattr("tui.launch.run_local", run_local)
    assert main(["replay", str(file), "--watch"]) == 0
    assert seen["options"]["replay"][1] is None  # omniscient
    assert not Path(seen["path"]).exists()  # the scratch database is gone
    stored = json.loads(file.read_text())
    assert {k: v for k, v in seen["game"].items() if k != "game_id"} == \
        {k: v for k, v in stored.items() if k != "game_id"}
