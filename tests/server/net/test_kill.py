"""A server killed mid-game loses nothing anyone saw: on restart the game is replayed from its
committed actions and closed as void."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

from server.store.store import Store
from tests.server.conftest import Client
from tests.server.net.test_play import rows


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db, port) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--port", str(port),
                             "--db", str(db), "--allow-client-seeds"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    for line in proc.stdout:  # wait for the "listening" line
        if "listening" in line:
            return proc
    raise AssertionError(f"server did not start (exit {proc.wait()})")


async def load_record(db, game_id):
    store = await Store.open(db)
    try:
        return await store.load_record(game_id)
    finally:
        await store.close()


async def test_a_killed_server_loses_no_committed_action(tmp_path):
    db, port = tmp_path / "p.db", free_port()
    proc = start_server(db, port)
    try:
        ada = await Client.connect(f"ws://127.0.0.1:{port}", "ada")
        await ada.request("create_table", env="colonel-blotto", seats=["human", "random"],
                          seed=3, join_seat=0)
        for allocation in ("[A20]", "[B20]"):
            turn = await ada.wait_for("your_turn")
            await ada.send("act", table_id=turn["table_id"], turn=turn["turn"],
                           action=allocation)
            echo = await ada.wait_for("event")
            while not any(e["type"] == "allocation_submitted" and e["data"]["seat"] == 0
                          for e in echo["events"]):
                echo = await ada.wait_for("event")  # our move, broadcast after its commit
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        await ada.ws.close()
    finally:
        if proc.poll() is None:
            proc.kill()
    running = rows(db, "SELECT status FROM games")
    assert running == [{"status": "running"}]
    seen = rows(db, "SELECT raw FROM actions WHERE seat = 0 ORDER BY idx")
    assert [r["raw"] for r in seen][:2] == ["[A20]", "[B20]"]

    proc = start_server(db, free_port())
    try:
        time.sleep(0.2)
        game = rows(db, "SELECT * FROM games")[0]
        assert game["status"] == "void" and "interrupted" in game["reason"]
        record = await load_record(db, game["id"])
        assert [a.raw for a in record.actions if a.seat == 0][:2] == ["[A20]", "[B20]"]
        assert record.events[-1].type == "game_over"
        stored = rows(db, "SELECT seq FROM events ORDER BY seq")
        assert [r["seq"] for r in stored] == list(range(len(record.events)))
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
