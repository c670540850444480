"""After a restart: table ids never come back (an old client cannot land at a stranger's table),
a client returning to a table the previous run had is told what became of it, and `parlor
serve` / `parlor` refuse a bad port or database in one line, exit status 2 (issue 10)."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

from server.net.app import Server
from tests.server.conftest import Client, schema_at
from tests.server.net.test_play import play_until_over
from tests.tui.helpers import wait_for_text
from tui.app import ParlorApp
from tui.tokens import save_token

PARLOR = [str(Path(sys.executable).with_name("parlor"))]  # the installed command


async def start(db: Path, instance: str = "") -> Server:
    server = Server(str(db), instance=instance, turn_timeout=30, disconnect_grace=30,
                    client_seeds=True)
    await server.start("127.0.0.1", 0)
    return server


async def open_table(client: Client, **extra) -> str:
    reply = await client.request("create_table", env="colonel-blotto", preset="small",
                                 seats=["human", "random"], seed=3, **extra)
    return reply["table"]["id"]


async def test_table_ids_never_repeat_across_restarts(tmp_path):
    db = tmp_path / "p.db"
    seen: list[str] = []
    for run in range(3):
        server = await start(db)
        ada = await Client.connect(server.url, f"ada{run}")
        seen += [await open_table(ada), await open_table(ada)]
        await ada.close()
        await server.stop()
    assert len(set(seen)) == len(seen) == 6
    assert all(t.startswith("t") and t[1:].isdigit() for t in seen)  # short and readable
    named = await start(db, "w1")
    try:
        ada = await Client.connect(named.url, "ada9")
        table_id = await open_table(ada)
        assert table_id.startswith("w1.t") and table_id not in seen
        await ada.close()
    finally:
        await named.stop()


async def test_a_database_from_before_continues_after_its_highest_table_number(tmp_path):
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        schema_at(conn, 5)
        conn.execute("INSERT INTO games (table_id, env, rules_version, config, seed, started, "
                     "status) VALUES ('t7', 'colonel-blotto', '1', '{}', 0, 0, 'void')")
    server = await start(db)
    try:
        ada = await Client.connect(server.url, "ada")
        assert await open_table(ada) == "t8"
        await ada.close()
    finally:
        await server.stop()


async def test_coming_back_after_a_restart_says_what_became_of_each_table(tmp_path):
    db = tmp_path / "p.db"
    first = await start(db)
    ada = await Client.connect(first.url, "ada")
    token = ada.welcome["player"]["token"]
    running = await open_table(ada, join_seat=0)
    await ada.wait_for("your_turn")
    bob = await Client.connect(first.url, "bob")
    finished = await open_table(bob, join_seat=0)
    over = await play_until_over(bob)
    waiting = await open_table(bob)
    await first.stop()  # ada's game is stopped mid-way: void
    for c in (ada, bob):
        await c.close()

    second = await start(db)
    try:
        back = await Client.connect(second.url, "ada", token=token)
        gone = await back.request("resume", table_id=running)
        assert gone["code"] == "table_gone"
        assert gone["message"] == (f"the server restarted; the game at table {running} was "
                                   f"stopped and is void (not rated)")
        assert (await back.request("join", table_id=running))["code"] == "table_gone"
        ended = await back.request("spectate", table_id=finished)
        assert ended["code"] == "table_gone"
        assert ended["message"].startswith(f"the server restarted; the game at table "
                                           f"{finished} has ended (")
        outcome = ("a draw" if over["result"]["draw"] else
                   "won by bob" if over["result"]["winners"] == [0] else "won by random")
        assert outcome in ended["message"]
        closed = await back.request("join", table_id=waiting)
        assert closed == {**closed, "code": "table_gone", "message": (
            f"the server restarted; table {waiting} was still waiting for players and was "
            f"closed")}
        fresh = await open_table(back)
        assert fresh not in (running, finished, waiting)
        never = await back.request("join", table_id="t999")
        assert never["code"] == "unknown_table"
        await back.close()
    finally:
        await second.stop()


async def test_the_tui_tells_a_returning_player_that_the_table_is_gone(tmp_path):
    """The TUI resumes its table after reconnecting; the server's answer is shown, and the
    player lands in the lobby."""
    db = tmp_path / "p.db"
    first = await start(db)
    ada = await Client.connect(first.url, "ada")
    save_token("restart-test", "ada", ada.welcome["player"]["token"])  # as the TUI would
    table_id = await open_table(ada, join_seat=0)
    await ada.wait_for("your_turn")
    await ada.close()
    await first.stop()
    second = await start(db)
    try:
        app = ParlorApp(second.url, "ada", server_key="restart-test")
        app.session.table = {"id": table_id, "status": "playing", "seats": []}
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await wait_for_text(pilot, "table_gone")
            text = await wait_for_text(pilot, "the server restarted")
            toast = " ".join(line.strip("│▌ ") for line in text.splitlines() if "▌" in line)
            assert f"the server restarted; the game at table {table_id} was stopped and is " \
                   f"void (not rated)" in toast
            assert app.screen.KIND == "lobby"
    finally:
        await second.stop()


def parlor(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PARLOR_HOME": str(cwd / "home")}
    return subprocess.run([*PARLOR, *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, env=env)


def refused_in_one_line(run: subprocess.CompletedProcess[str]) -> str:
    """Exit status 2, no traceback, and the reason as stderr's one line (argparse's usage
    lines aside); returns that line."""
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    lines = [line for line in run.stderr.splitlines()
             if line and not line.startswith(("usage:", " ", "Parlor database:"))]
    assert len(lines) == 1, run.stderr
    return lines[0]


def test_serve_refuses_a_port_out_of_range(tmp_path):
    line = refused_in_one_line(parlor("serve", "--port", "99999", "--db", "p.db", cwd=tmp_path))
    assert line == ("parlor serve: error: argument --port: 99999 is not a port: ports are "
                    "0..65535 (0: any free port)")


def test_serve_refuses_a_port_in_use(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = parlor("serve", "--port", str(port), "--db", "p.db", cwd=tmp_path)
    line = refused_in_one_line(run)
    assert line == f"parlor serve: cannot listen on 127.0.0.1:{port}: address already in use"


def test_serve_and_local_play_refuse_a_database_they_cannot_open(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    db = str(tmp_path / "a-file" / "parlor.db")
    for run in (parlor("serve", "--port", "0", "--db", db, cwd=tmp_path),  # a server
                parlor("--db", db, cwd=tmp_path)):  # local play
        assert refused_in_one_line(run) == (
            f"parlor: cannot open the database {tmp_path / 'a-file' / 'parlor.db'}: "
            f"{tmp_path / 'a-file'} is a file, not a folder")
        assert run.stderr.count("\n") == 1  # nothing else: not even the database's path
    run = parlor("serve", "--db", str(tmp_path), cwd=tmp_path)
    assert "is a folder" in refused_in_one_line(run)
