"""A server killed between a group commit and its broadcast: everything anyone was shown is in
the database, and so is the move nobody was shown yet (it was committed first)."""

from __future__ import annotations

import signal
import subprocess
import sys

from tests.server.conftest import Client
from tests.server.net.test_kill import free_port, load_record
from tests.server.net.test_play import rows

# The real server, made to die by SIGKILL right after it committed ada's third allocation and
# before it told anyone about it.
CRASHING_SERVER = """
import os, signal, sys
from server.tables import table as tables

shown = tables.Table._broadcast
count = 0

async def broadcast_or_die(self, events, *args, **kwargs):
    global count
    if any(e.type == "allocation_submitted" and e.data.get("seat") == 0 for e in events):
        count += 1
        if count == 3:
            os.kill(os.getpid(), signal.SIGKILL)
    await shown(self, events, *args, **kwargs)

tables.Table._broadcast = broadcast_or_die
from server.cli import main
sys.exit(main(sys.argv[1:]))
"""


def start(db, port, crashing: bool) -> subprocess.Popen:
    code = ["-c", CRASHING_SERVER] if crashing else ["-m", "server.cli"]
    proc = subprocess.Popen([sys.executable, *code, "serve", "--port", str(port), "--db",
                             str(db), "--allow-client-seeds"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    for line in proc.stdout:
        if "listening" in line:
            return proc
    raise AssertionError(f"server did not start (exit {proc.wait()})")


async def test_a_crash_between_commit_and_broadcast_loses_nothing_shown(tmp_path):
    db, port = tmp_path / "p.db", free_port()
    proc = start(db, port, crashing=True)
    url = f"ws://127.0.0.1:{port}"
    try:
        ada = await Client.connect(url, "ada")
        eve = await Client.connect(url, "eve")
        table = (await ada.request("create_table", env="colonel-blotto", seats=["human", "random"],
                                   seed=3, join_seat=0))["table"]
        await eve.request("spectate", table_id=table["id"])
        for allocation in ("[A20]", "[B20]", "[C20]"):
            turn = await ada.wait_for("your_turn")
            await ada.send("act", table_id=turn["table_id"], turn=turn["turn"],
                           action=allocation)
        proc.wait(10)
        assert proc.returncode == -signal.SIGKILL
        for client in (ada, eve):  # read what reached them before the server died
            try:
                while True:
                    await client.recv(timeout=1)
            except Exception:  # noqa: BLE001 - the connection is gone
                pass
    finally:
        if proc.poll() is None:
            proc.kill()

    stored = {r["seq"]: r for r in rows(db, "SELECT seq, type, data FROM events")}
    for client in (ada, eve):
        shown = [e for m in client.received if m["type"] == "event" for e in m["events"]]
        assert shown, "the client saw the game start"
        for e in shown:
            assert e["seq"] in stored and stored[e["seq"]]["type"] == e["type"]
    moves = [r["raw"] for r in rows(db, "SELECT raw FROM actions WHERE seat = 0 ORDER BY idx")]
    assert moves[:3] == ["[A20]", "[B20]", "[C20]"]  # the third: committed, never shown
    ada_saw = [e for m in ada.received if m["type"] == "event" for e in m["events"]
               if e["type"] == "allocation_submitted" and e["data"]["seat"] == 0]
    assert len(ada_saw) == 2

    proc = start(db, free_port(), crashing=False)  # the restart voids the game, losing nothing
    try:
        game = rows(db, "SELECT id, status, reason FROM games")[0]
        assert game["status"] == "void" and "interrupted" in game["reason"]
        record = await load_record(db, game["id"])
        assert [a.raw for a in record.actions if a.seat == 0][:3] == ["[A20]", "[B20]", "[C20]"]
        assert record.events[-1].type == "game_over"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
