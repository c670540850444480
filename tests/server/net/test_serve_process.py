"""Issue 10 from the outside: a real `parlor serve` process, driven over real sockets on
127.0.0.1 as a stranger (or the host) would drive it: each finding of the issue, TLS, invites,
the admin token and backups."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trustme
from websockets.asyncio.client import connect

from server.wire import protocol as p
from tests.fakes import FakeOpenAI
from tests.fakes.seating import FAST, example_responder
from tests.server.conftest import Client
from tests.server.net.test_play import rows

LISTENING = re.compile(r"listening on (wss?://\S+)")


class ServeProcess:
    """`parlor serve` in a process of its own; its output goes to a file (a pipe nobody reads
    could fill up and stall the server)."""

    def __init__(self, tmp: Path, *args: str, db: Path | None = None) -> None:
        self.db = db or tmp / "parlor.db"
        self.log = tmp / f"serve-{time.monotonic_ns()}.log"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "server.cli", "serve", "--port", "0", "--db",
                 str(self.db), *args], stdout=out, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 30
        while not (found := LISTENING.search(self.output())):
            assert self.proc.poll() is None, f"serve exited: {self.output()}"
            assert time.monotonic() < deadline, f"serve did not start: {self.output()}"
            time.sleep(0.05)
        self.url = found.group(1)

    def output(self) -> str:
        return self.log.read_text()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                raise


def parlor(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli", *args], capture_output=True,
                          text=True, timeout=60, env={**os.environ, **(env or {})})


@pytest.fixture
def serve(tmp_path):
    started: list[ServeProcess] = []

    def start(*args: str, db: Path | None = None) -> ServeProcess:
        started.append(ServeProcess(tmp_path, *args, db=db))
        return started[-1]

    yield start
    for proc in started:
        proc.stop()


# -- the findings, against a real process ------------------------------------------------------
async def test_a_clients_url_gets_no_request_and_no_key(serve, monkeypatch):
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", "sk-host-secret")
    with FakeOpenAI(responder=example_responder) as attacker:
        server = serve()
        ada = await Client.connect(server.url, "ada")
        for spec in (f"openai-compatible:m@{attacker.base_url}?{FAST}", "openai:gpt-4o"):
            reply = await ada.request("create_table", env="colonel-blotto",
                                      seats=["human", spec], join_seat=0)
            assert reply["code"] == "bad_seat" and "does not allow" in reply["message"]
        await ada.close()
        assert attacker.requests == []


async def test_bad_input_gets_a_precise_error_and_the_game_goes_on(serve):
    server = serve()
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "scripted:uniform"], join_seat=0))["table"]
    turn = await ada.wait_for("your_turn")
    act = {"v": 1, "type": "act", "id": 9, "table_id": table["id"], "turn": turn["turn"]}
    hostile = {
        "bad_text": json.dumps(act | {"action": "\ud800"}),  # a lone surrogate
        "bad_number": json.dumps(act | {"action": "[A20]"})[:-1] + ', "x": 1' + "9" * 5000 + "}",
        "too_deep": json.dumps(act | {"action": "x"})[:-1] + ', "x": ' + "[" * 40 + "]" * 40 + "}",
        "bad_message": json.dumps(act | {"table_id": [table["id"]], "action": "[A20]"}),
    }
    for code, raw in hostile.items():
        await ada.send_raw(raw)
        reply = await ada.wait_for("error")
        assert reply["code"] == code, raw[:80]
        assert "Traceback" not in reply["message"]
    # Nothing reached the game: the turn is still open and a good move plays.
    await ada.send("act", table_id=table["id"], turn=turn["turn"], action="[A8 B6 C6]")
    moved = await ada.wait_for("event")
    assert any(e["type"] == "allocation_submitted" for e in moved["events"])
    assert rows(server.db, "SELECT count(*) n FROM actions")[0]["n"] >= 1


async def test_the_host_sets_the_limits_on_names_and_tables_per_address(serve):
    server = serve("--names-per-address-per-hour", "2", "--tables-per-address", "1",
                   "--forget-unused-names", "0.5")
    replies = []
    for name in ("ada", "bo", "cy"):
        client = await Client.connect(server.url)
        replies.append(await client.request("hello", name=name))
        if name == "ada":
            ada = client
    assert [r["type"] for r in replies] == ["welcome", "welcome", "error"]
    assert replies[2]["code"] == "limit" and "try again in about" in replies[2]["message"]
    blotto = {"env": "colonel-blotto", "seats": ["human", "random"]}
    assert (await ada.request("create_table", **blotto))["type"] == "table"
    bo = await Client.connect(server.url, "bo", token=replies[1]["player"]["token"])
    refused = await bo.request("create_table", **blotto)
    assert refused["code"] == "limit" and "your address" in refused["message"]


async def test_flooding_clients_meet_the_limits(serve):
    server = serve("--tables-per-player", "3", "--messages-per-second", "20")
    ada = await Client.connect(server.url, "ada")
    made = [await ada.request("create_table", env="colonel-blotto", seats=["human", "random"])
            for _ in range(4)]
    assert [m["type"] for m in made] == ["table"] * 3 + ["error"]
    assert made[3]["code"] == "limit"
    listed = await ada.request("list_tables", limit=2)
    assert len(listed["tables"]) == 2 and listed["next"] == listed["tables"][1]["id"]
    # 1,000 messages at once: the burst is read, the rest refused, then the connection cut.
    # (A message with a small reply: 200 replies of the env list, some 48 KB each, would pass
    # the server's 4 MiB unsent limit and drop a slow reader before any refusal reached it.)
    for _ in range(1000):
        await ada.send("list_tables", limit=1)
    codes = set()
    with pytest.raises(Exception):  # noqa: B017 - the server closes the connection
        while True:
            msg = await ada.recv(timeout=10)
            codes.add(msg.get("code"))
    assert "rate_limited" in codes
    # The server is fine: a newcomer is served, and the tables of a creator who vanished
    # while nobody sat at them are gone.
    bob = await Client.connect(server.url, "bob")
    assert (await bob.request("list_tables"))["tables"] == []
    # A config that would make a scripted bot think for seconds is refused outright.
    huge = await bob.request("create_table", env="colonel-blotto",
                             config={"fields": 20, "units": 1000},
                             seats=["scripted:adaptive", "scripted:adaptive"])
    assert huge["code"] == "bad_config"


async def test_lookalike_names_are_refused(serve):
    server = serve()
    alice = await Client.connect(server.url, "alice")
    for name, code in (("ALICE", "name_taken"), ("\u0430lice", "name_taken"),
                       ("alice\u200d", "bad_name"), ("\u202ealice", "bad_name")):
        other = await Client.connect(server.url)
        assert (await other.request("hello", name=name))["code"] == code, name
    await alice.close()


async def test_a_turn_sent_twice_at_once_is_applied_once(serve):
    server = serve()
    first = await Client.connect(server.url, "ada")
    second = await Client.connect(server.url, "ada", token=first.welcome["player"]["token"])
    table = (await first.request("create_table", env="colonel-blotto", preset="small",
                                 seats=["human", "scripted:uniform"], join_seat=0))["table"]
    turn = (await first.wait_for("your_turn"))["turn"]
    await second.wait_for("your_turn")
    await asyncio.gather(*(c.send("act", table_id=table["id"], turn=turn, action="[A20]")
                           for c in (first, second)))
    stale = []
    for client in (first, second):
        got = []
        ref = await client.send("list_envs")
        while not got or got[-1].get("ref") != ref:
            got.append(await client.recv())
        stale += [m["code"] for m in got if m["type"] == "error"]
    assert stale == ["stale_turn"]
    assert rows(server.db, "SELECT count(*) n FROM actions WHERE seat = 0")[0]["n"] == 1


async def test_after_a_restart_ids_are_new_and_returning_clients_are_told(serve, tmp_path):
    server = serve()
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "scripted:uniform"], join_seat=0))["table"]
    turn = await ada.wait_for("your_turn")
    await ada.send("act", table_id=table["id"], turn=turn["turn"], action="[A20]")
    await ada.wait_for("your_turn")
    token = ada.welcome["player"]["token"]
    server.stop()
    again = serve(db=server.db)
    ada = await Client.connect(again.url, "ada", token=token)
    gone = await ada.request("resume", table_id=table["id"])
    assert gone["code"] == "table_gone"
    assert gone["message"] == (f"the server restarted; the game at table {table['id']} was "
                               f"stopped and is void (not rated)")
    fresh = await ada.request("create_table", env="colonel-blotto", seats=["human", "random"])
    assert fresh["table"]["id"] != table["id"]


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
async def test_serve_plays_a_game_on_either_event_loop(serve, loop):
    """uvloop by default where installed (less CPU per move); asyncio's own loop on request
    (and where uvloop has no build): the same game, stored, on both."""
    server = serve(*(["--event-loop", loop] if loop == "asyncio" else []))
    assert f"Event loop: {loop}" in server.output()
    ada = await Client.connect(server.url, "ada")
    table = (await ada.request("create_table", env="colonel-blotto", preset="small",
                               seats=["human", "scripted:uniform"], join_seat=0))["table"]
    while True:
        msg = await ada.recv()
        if msg["type"] == "game_over":
            break
        if msg["type"] == "your_turn":
            await ada.send("act", table_id=table["id"], turn=msg["turn"], action="[A20]")
    assert msg["table_id"] == table["id"] and msg["result"]["reason"]
    stored = rows(server.db, "SELECT status FROM games WHERE table_id = ?", table["id"])
    assert [g["status"] for g in stored] == ["finished"]


def test_serve_says_when_the_event_loop_asked_for_is_missing(tmp_path):
    """`--event-loop uvloop` where it is not installed: one clear line, no traceback."""
    blocker = tmp_path / "uvloop.py"
    blocker.write_text("raise ImportError('no uvloop here')\n")
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    run = parlor("serve", "--db", str(tmp_path / "p.db"), "--port", "0", "--event-loop",
                 "uvloop", env=env)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "parlor serve: the uvloop event loop is not installed" in run.stderr


def test_a_bad_port_or_certificate_stops_serve_in_one_line(tmp_path):
    for args, words in ((["--port", "99999"], "is not a port"),
                        (["--certfile", str(tmp_path / "none.pem")], "no such file")):
        run = parlor("serve", "--db", str(tmp_path / "p.db"), *args)
        assert run.returncode == 2 and words in run.stderr and "Traceback" not in run.stderr
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    run = parlor("serve", "--db", str(tmp_path / "p.db"), "--port", "0", "--certfile",
                 str(junk))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert f"parlor serve: cannot use the certificate {junk}" in run.stderr


# -- TLS, invites, the admin token, backups ----------------------------------------------------
@pytest.fixture
def certificates(tmp_path):
    """A CA of our own and a certificate it signed for 127.0.0.1 (as a host's would be)."""
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    paths = {name: tmp_path / f"{name}.pem" for name in ("ca", "cert", "key")}
    ca.cert_pem.write_to_path(str(paths["ca"]))
    cert.private_key_pem.write_to_path(str(paths["key"]))
    cert.cert_chain_pems[0].write_to_path(str(paths["cert"]))
    return {name: str(path) for name, path in paths.items()}


def warnings_of(server: ServeProcess) -> list[str]:
    return [line for line in server.output().splitlines() if line.startswith("Warning")]


async def test_only_a_server_beyond_loopback_without_tls_warns(serve, certificates):
    assert warnings_of(serve()) == []
    open_server = serve("--host", "0.0.0.0")
    assert warnings_of(open_server) == [
        "Warning: listening on 0.0.0.0 without TLS: names' tokens and every game travel in "
        "clear text. Use --certfile/--keyfile, or a TLS proxy in front."]
    tls = serve("--host", "0.0.0.0", "--certfile", certificates["cert"], "--keyfile",
                certificates["key"])
    assert tls.url.startswith("wss://") and warnings_of(tls) == []


async def test_an_invite_only_server_over_wss_run_by_its_host(serve, certificates, tmp_path):
    db = tmp_path / "parlor.db"
    made = parlor("serve", "invite", "--count", "2", "--note", "club night", "--db", str(db))
    assert made.returncode == 0, made.stderr
    codes = made.stdout.split()
    assert len(codes) == 2 and all(re.fullmatch(r"[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}", c)
                                   for c in codes)
    token = parlor("serve", "admin-token", "--db", str(db)).stdout.strip()
    server = serve("--certfile", certificates["cert"], "--keyfile", certificates["key"],
                   "--invite-only", db=db)
    url = server.url
    assert url.startswith("wss://127.0.0.1:")
    assert "Invite-only" in server.output()

    with pytest.raises(Exception):  # noqa: B017 - plain ws:// to a TLS server fails
        await connect(url.replace("wss://", "ws://"), open_timeout=3)
    with pytest.raises(OSError):  # a certificate nobody vouched for is refused by default
        await connect(url, ssl=p.client_ssl(url), open_timeout=3)

    ada = Client(await connect(url, ssl=p.client_ssl(url, certificates["ca"])))
    assert (await ada.request("hello", name="ada"))["code"] == "invite_required"
    welcome = await ada.request("hello", name="ada", invite=codes[0])
    assert welcome["type"] == "welcome"
    table = (await ada.request("create_table", env="colonel-blotto",
                               seats=["human", "human"], join_seat=0))["table"]

    host = {"PARLOR_ADMIN_TOKEN": token}
    admin = ["admin", "--server", url, "--cafile", certificates["ca"]]
    listed = parlor(*admin, "tables", env=host)
    assert listed.returncode == 0 and table["id"] in listed.stdout and "0:ada" in listed.stdout
    wrong = parlor(*admin, "tables", env={"PARLOR_ADMIN_TOKEN": "guess"})
    assert wrong.returncode == 1 and "forbidden" in wrong.stderr
    kicked = parlor(*admin, "kick", table["id"], "0", "--reason", "testing", env=host)
    assert kicked.returncode == 0 and "ada left seat 0" in kicked.stdout
    assert (await ada.wait_for("table", your_seat=None))["removed"] == ("removed by the host: "
                                                                        "testing")
    closed = parlor(*admin, "close", table["id"], env=host)
    assert closed.returncode == 0 and "closed" in closed.stdout

    listing = parlor("serve", "invite", "--list", "--db", str(db)).stdout
    assert "used by ada" in listing and "unused" in listing and "club night" in listing
    copy = tmp_path / "backup.db"
    backed = parlor("serve", "backup", str(copy), "--db", str(db))
    assert backed.returncode == 0 and "integrity check ok" in backed.stdout
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT name FROM players").fetchall() == [("ada",)]
    again = parlor("serve", "backup", str(copy), "--db", str(db))
    assert again.returncode == 2 and "exists" in again.stderr
