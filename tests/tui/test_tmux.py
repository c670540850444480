"""People at real terminals, keys only: `parlor` in tmux for a Blotto game against a bot; and
two people on one machine (two `parlor play` with different names against one `parlor serve`)
playing a game to the end while a third watches, one of them quitting and coming back mid-game."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.server.net.test_serve_process import ServeProcess

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

DEADLINE = 60.0  # seconds for any one screen to appear: only bounds a hung run
ROOT = Path(__file__).parents[2]


def parlor(*args: str) -> str:
    script = Path(sys.executable).with_name("parlor")
    base = [str(script)] if script.exists() else [sys.executable, "-m", "server.cli"]
    return " ".join([*base, *args])


class Tmux:
    """A tmux server of our own (its own socket), so no other tmux session is touched; one
    session per person, each a terminal of its own."""

    def __init__(self) -> None:
        self.socket = f"parlor-test-{uuid.uuid4().hex[:8]}"

    def open(self, who: str, command: str, size: tuple[int, int] = (120, 40)) -> None:
        # Textual sizes itself from COLUMNS/LINES when set (pytest may set them): drop them so
        # the app fills the real pane. The pane stays after exit, to read the exit status.
        self.tmux("new-session", "-d", "-s", who, "-x", str(size[0]), "-y", str(size[1]),
                  f"env -u COLUMNS -u LINES {command}; echo parlor-exited-$?; sleep 60",
                  cwd=ROOT)

    def tmux(self, *args: str, cwd: Path | None = None) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, check=True, cwd=cwd).stdout

    def screen(self, who: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", who)

    def keys(self, who: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", who, *keys)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)

    def wait(self, who: str, pattern: str) -> str:
        return self.wait_until(who, lambda text: re.search(pattern, text) is not None,
                               repr(pattern))

    def wait_until(self, who: str, condition: Callable[[str], bool], what: str) -> str:
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            text = self.screen(who)
            if condition(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what} on {who}'s screen:\n"
                             f"{self.screen(who)}")


def _round(text: str) -> str | None:
    found = re.search(r"Round (\d+)/", text)
    return found.group(1) if found else None


def test_play_blotto_in_a_real_terminal(tmp_path: Path):
    db = tmp_path / "p.db"
    term = Tmux()
    try:
        term.open("main", parlor("--db", str(db), "--name", "tester"))
        term.wait("main", r"New table")  # the lobby's footer
        term.wait("main", r"Colonel Blotto")
        term.keys("main", "Down", "Down", "n")  # listed by id: amongagents, codenames, colonel-blotto
        term.wait("main", r"New table: Colonel Blotto")
        for _ in range(8):  # the preset row has focus: step to `small`
            if "‹ small ›" in term.screen("main"):
                break
            term.keys("main", "Right")
            time.sleep(0.2)
        assert "‹ small ›" in term.screen("main")
        term.keys("main", "C-s")
        term.wait("main", r"YOUR MOVE")
        rounds = 0
        while True:
            text = term.wait("main", r"YOUR MOVE|Game over")
            if "Game over" in text:
                break
            current = _round(text)
            term.keys("main", "Enter")  # the even split is a valid allocation
            rounds += 1
            term.wait_until("main", lambda now, c=current: "Game over" in now
                            or "YOUR MOVE" not in now or _round(now) != c, "our move taken")
        text = term.wait("main", r"Rewards")
        assert 3 <= rounds <= 5
        you = next(line for line in text.splitlines() if "(you)" in line)
        assert re.search(r"\s[+-]\d", you)  # our reward
        assert "tester" in you
        term.keys("main", "C-q")
        text = term.wait("main", r"parlor-exited-\d+")
        assert "parlor-exited-0" in text
        assert db.exists()  # the embedded server kept its SQLite file
    finally:
        term.close()


def _move(term: Tmux, who: str, *keys: str) -> bool:
    """`who` makes this round's move (keys, then Enter) and sees it taken; False when the game
    is over instead."""
    text = term.wait(who, r"YOUR MOVE|Game over")
    if "Game over" in text:
        return False
    current = _round(text)
    term.keys(who, *keys, "Enter")
    term.wait_until(who, lambda now: "YOUR MOVE" not in now or _round(now) != current
                    or "Game over" in now, f"{who}'s move taken")
    return True


def test_two_people_on_one_machine_play_while_a_third_watches(tmp_path: Path):
    server = ServeProcess(tmp_path, db=tmp_path / "served.db")  # on a port the system picks
    url = server.url
    term = Tmux()
    try:
        for who in ("alice", "bob", "carol"):
            term.open(who, parlor("play", "--server", url, "--name", who))
            term.wait(who, f"you are {who}")

        # alice opens a table for two people: seat 1 becomes "human" too.
        term.keys("alice", "Down", "Down", "n")  # Colonel Blotto, the third game listed
        term.wait("alice", r"New table: Colonel Blotto")
        for _ in range(8):
            if "‹ small ›" in term.screen("alice"):
                break
            term.keys("alice", "Right")
            time.sleep(0.2)
        term.keys("alice", "Down", "Down", "Down")  # preset → players → seat 0 → seat 1
        for _ in range(12):
            seat1 = next(line for line in term.screen("alice").splitlines() if "Seat 1" in line)
            if "‹ human" in seat1:
                break
            term.keys("alice", "Left")
            time.sleep(0.2)
        term.keys("alice", "C-s")
        term.wait("alice", r"Waiting for 1 more player")

        term.keys("bob", "r")  # refresh the lobby, then to the live tables and join
        term.wait("bob", r"waiting 1/2")
        term.keys("bob", "Tab", "j")
        term.wait("bob", r"YOUR MOVE")
        term.keys("carol", "r")
        term.wait("carol", r"playing")
        term.keys("carol", "Tab", "w")
        term.wait("carol", r"watching")

        # Round 1: alice sends A8 B8 C4 (from the even split 7/7/6), bob the even split.
        _move(term, "alice", "Right", "Right", "Down", "Down", "Left", "Left", "Up", "Right",
              "Up")
        _move(term, "bob")
        term.wait("carol", r"A8 B8 C4")

        # bob quits mid-game; alice and carol are told, with his time to return.
        term.keys("bob", "C-q")
        term.wait("bob", r"parlor-exited-0")
        term.wait("alice", r"bob disconnected — \d+ s to return")
        term.wait("carol", r"bob disconnected")
        term.tmux("kill-session", "-t", "bob")
        term.open("bob", parlor("play", "--server", url, "--name", "bob"))
        term.wait("bob", r"YOUR MOVE")  # straight back into the game, with its state
        text = term.wait("bob", r"A8 B8 C4")
        assert "you are bob" in text
        term.wait_until("alice", lambda now: "disconnected" not in now, "the notice gone")

        while _move(term, "alice") and _move(term, "bob"):  # alice repeats her allocation
            pass
        for who in ("alice", "bob"):
            term.wait(who, r"Rewards")
        term.wait("carol", r"alice wins")  # the watcher's result screen
        alice = next(line for line in term.screen("alice").splitlines() if "(you)" in line)
        bob = next(line for line in term.screen("bob").splitlines() if "(you)" in line)
        assert "won" in alice and "+1" in alice and "lost" in bob and "-1" in bob
    finally:
        term.close()
        server.stop()


def test_a_person_at_a_socialgrid_tick_table(tmp_path: Path):
    """SocialGrid at the `tick` pace in a real terminal: the steps go on while the person only
    watches (standing still), and a key moves them at once."""
    import json

    from websockets.sync.client import connect

    server = ServeProcess(tmp_path, db=tmp_path / "grid.db")
    url = server.url
    term = Tmux()
    try:
        with connect(url) as host:  # the host opens the table and stays (else it would close)
            host.send(json.dumps({"v": 1, "type": "hello", "id": 1, "name": "host"}))
            host.send(json.dumps({
                "v": 1, "type": "create_table", "id": 2, "env": "socialgrid",
                "preset": "navigation-oracle", "seats": ["human", "scripted:agent"],
                "config": {"room_size": 7, "rows": 1, "cols": 2, "pace": "tick",
                           "tick_ms": 400}}))
            term.open("ada", parlor("play", "--server", url, "--name", "ada"))
            term.wait("ada", "SocialGrid")
            term.keys("ada", "r")
            term.wait("ada", "waiting 1/2")
            term.keys("ada", "Tab", "j")
            first = _step(term.wait("ada", r"Step \d+/2500"))
            # Hands off: the table does not wait for ada.
            later = term.wait_until("ada", lambda text: (_step(text) or 0) >= first + 3,
                                    "three steps without a key")
            assert "Step" in later
            term.keys("ada", "Left")  # TURN_LEFT: always allowed
            term.wait("ada", "TURN_LEFT")
            term.keys("ada", "C-q")
            term.wait("ada", "parlor-exited-0")
    finally:
        term.close()
        server.stop()


def _step(text: str) -> int | None:
    found = re.search(r"Step (\d+)/2500", text)
    return int(found.group(1)) if found else None


def test_a_spectator_watches_a_live_game_and_the_players_see_the_count(tmp_path: Path):
    """A person in an 80x24 terminal watches a game under way from the lobby: ada (the test,
    over a raw websocket) against a bot, the game waiting on ada's moves. The watcher sees each
    move as ada makes it; ada is told "1 watching", and 0 once the watcher stops."""
    import json

    from websockets.sync.client import connect

    server = ServeProcess(tmp_path, db=tmp_path / "watched.db")
    term = Tmux()

    def spectators(ada) -> int:
        """The spectator count of ada's next table message."""
        while True:
            msg = json.loads(ada.recv(timeout=DEADLINE))
            if msg["type"] == "table":
                return msg["table"]["spectators"]

    def turn(ada) -> dict:
        while True:
            msg = json.loads(ada.recv(timeout=DEADLINE))
            if msg["type"] == "your_turn":
                return msg

    try:
        with connect(server.url) as ada:
            ada.send(json.dumps({"v": 1, "type": "hello", "id": 1, "name": "ada"}))
            ada.send(json.dumps({"v": 1, "type": "create_table", "id": 2,
                                 "env": "colonel-blotto", "preset": "small",
                                 "seats": ["human", "scripted:uniform"], "join_seat": 0}))
            first = turn(ada)  # the game runs: the bot has allocated, ada's move is awaited
            table_id = first["table_id"]

            term.open("eve", parlor("play", "--server", server.url, "--name", "eve"),
                      size=(80, 24))
            term.wait("eve", "you are eve")
            term.keys("eve", "r")
            term.wait("eve", "playing")
            term.keys("eve", "Tab", "w")
            term.wait("eve", "watching")
            while spectators(ada) != 1:  # ada's header would read "1 watching"
                pass

            ada.send(json.dumps({"v": 1, "type": "act", "id": 3, "table_id": table_id,
                                 "turn": first["turn"], "action": "[A8 B8 C4]"}))
            term.wait("eve", r"A8 B8 C4")  # round 1, as it resolves
            second = turn(ada)
            ada.send(json.dumps({"v": 1, "type": "act", "id": 4, "table_id": table_id,
                                 "turn": second["turn"], "action": "[A2 B9 C9]"}))
            term.wait("eve", r"A2 B9 C9")  # round 2: the game goes on while she watches

            term.keys("eve", "Escape")  # stop watching: back to the lobby
            term.wait("eve", "Live tables")
            while spectators(ada) != 0:
                pass
            term.keys("eve", "C-q")
            term.wait("eve", "parlor-exited-0")
    finally:
        term.close()
        server.stop()


def test_a_replay_file_watched_in_a_real_terminal(tmp_path: Path):
    """`parlor replay FILE --watch`: a game of no database on this machine, opened on its
    replay from a seat; Esc is the lobby of the scratch database's server, deleted on exit."""
    from server.cli import main

    db, file, scratch = tmp_path / "games.db", tmp_path / "game.json", tmp_path / "tmp"
    assert main(["sim", "colonel-blotto", "--seat", "random", "--seat", "random", "--preset",
                 "small", "--games", "1", "--seed", "3", "--quiet", "--db", str(db)]) == 0
    assert main(["replay", "1", "--export", str(file), "--db", str(db)]) == 0
    db.unlink()
    scratch.mkdir()
    term = Tmux()
    try:
        term.open("main", f"TMPDIR={scratch} " + parlor("--name", "tester", "replay", str(file),
                                                         "--watch", "--seat", "0"))
        term.wait("main", r"seat 0: random #0")
        term.wait("main", r"step 0 / \d+")
        term.keys("main", "Right")
        term.wait("main", r"step 1 / \d+")
        assert any(scratch.iterdir())  # the game's scratch database, while it is watched
        term.keys("main", "Escape")
        term.wait("main", r"Replay a game")  # the lobby's footer
        term.keys("main", "C-q")
        assert "parlor-exited-0" in term.wait("main", r"parlor-exited-\d+")
        assert not any(scratch.iterdir())
    finally:
        term.close()
